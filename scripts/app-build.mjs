// Builds the main, preload and renderer bundles (electron-vite) when they are missing or older than
// any file under src/.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** Exits the process with the build's status when the build fails. */
export function ensureAppBuilt() {
  const outputs = ['out/main/index.js', 'out/preload/index.cjs', 'out/renderer/index.html'].map((p) =>
    path.join(root, p),
  );
  const built = outputs.every(existsSync);
  if (built && Math.min(...outputs.map((p) => statSync(p).mtimeMs)) >= newestMtime(path.join(root, 'src')))
    return;
  console.log('Building Framewright…');
  const result = spawnSync(path.join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (result.status !== 0) {
    console.error('The build failed; see above.');
    process.exit(result.status ?? 1);
  }
}
