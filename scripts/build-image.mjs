#!/usr/bin/env node
// `npm run image`: the team deployment's container image, built offline from what this machine can
// reach — Debian's packages for the base system and ffmpeg (mmdebstrap), the project's own build and
// its native modules, and this machine's Node.js — into an OCI image layout (umoci), archived as
// out/image/framewright-backend.oci.tar for `framewright platform release --image`.
//
// The image: `framewright serve --platform --host 0.0.0.0 --port 8080 --data-dir /data` as its entry
// point, user 10001 (not root), all state under the one volume /data, nothing written elsewhere (it
// runs with a read-only root filesystem). Reproducible: every time in it is SOURCE_DATE_EPOCH (the
// commit's time unless set), files are sorted and owned by 0 or 10001 only, so two builds from the
// same commit and the same Debian packages give the same digest. The Debian base is cached in
// out/image/cache by its inputs (packages, dpkg's exclusions, suite, mirror): a second build reuses it, whatever the
// commit. (The same digest needs the same Debian packages: a mirror that moved on between two builds
// gives a newer base; FRAMEWRIGHT_IMAGE_MIRROR may name a snapshot.)
//
// `--base-only` makes (or finds) the cached Debian base and stops: `npm test` starts it first, beside
// its other steps, so the image's step later finds it made (it needs only the network and Debian's
// packages, not the build).
//
// Needs root (mmdebstrap's root mode) and the Debian packages mmdebstrap and umoci (`npm test`'s
// system-package check and `.ci/run` install them).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
  appendFileSync,
  chmodSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const work = path.join(root, 'out', 'image');
const archive = path.join(work, 'framewright-backend.oci.tar');
const SUITE = 'bookworm';
const MIRROR = process.env.FRAMEWRIGHT_IMAGE_MIRROR ?? 'http://deb.debian.org/debian';
const PACKAGES = ['ca-certificates', 'ffmpeg', 'libstdc++6', 'tzdata'];
// What dpkg leaves out of the base: manuals, info pages, translations and documentation (but each
// package's copyright), and the GPU drivers of Mesa with the LLVM and Z3 they load, which Debian's
// ffmpeg depends on (through SDL and VA-API) and a headless ffmpeg never opens: 160 MB less to pack.
const DPKG_OPTIONS = [
  'path-exclude=/usr/share/man/*',
  'path-exclude=/usr/share/info/*',
  'path-exclude=/usr/share/locale/*',
  'path-exclude=/usr/share/doc/*',
  'path-include=/usr/share/doc/*/copyright',
  'path-exclude=/usr/lib/x86_64-linux-gnu/dri/*',
  'path-exclude=/usr/lib/x86_64-linux-gnu/libLLVM-15.so*',
  'path-exclude=/usr/lib/x86_64-linux-gnu/libz3.so*',
];
const UID = 10001;
const PORT = 8080;

const run = (command, args, options = {}) => {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
};
const step = (name) => console.log(`\n== ${name}`);

for (const tool of ['mmdebstrap', 'umoci'])
  if (spawnSync('which', [tool]).status !== 0) {
    console.error(`npm run image needs ${tool} (apt-get install -y mmdebstrap umoci).`);
    process.exit(2);
  }

const epoch =
  process.env.SOURCE_DATE_EPOCH ??
  execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root }).toString().trim();
const env = { ...process.env, SOURCE_DATE_EPOCH: epoch, LC_ALL: 'C.UTF-8', TZ: 'UTC' };
// the base's own times (password ages, dpkg's records) are this fixed moment, not the commit's, so
// the cached base serves every commit; every file's time is set to the commit's afterwards
const BASE_EPOCH = '1700000000';

// ---- the Debian base, cached by its inputs ----
step('the Debian base (mmdebstrap)');
const baseKey = createHash('sha256')
  .update(JSON.stringify({ SUITE, MIRROR, PACKAGES, DPKG_OPTIONS, BASE_EPOCH }))
  .digest('hex')
  .slice(0, 16);
