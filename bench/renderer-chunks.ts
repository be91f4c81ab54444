/**
 * The sizes of the built renderer's chunks (`out/renderer/assets`, built by `npm run bench`), and
 * the first chunk — the script `out/renderer/index.html` loads — against its goal of 450 kB.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { BenchRow } from './measure.js';

const RENDERER = path.resolve(import.meta.dirname, '..', 'out', 'renderer');
const FIRST_CHUNK_GOAL_BYTES = 450 * 1000;

export interface ChunkSize {
  file: string;
  bytes: number;
}

/** Every file of the built renderer's assets, largest first. */
export function rendererChunkSizes(): ChunkSize[] {
  const assets = path.join(RENDERER, 'assets');
  return readdirSync(assets)
    .map((file) => ({ file: `assets/${file}`, bytes: statSync(path.join(assets, file)).size }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** The module script of index.html: what the browser loads before the first screen. */
export function firstChunk(): string {
  const html = readFileSync(path.join(RENDERER, 'index.html'), 'utf8');
  const src = /<script[^>]*type="module"[^>]*src="\.?\/?([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error('out/renderer/index.html loads no module script');
  return src;
}

export async function benchRendererChunks(): Promise<BenchRow[]> {
  const chunks = rendererChunkSizes();
  const first = firstChunk();
  const bytes = chunks.find((c) => c.file === first)?.bytes;
  if (bytes === undefined) throw new Error(`the first chunk ${first} is not in out/renderer/assets`);
  for (const chunk of chunks) console.log(`  ${chunk.file}: ${(chunk.bytes / 1000).toFixed(1)} kB`);
  return [
    {
      name: "renderer's first chunk",
      ratio: bytes / FIRST_CHUNK_GOAL_BYTES,
      goal: 'goal ≤ 1.00 of 450 kB',
      ok: bytes <= FIRST_CHUNK_GOAL_BYTES,
      detail: `${first}: ${(bytes / 1000).toFixed(1)} kB (${chunks.length} files in out/renderer/assets)`,
    },
  ];
}
