import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder holding the app's package.json, found by walking up from this module's own location,
 * so it is right from the sources, from electron-vite's bundles (`out/main`) and from the CLI's
 * bundle (`out/cli/chunks`) alike.
 */
export function findAppRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return from;
    dir = parent;
  }
}
