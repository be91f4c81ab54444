import { createHash } from 'node:crypto';

/** Deterministic pseudo-random numbers (mulberry32) seeded from text. */
export function seededRandom(seedText: string): () => number {
  let state = createHash('sha256').update(seedText).digest().readUInt32LE(0);
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const EMBEDDING_DIMENSIONS = 256;

/** A deterministic unit vector for a text (same text, same vector). */
export function embed(text: string, dimensions = EMBEDDING_DIMENSIONS): number[] {
  const random = seededRandom('embed:' + text);
  const vector = Array.from({ length: dimensions }, () => random() * 2 - 1);
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0)) || 1;
  return vector.map((x) => x / norm);
}

/** Lower-cased word tokens (letters and digits of any script). */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * A real lexical relevance score in [0, 1]: BM25 over the given documents, squashed with
 * x / (x + 1). Documents sharing no term with the query score 0.
 */
export function lexicalScores(query: string, documents: string[]): number[] {
  const queryTerms = [...new Set(tokens(query))];
  const docs = documents.map(tokens);
  const avgLength = docs.reduce((sum, d) => sum + d.length, 0) / Math.max(1, docs.length) || 1;
  const k1 = 1.2;
  const b = 0.75;
  return docs.map((doc) => {
    let score = 0;
    for (const term of queryTerms) {
      const tf = doc.filter((t) => t === term).length;
      if (tf === 0) continue;
      const df = docs.filter((d) => d.includes(term)).length;
      const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
      score += (idf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * doc.length) / avgLength));
    }
    return Math.round((score / (score + 1)) * 1e6) / 1e6;
  });
}

/** Rough token count for usage objects. */
export function countTokens(text: string): number {
  return Math.max(1, Math.ceil(tokens(text).length * 1.3));
}
