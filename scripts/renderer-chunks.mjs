// What the built renderer (out/renderer) loads before its first screen, and the budget it must
// keep: the entry chunk (`assets/index-*.js`, the script index.html starts) at most 250 kB, with
// what it preloads at most 440 kB, and no
// chunk carrying the schema library (zod stays in main: the renderer uses the bridge's types and
// its names-only module). Read from the built index.html, so it measures what a page really loads:
// the entry script plus the chunks it preloads. `npm test` checks it right after its build step;
// `npm run bench` reports the same figures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const FIRST_CHUNK_BUDGET_BYTES = 250 * 1000;
/** The entry and what it preloads (React's runtime is its own chunk), so a split cannot hide growth. */
export const FIRST_LOAD_BUDGET_BYTES = 440 * 1000;
/** A string every zod bundle keeps through minification (its type registry's constructor name). */
const ZOD_MARKER = '"$ZodType"';

/** @param {string} html @param {RegExp} pattern */
function attributes(html, pattern) {
  return [...html.matchAll(pattern)].map((m) => m[1].replace(/^\.\//, ''));
}

/**
 * The chunks of a built renderer folder: the entry, the ones index.html preloads, and every other.
 * @param {string} outDir e.g. out/renderer
 */
export function rendererChunks(outDir) {
  const html = readFileSync(path.join(outDir, 'index.html'), 'utf8');
  const [entry, ...extra] = attributes(html, /<script[^>]*type="module"[^>]*src="([^"]+)"/g);
  if (!entry || extra.length > 0)
    throw new Error(`${outDir}/index.html should start exactly one module script.`);
  const preloaded = attributes(html, /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const size = (file) => statSync(path.join(outDir, file)).size;
  const all = readdirSync(path.join(outDir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => `assets/${f}`);
  const withZod = all.filter((f) => readFileSync(path.join(outDir, f), 'utf8').includes(ZOD_MARKER));
  return {
    entry: { file: entry, bytes: size(entry) },
    preloaded: preloaded.map((file) => ({ file, bytes: size(file) })),
    /** Everything the page loads before its first screen: the entry and its preloads. */
    firstLoadBytes: size(entry) + preloaded.reduce((sum, file) => sum + size(file), 0),
    lazy: all
      .filter((f) => f !== entry && !preloaded.includes(f))
      .map((file) => ({ file, bytes: size(file) })),
    withZod,
  };
}

/**
 * What breaks the first-screen budget, one sentence each (empty: within it).
 * @param {string} outDir
 */
export function firstChunkProblems(outDir) {
  const chunks = rendererChunks(outDir);
  const problems = [];
  if (!/^assets\/index-[^/]+\.js$/.test(chunks.entry.file))
    problems.push(`the entry chunk is ${chunks.entry.file}, not assets/index-*.js`);
  if (chunks.entry.bytes > FIRST_CHUNK_BUDGET_BYTES)
    problems.push(
      `the first chunk ${chunks.entry.file} is ${(chunks.entry.bytes / 1000).toFixed(1)} kB (budget ${FIRST_CHUNK_BUDGET_BYTES / 1000} kB)`,
    );
  if (chunks.firstLoadBytes > FIRST_LOAD_BUDGET_BYTES)
    problems.push(
      `the page loads ${(chunks.firstLoadBytes / 1000).toFixed(1)} kB before its first screen (budget ${FIRST_LOAD_BUDGET_BYTES / 1000} kB)`,
    );
  for (const file of chunks.withZod) problems.push(`${file} carries zod (the bridge's schemas stay in main)`);
  return problems;
}
