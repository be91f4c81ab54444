#!/usr/bin/env node
// System packages Framewright needs beyond npm, by purpose. On Debian/Ubuntu, run as root (or with
// password-less sudo), missing ones are installed with apt-get; elsewhere the exact names are printed.
//   node scripts/system-packages.mjs app    – before `npm install`: native-module headers, ffmpeg
//   node scripts/system-packages.mjs test   – before the test suite: also Chromium, a Secret Service and
//                                            the image tools (mmdebstrap, umoci, bubblewrap)
// Set FRAMEWRIGHT_SKIP_SYSTEM_PACKAGES=1 to only report.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const PACKAGES = {
  app: [
    {
      deb: 'libsecret-1-dev',
      check: () => existsSync('/usr/include/libsecret-1'),
      why: 'keytar (OS keychain) builds against it',
    },
    {
      deb: 'ffmpeg',
      check: () => onPath('ffmpeg') && onPath('ffprobe'),
      why: 'media probing, posters and the simulator’s real media',
    },
    {
      deb: 'fonts-dejavu-core',
      check: () => existsSync('/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'),
      why: 'text drawn into simulator videos',
    },
  ],
  test: [
    {
      deb: 'chromium',
      check: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
      why: 'end-to-end tests (Playwright drives Debian’s Chromium)',
    },
    {
      deb: 'gnome-keyring',
      check: () => onPath('gnome-keyring-daemon'),
      why: 'a real Secret Service for the keychain tests',
    },
    {
      deb: 'dbus-daemon',
      check: () => onPath('dbus-run-session'),
      why: 'a private D-Bus session for the keychain tests',
    },
    {
      deb: 'fonts-wqy-microhei',
      check: () => existsSync('/usr/share/fonts/truetype/wqy/wqy-microhei.ttc'),
      why: 'Chinese text in screenshots',
    },
    {
      deb: 'mmdebstrap',
      check: () => onPath('mmdebstrap'),
      why: 'npm run image: the backend image’s Debian base, made from Debian’s packages',
    },
    {
      deb: 'umoci',
      check: () => onPath('umoci'),
      why: 'npm run image: the OCI image layout (and unpacking it to run the image in its test)',
    },
    {
      deb: 'bubblewrap',
      check: () => onPath('bwrap'),
      why: 'the image’s test runs its root filesystem read-only, as its user (no container runtime here)',
    },
    {
      deb: 'fonts-noto-color-emoji',
      check: () => existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf'),
      why: 'emoji in prompts (they count as one code point) drawn in screenshots',
    },
  ],
};

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

export function ensureSystemPackages(purposes) {
  const wanted = purposes.flatMap((purpose) => PACKAGES[purpose]);
  const missing = wanted.filter((pkg) => !pkg.check());
  if (missing.length === 0) return true;
  const names = missing.map((pkg) => pkg.deb);
  const isDebian = existsSync('/usr/bin/apt-get') && existsSync('/etc/debian_version');
  const isRoot = process.getuid?.() === 0;
  const canSudo =
    !isRoot && onPath('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (process.env.FRAMEWRIGHT_SKIP_SYSTEM_PACKAGES !== '1' && isDebian && (isRoot || canSudo)) {
    console.log(`Installing system packages: ${names.join(' ')}`);
    const prefix = isRoot ? [] : ['sudo', '-n'];
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    const run = (args) =>
      spawnSync(prefix[0] ?? args[0], prefix.length ? [...prefix.slice(1), ...args] : args.slice(1), {
        stdio: 'inherit',
        env,
      });
    run(['apt-get', 'update', '-qq']);
    const result = run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...names]);
    if (result.status === 0 && missing.every((pkg) => pkg.check())) return true;
  }
  console.log('Framewright needs these system packages:');
  for (const pkg of missing) console.log(`  ${pkg.deb} — ${pkg.why}`);
  console.log(
    isDebian
      ? `Install them with: sudo apt-get install ${names.join(' ')}`
      : 'On macOS: brew install ffmpeg (keychain and Chromium are built in). On Windows: install ffmpeg and put it on PATH or set FFMPEG_PATH.',
  );
  return false;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const purposes = process.argv.slice(2).filter((p) => p in PACKAGES);
  const ok = ensureSystemPackages(purposes.length ? purposes : ['app']);
  // `app` packages improve the app but are not fatal for npm install; `test` ones are.
  process.exit(ok || !purposes.includes('test') ? 0 : 1);
}
