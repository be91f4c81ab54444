/**
 * The built renderer's chunks (`out/renderer`, built by `npm run bench`): every chunk's size, and the
 * first screen's budget as `npm test` checks it (scripts/renderer-chunks.mjs): the entry chunk
 * (`assets/index-*.js`) at most 250 kB, with the chunks index.html preloads at most 440 kB, and no
 * chunk carrying zod.
 */
import path from 'node:path';
import {
  FIRST_CHUNK_BUDGET_BYTES,
  FIRST_LOAD_BUDGET_BYTES,
  rendererChunks,
} from '../scripts/renderer-chunks.mjs';
import type { BenchRow } from './measure.js';

const RENDERER = path.resolve(import.meta.dirname, '..', 'out', 'renderer');

export interface ChunkSize {
  file: string;
  bytes: number;
  loaded: 'entry' | 'preloaded' | 'lazy';
}

/** Every script chunk of the built renderer, largest first, with when the page loads it. */
export function rendererChunkSizes(): ChunkSize[] {
  const chunks = rendererChunks(RENDERER);
  return [
    { ...chunks.entry, loaded: 'entry' as const },
    ...chunks.preloaded.map((c) => ({ ...c, loaded: 'preloaded' as const })),
    ...chunks.lazy.map((c) => ({ ...c, loaded: 'lazy' as const })),
  ].sort((a, b) => b.bytes - a.bytes);
}

const kB = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

export async function benchRendererChunks(): Promise<BenchRow[]> {
  const chunks = rendererChunks(RENDERER);
  for (const chunk of rendererChunkSizes())
    console.log(`  ${chunk.file}: ${kB(chunk.bytes)} (${chunk.loaded})`);
  const ok =
    chunks.entry.bytes <= FIRST_CHUNK_BUDGET_BYTES &&
    chunks.firstLoadBytes <= FIRST_LOAD_BUDGET_BYTES &&
    chunks.withZod.length === 0;
  return [
    {
      name: "renderer's first screen with its preloads (bytes / 440 kB)",
      ratio: chunks.firstLoadBytes / FIRST_LOAD_BUDGET_BYTES,
      goal: 'goal ≤ 1.00; the entry alone ≤ 250 kB; no zod',
      ok,
      detail:
        `${chunks.entry.file} ${kB(chunks.entry.bytes)}; with its preloads ` +
        `(${chunks.preloaded.map((c) => `${path.basename(c.file)} ${kB(c.bytes)}`).join(', ') || 'none'}) ` +
        `${kB(chunks.firstLoadBytes)}; ${chunks.lazy.length} lazy chunks ` +
        `${kB(chunks.lazy.reduce((sum, c) => sum + c.bytes, 0))}; chunks with zod: ${chunks.withZod.length}`,
    },
  ];
}
