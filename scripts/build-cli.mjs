#!/usr/bin/env node
// Builds the `framewright` CLI into out/cli/ (run by `npm install`'s postinstall and by
// `npm run build`): src/cli/main.ts and everything it imports, bundled by esbuild as ES modules
// with code splitting, so each command's action (a dynamic import) is a chunk of its own that is
// read only when that command runs. Native and optional packages stay outside the bundle and load
// from node_modules. `build-info.json` lists the sources the bundle was built from and when;
// bin/framewright.js runs the bundle only while none of them is newer (else the sources, via tsx).
// A failed build is said in one line and leaves no bundle: the CLI then runs from the sources
// (`--strict`, as `npm run build` and `npm test` use it, also exits 1).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Packages loaded from node_modules at run time: native addons, optional ones, optional peers. */
export const CLI_EXTERNAL_PACKAGES = [
  'better-sqlite3',
  'keytar',
  'ffmpeg-static',
  'bufferutil',
  'utf-8-validate',
  'electron',
];

export const CLI_ENTRY = 'framewright.js';

/** Builds the bundle into `outDir` (default out/cli) from the sources under `root`. */
export async function buildCli({ root = projectRoot, outDir = path.join(root, 'out', 'cli') } = {}) {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { framewright: 'src/cli/main.ts' },
    outdir: outDir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: CLI_EXTERNAL_PACKAGES,
    // CommonJS packages in the bundle (commander, ws, …) call require() for Node's own modules
    banner: {
      js: "import { createRequire as __fwCreateRequire } from 'node:module'; const require = __fwCreateRequire(import.meta.url);",
    },
    metafile: true,
    logLevel: 'silent',
  });
  const inputs = Object.keys(result.metafile.inputs)
    .filter((input) => !input.startsWith('node_modules/') && !input.includes('/node_modules/'))
    .sort();
  writeFileSync(path.join(outDir, 'meta.json'), JSON.stringify(result.metafile));
  writeFileSync(
    path.join(outDir, 'build-info.json'),
    JSON.stringify({ entry: CLI_ENTRY, builtAtMs: startedAt, inputs }, null, 2) + '\n',
  );
  return { outDir, inputs, metafile: result.metafile };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { outDir, inputs } = await buildCli();
    console.log(
      `The framewright CLI is built: ${path.relative(projectRoot, outDir)}/ (${inputs.length} sources).`,
    );
  } catch (error) {
    rmSync(path.join(projectRoot, 'out', 'cli'), { recursive: true, force: true });
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    console.log(`The framewright CLI was not built (${reason}); it runs from the sources through tsx.`);
    // `npm run build` and the test run insist; `npm install` goes on (the CLI still runs)
    if (process.argv.includes('--strict')) process.exitCode = 1;
  }
}
