// electron-builder `afterPack` hook: flips Electron's fuses in the packaged binary, before it is
// signed and wrapped into an installer. The fuses are read-only switches compiled into Electron;
// once flipped, no command-line flag or environment variable can turn these features back on.
import path from 'node:path';
import { FuseV1Options, FuseVersion, flipFuses } from '@electron/fuses';

/** The fuse wire Framewright ships with (every V1 fuse set explicitly). */
export const FRAMEWRIGHT_FUSES = Object.freeze({
  version: FuseVersion.V1,
  strictlyRequireAllFuses: true,
  // `ELECTRON_RUN_AS_NODE` would turn the signed app into a plain Node runtime.
  [FuseV1Options.RunAsNode]: false,
  // Cookies (and the session's storage) encrypted with the OS keychain.
  [FuseV1Options.EnableCookieEncryption]: true,
  // `NODE_OPTIONS` / `NODE_EXTRA_CA_CERTS`-style injection into the main process.
  [FuseV1Options.EnableNodeOptionsEnvironmentVariable]: false,
  // `--inspect`, `--inspect-brk`: a debugger attached to the main process (and its keys).
  [FuseV1Options.EnableNodeCliInspectArguments]: false,
  // app.asar is checked against the hash electron-builder embeds (macOS, Windows).
  [FuseV1Options.EnableEmbeddedAsarIntegrityValidation]: true,
  // Only the (integrity-checked) app.asar is loaded, never a loose `app/` folder beside it.
  [FuseV1Options.OnlyLoadAppFromAsar]: true,
  [FuseV1Options.LoadBrowserProcessSpecificV8Snapshot]: false,
  // The renderer is served from `framewright-app:`, so file:// needs no extra privileges.
  [FuseV1Options.GrantFileProtocolExtraPrivileges]: false,
});

/** The packaged Electron executable electron-builder just laid out in `appOutDir`. */
export function packagedExecutable(context) {
  const { appOutDir, electronPlatformName, packager } = context;
  const productFilename = packager.appInfo.productFilename;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${productFilename}.app`);
    case 'win32':
      return path.join(appOutDir, `${productFilename}.exe`);
    default:
      return path.join(appOutDir, packager.executableName);
  }
}

export default async function afterPack(context, flip = flipFuses) {
  const isMac = context.electronPlatformName === 'darwin' || context.electronPlatformName === 'mas';
  // On macOS the flip invalidates the ad-hoc signature; reset it so the (later) signing step and
  // arm64's mandatory signature still hold.
  await flip(packagedExecutable(context), { ...FRAMEWRIGHT_FUSES, resetAdHocDarwinSignature: isMac });
}
