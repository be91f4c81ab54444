/**
 * A word-level diff of two prompts (A → B) for the compare view: which words B removed from A and
 * which it added. Words are split by `Intl.Segmenter` when the runtime has it, so a prompt in a
 * script written without spaces (Chinese, Japanese) still diffs word by word.
 */
import { diffWords } from 'diff';

export interface PromptPart {
  /** `same`: in both; `removed`: only in A; `added`: only in B. */
  kind: 'same' | 'removed' | 'added';
  text: string;
}

export interface PromptDiff {
  parts: PromptPart[];
  /** Number of words (segments with a letter or digit) removed from A and added in B. */
  removedWords: number;
  addedWords: number;
  identical: boolean;
}

const wordSegmenter = (): Intl.Segmenter | undefined =>
  typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function'
    ? new Intl.Segmenter(undefined, { granularity: 'word' })
    : undefined;

function countWords(text: string, segmenter: Intl.Segmenter | undefined): number {
  if (segmenter) return [...segmenter.segment(text)].filter((s) => s.isWordLike).length;
  return text.split(/\s+/u).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

export function promptDiff(a: string, b: string): PromptDiff {
  const segmenter = wordSegmenter();
  const changes = segmenter ? diffWords(a, b, { intlSegmenter: segmenter }) : diffWords(a, b);
  const parts: PromptPart[] = [];
  let removedWords = 0;
  let addedWords = 0;
  for (const c of changes) {
    const kind = c.added ? 'added' : c.removed ? 'removed' : 'same';
    if (kind === 'added') addedWords += countWords(c.value, segmenter);
    if (kind === 'removed') removedWords += countWords(c.value, segmenter);
    const last = parts[parts.length - 1];
    if (last && last.kind === kind) last.text += c.value;
    else if (c.value !== '') parts.push({ kind, text: c.value });
  }
  return { parts, removedWords, addedWords, identical: a === b };
}
