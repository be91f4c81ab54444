/**
 * The first-screen budget `npm test` checks on its fresh build (scripts/renderer-chunks.mjs): here
 * the checker itself, on small built-renderer folders, so that it is known to fail when the first
 * chunk grows, when a split only moves bytes into a preloaded chunk, or when zod comes back.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FIRST_CHUNK_BUDGET_BYTES,
  FIRST_LOAD_BUDGET_BYTES,
  firstChunkProblems,
  rendererChunks,
} from '../../../scripts/renderer-chunks.mjs';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** A built renderer folder as electron-vite writes it: index.html, then assets/. */
function builtRenderer(files: Record<string, string | number>, preload: string[] = []): string {
  const dir = tempFolder('fw-chunks-');
  mkdirSync(path.join(dir, 'assets'));
  for (const [name, content] of Object.entries(files))
    writeFileSync(
      path.join(dir, 'assets', name),
      typeof content === 'number' ? 'x'.repeat(content) : content,
    );
  const links = preload.map((f) => `<link rel="modulepreload" crossorigin href="./assets/${f}">`).join('\n');
  writeFileSync(
    path.join(dir, 'index.html'),
    `<!doctype html><html><head>
    <script type="module" crossorigin src="./assets/index-AbC123.js"></script>
    ${links}</head><body><div id="root"></div></body></html>`,
  );
  return dir;
}

describe('the renderer first-chunk budget', () => {
  it('measures the entry, its preloads and the lazy chunks from index.html', () => {
    const dir = builtRenderer(
      { 'index-AbC123.js': 1000, 'react-runtime-X.js': 500, 'QueueScreen-Y.js': 300 },
      ['react-runtime-X.js'],
    );
    expect(rendererChunks(dir)).toEqual({
      entry: { file: 'assets/index-AbC123.js', bytes: 1000 },
      preloaded: [{ file: 'assets/react-runtime-X.js', bytes: 500 }],
      firstLoadBytes: 1500,
      lazy: [{ file: 'assets/QueueScreen-Y.js', bytes: 300 }],
      withZod: [],
    });
    expect(firstChunkProblems(dir)).toEqual([]);
  });

  it('fails a first chunk over 250 kB', () => {
    const dir = builtRenderer({ 'index-AbC123.js': FIRST_CHUNK_BUDGET_BYTES + 1 });
    expect(firstChunkProblems(dir)).toEqual([
      'the first chunk assets/index-AbC123.js is 250.0 kB (budget 250 kB)',
    ]);
  });

  it('fails a split that only moves the bytes into a preloaded chunk', () => {
    const dir = builtRenderer({ 'index-AbC123.js': 1000, 'vendor-Z.js': FIRST_LOAD_BUDGET_BYTES }, [
      'vendor-Z.js',
    ]);
    expect(firstChunkProblems(dir)).toEqual([
      'the page loads 441.0 kB before its first screen (budget 440 kB)',
    ]);
  });

  it('fails any chunk, even a lazy one, that carries zod', () => {
    const dir = builtRenderer({
      'index-AbC123.js': 1000,
      'SettingsScreen-Q.js': 'class e{constructor(){this.name="$ZodType"}}',
    });
    expect(firstChunkProblems(dir)).toEqual([
      "assets/SettingsScreen-Q.js carries zod (the bridge's schemas stay in main)",
    ]);
  });
});