const baseTar = path.join(work, 'cache', `debian-${SUITE}-${baseKey}.tar`);
if (existsSync(baseTar)) console.log(`reused ${path.relative(root, baseTar)}`);
else {
  mkdirSync(path.dirname(baseTar), { recursive: true });
  run(
    'mmdebstrap',
    [
      '--mode=root',
      '--variant=essential',
      '--format=tar',
      `--include=${PACKAGES.join(',')}`,
      ...DPKG_OPTIONS.map((option) => `--dpkgopt=${option}`),
      // no apt lists, caches, logs or machine id: nothing that differs from build to build
      '--customize-hook=rm -rf "$1"/var/cache/apt/* "$1"/var/lib/apt/lists/* "$1"/var/log/* "$1"/var/cache/ldconfig/aux-cache',
      '--customize-hook=rm -f "$1"/etc/machine-id "$1"/var/lib/dbus/machine-id "$1"/etc/hostname "$1"/etc/resolv.conf',
      SUITE,
      `${baseTar}.part`,
      MIRROR,
    ],
    { env: { ...env, SOURCE_DATE_EPOCH: BASE_EPOCH } },
  );
  run('mv', [`${baseTar}.part`, baseTar]);
  // a base of other inputs is not used again
  for (const old of readdirSync(path.dirname(baseTar)))
    if (path.join(path.dirname(baseTar), old) !== baseTar) rmSync(path.join(path.dirname(baseTar), old));
}
if (process.argv.includes('--base-only')) process.exit(0);

// ---- the root filesystem: the base, then Framewright ----
step('the root filesystem');
const rootfs = path.join(work, 'rootfs');
rmSync(rootfs, { recursive: true, force: true });
mkdirSync(rootfs, { recursive: true });
run('tar', ['-xf', baseTar, '-C', rootfs, '--numeric-owner']);
const app = path.join(rootfs, 'opt', 'framewright');
mkdirSync(app, { recursive: true });
// the built CLI bundle and the renderer (npm run build made them): the bundle's code only, not its
// build notes (build-info.json has the build's time, meta.json this folder's paths)
mkdirSync(path.join(app, 'out'), { recursive: true });
const { entry } = JSON.parse(readFileSync(path.join(root, 'out', 'cli', 'build-info.json'), 'utf8'));
for (const part of [`out/cli/${entry}`, 'out/cli/chunks', 'out/renderer'])
  cpSync(path.join(root, part), path.join(app, part), { recursive: true });
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
writeFileSync(
  path.join(app, 'package.json'),
  JSON.stringify({ name: manifest.name, version: manifest.version, private: true, type: manifest.type }) +
    '\n',
);
// the entry point runs the bundle itself (bin/framewright.js would look for the sources it came from)
writeFileSync(
  path.join(app, 'framewright.mjs'),
  `const { runCli } = await import('./out/cli/${entry}');\nprocess.exitCode = await runCli(process.argv);\n`,
);
// The bundle holds every pure JavaScript dependency; outside it are only the native modules the
// backend loads: better-sqlite3 (the journals) and what it requires. keytar (the desktop keychain)
// is left out: the backend keeps its secrets in its own encrypted store under /data.
const nativeModules = ['better-sqlite3'];
const closure = new Set();
const addPackage = (name) => {
  if (closure.has(name)) return;
  closure.add(name);
  const own = JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'));
  for (const dependency of Object.keys(own.dependencies ?? {})) addPackage(dependency);
};
nativeModules.forEach(addPackage);
for (const name of [...closure].sort()) {
  const from = path.join(root, 'node_modules', name);
  const to = path.join(app, 'node_modules', name);
  if (!existsSync(path.join(from, 'binding.gyp'))) {
    cpSync(from, to, { recursive: true, dereference: true });
    continue;
  }
  // a native module: its JavaScript and its compiled addon, not its sources, objects and build
  // files (they hold this checkout's paths, which differ from clone to clone)
  for (const part of ['package.json', 'lib', 'LICENSE'])
    if (existsSync(path.join(from, part)))
      cpSync(path.join(from, part), path.join(to, part), { recursive: true });
  const release = path.join(from, 'build', 'Release');
  mkdirSync(path.join(to, 'build', 'Release'), { recursive: true });
  for (const file of readdirSync(release).filter((f) => f.endsWith('.node')))
    cpSync(path.join(release, file), path.join(to, 'build', 'Release', file));
}
// this machine's Node.js (the one the native modules were built for), as /usr/local/bin/node
cpSync(process.execPath, path.join(rootfs, 'usr', 'local', 'bin', 'node'));
// every program and addon the backend runs finds every library it links in the image (what dpkg
// left out above is never one of them)
for (const binary of [
  '/usr/bin/ffmpeg',
  '/usr/bin/ffprobe',
  '/usr/local/bin/node',
  '/opt/framewright/node_modules/better-sqlite3/build/Release/better_sqlite3.node',
]) {
  const linked = spawnSync('chroot', [rootfs, '/usr/bin/ldd', binary], { encoding: 'utf8' });
  const missing = `${linked.stdout}${linked.stderr}`.split('\n').filter((line) => line.includes('not found'));
  if (linked.status !== 0 || missing.length > 0)
    throw new Error(`${binary} in the image lacks a library:\n${missing.join('\n') || linked.stderr}`);
}
// the one user, and the one volume it owns
appendFileSync(
  path.join(rootfs, 'etc', 'passwd'),
  `framewright:x:${UID}:${UID}:Framewright:/data:/usr/sbin/nologin\n`,
);
appendFileSync(path.join(rootfs, 'etc', 'group'), `framewright:x:${UID}:\n`);
mkdirSync(path.join(rootfs, 'data'), { recursive: true });
run('chown', [`${UID}:${UID}`, path.join(rootfs, 'data')]);
chmodSync(path.join(rootfs, 'data'), 0o700);
// every time in the image is the epoch
run('find', [rootfs, '-exec', 'touch', '--no-dereference', '--date', `@${epoch}`, '{}', '+']);

