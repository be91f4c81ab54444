// Why an Electron app that exited at start-up did not start, in one clause for the user
// ("Electron cannot start here: <this>."), from its exit code, signal and standard error.

const NATIVE_MISMATCH =
  /NativeBindingError|better-sqlite3 (cannot load|has no build)|NODE_MODULE_VERSION|compiled against a different Node\.js version|ERR_DLOPEN_FAILED/;
const NO_DISPLAY =
  /Missing X server|cannot open display|Unable to open X display|Failed to connect to (the )?Wayland|ozone_platform_(x11|wayland)\S* .*(fail|error)|Authorization required, but no authorization protocol/i;

function lines(stderr) {
  return `${stderr ?? ''}`
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The clearest line about a native module: our loader's own message, else Node's. */
function nativeLine(all) {
  const ours = all.find((l) => /better-sqlite3 (cannot load|has no build)/.test(l));
  if (ours) return ours.replace(/^.*?(better-sqlite3 )/, '$1');
  return all.find((l) => NATIVE_MISMATCH.test(l));
}

/**
 * @param {{ code: number | null, signal: string | null, stderr: string }} exit
 * @returns {string}
 */
export function describeElectronExit({ code, signal, stderr }) {
  const all = lines(stderr);
  const native = nativeLine(all);
  if (native) return `a native module does not match Electron (${native})`;
  const display = all.find((l) => NO_DISPLAY.test(l));
  if (display) return `it found no usable display (${display})`;
  const last = all.filter((l) => !l.startsWith('at ')).at(-1);
  const said = last ? `; last words: ${last}` : '';
  if (signal) return `it crashed at start-up (${signal}${said})`;
  // a shell reports death by signal N as 128 + N
  if (typeof code === 'number' && code > 128 && code < 160)
    return `it crashed at start-up (exit code ${code}${said})`;
  return `it exited with code ${code} at start-up${last ? ` (${last})` : ''}`;
}
