#!/usr/bin/env node
// The `framewright` command. It runs the bundle in out/cli/ (built by `npm install` and
// `npm run build`, see scripts/build-cli.mjs) while no source it was built from has changed since;
// otherwise — during development, or when the bundle could not be built — it runs the TypeScript
// sources through tsx's loader, with nothing said on stdout.
import { readFileSync, statSync } from 'node:fs';

const root = new URL('../', import.meta.url);

/** The bundle's entry when it is newer than every source listed in its build-info.json. */
function freshBundle() {
  try {
    const info = JSON.parse(readFileSync(new URL('out/cli/build-info.json', root), 'utf8'));
    for (const input of info.inputs) {
      if (statSync(new URL(input, root)).mtimeMs > info.builtAtMs) return undefined;
    }
    return new URL(`out/cli/${info.entry}`, root);
  } catch {
    return undefined; // no bundle, or a source gone: run the sources
  }
}

const bundle = freshBundle();
let cli;
if (bundle) {
  cli = await import(bundle.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../src/cli/main.ts');
}
process.exitCode = await cli.runCli(process.argv);