// ---- the OCI image ----
step('the OCI image (umoci)');
const layout = path.join(work, 'oci');
const bundle = path.join(work, 'bundle');
rmSync(layout, { recursive: true, force: true });
rmSync(bundle, { recursive: true, force: true });
const image = `${layout}:framewright`;
const created = new Date(Number(epoch) * 1000).toISOString();
run('umoci', ['init', '--layout', layout], { env });
run('umoci', ['new', '--image', image], { env });
run('umoci', ['unpack', '--image', image, bundle], { env });
rmSync(path.join(bundle, 'rootfs'), { recursive: true, force: true });
run('mv', [rootfs, path.join(bundle, 'rootfs')]);
run('umoci', ['repack', '--no-history', '--image', image, bundle], { env });
run(
  'umoci',
  [
    'config',
    '--no-history',
    '--image',
    image,
    `--created=${created}`,
    '--author=Framewright',
    '--os=linux',
    '--architecture=amd64',
    `--config.user=${UID}:${UID}`,
    '--config.workingdir=/data',
    '--config.volume=/data',
    `--config.exposedports=${PORT}/tcp`,
    '--config.env=PATH=/usr/local/bin:/usr/bin:/bin',
    '--config.env=NODE_ENV=production',
    '--clear=config.entrypoint',
    '--config.entrypoint=/usr/local/bin/node',
    '--config.entrypoint=/opt/framewright/framewright.mjs',
    '--clear=config.cmd',
    ...[
      ...['serve', '--platform', '--host', '0.0.0.0', '--port', String(PORT), '--data-dir', '/data'],
      ...['--renderer-dir', '/opt/framewright/out/renderer'],
    ].map((arg) => `--config.cmd=${arg}`),
  ],
  { env },
);
run('umoci', ['gc', '--layout', layout], { env });
rmSync(bundle, { recursive: true, force: true });

// ---- the archive: sorted, owned by root, every time the epoch ----
step('the archive');
run('find', [layout, '-exec', 'touch', '--no-dereference', '--date', `@${epoch}`, '{}', '+']);
run(
  'tar',
  [
    '--sort=name',
    `--mtime=@${epoch}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    '-cf',
    archive,
    '-C',
    layout,
    'oci-layout',
    'index.json',
    'blobs',
  ],
  { env },
);
const index = JSON.parse(readFileSync(path.join(layout, 'index.json'), 'utf8'));
const digest = index.manifests[0].digest;
writeFileSync(path.join(work, 'digest'), `${digest}\n`);
console.log(`\nThe image: ${path.relative(root, archive)}\nIts manifest: ${digest}`);
