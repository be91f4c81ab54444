/**
 * Reference numbering ("Image 1", "Video 1", "Audio 2") and maintenance of the labels a prompt
 * cites. Order within each kind fixes the number of that kind; kinds are numbered separately.
 */
import type { MediaKind, ProbedReference, ReferenceRole } from './draft.js';
import { ROLE_BY_KIND, referenceKind } from './draft.js';

export interface ReferenceNumber {
  referenceId: string;
  role: ReferenceRole;
  kind: MediaKind;
  /** 1-based within its kind. */
  number: number;
  /** English label, e.g. "Image 1". */
  label: string;
  /** i18n key of the kind word; the renderer formats it with `number`. */
  labelKey: `h3.reference.label.${MediaKind}`;
}

const KIND_WORD: Readonly<Record<MediaKind, string>> = { image: 'Image', video: 'Video', audio: 'Audio' };

export function labelFor(kind: MediaKind, number: number): string {
  return `${KIND_WORD[kind]} ${number}`;
}

/** Role, kind and number of every reference, in list order. An audio-bearing `.mov` is an Audio. */
export function numberReferences(references: readonly ProbedReference[]): ReferenceNumber[] {
  const counters: Record<MediaKind, number> = { image: 0, video: 0, audio: 0 };
  return references.map((ref) => {
    const kind = referenceKind(ref);
    const number = ++counters[kind];
    return {
      referenceId: ref.id,
      role: ROLE_BY_KIND[kind],
      kind,
      number,
      label: labelFor(kind, number),
      labelKey: `h3.reference.label.${kind}` as const,
    };
  });
}

/**
 * Move reference `id` to position `toIndexWithinKind` among the references of its own kind
 * (0-based, clamped). References of other kinds keep their positions in the list; only the
 * slots of that kind are permuted. Returns a new array (the input is not modified); an unknown
 * id returns an unchanged copy.
 */
export function reorderWithinKind<T extends ProbedReference>(
  references: readonly T[],
  id: string,
  toIndexWithinKind: number,
): T[] {
  const moving = references.find((r) => r.id === id);
  if (!moving) return [...references];
  const kind = referenceKind(moving);
  const slots: number[] = [];
  references.forEach((r, i) => {
    if (referenceKind(r) === kind) slots.push(i);
  });
  const sameKind = slots.map((i) => references[i] as T);
  const from = sameKind.indexOf(moving);
  const target = Math.max(0, Math.min(sameKind.length - 1, Math.trunc(toIndexWithinKind) || 0));
  sameKind.splice(from, 1);
  sameKind.splice(target, 0, moving);
  const out = [...references];
  slots.forEach((slot, k) => {
    out[slot] = sameKind[k] as T;
  });
  return out;
}

/** Words recognised as citations of each kind, case-insensitive (English by default). */
export type CitationWords = Readonly<Record<MediaKind, readonly string[]>>;
export const DEFAULT_CITATION_WORDS: CitationWords = { image: ['image'], video: ['video'], audio: ['audio'] };

export interface Citation {
  /** As written in the prompt, e.g. "image 2". */
  text: string;
  kind: MediaKind;
  number: number;
  /** UTF-16 offsets in the prompt (what a textarea selection uses). */
  start: number;
  end: number;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Scripts written without spaces between words: a citation word in them needs no word boundary. */
const UNSPACED_SCRIPT =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

function citationPattern(words: CitationWords): { re: RegExp; kindOfWord: Map<string, MediaKind> } {
  const kindOfWord = new Map<string, MediaKind>();
  for (const kind of ['image', 'video', 'audio'] as const) {
    for (const w of words[kind]) if (w.trim() !== '') kindOfWord.set(w.trim().toLowerCase(), kind);
  }
  const byLength = [...kindOfWord.keys()].sort((a, b) => b.length - a.length);
  const spaced = byLength.filter((w) => !UNSPACED_SCRIPT.test(w)).map(escapeRegExp);
  const unspaced = byLength.filter((w) => UNSPACED_SCRIPT.test(w)).map(escapeRegExp);
  // A spaced-script word must not be preceded by a letter/digit ("myimage 2" is no citation);
  // an unspaced-script word ("图片") may follow any character. Then optional horizontal space,
  // the number, and no further digit or alphabetic letter ("Image 12" is 12, "Image 2a" is none;
  // "图片2的" is a citation).
  const word = [
    ...(spaced.length > 0 ? [`(?<![\\p{L}\\p{N}_])(?:${spaced.join('|')})`] : []),
    ...(unspaced.length > 0 ? [`(?:${unspaced.join('|')})`] : []),
  ].join('|');
  const re = new RegExp(
    `(${word || '(?!)'})([^\\S\\r\\n]*)(\\d+)(?![\\p{N}_\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}])`,
    'giu',
  );
  return { re, kindOfWord };
}

/** Every citation like "Image 2", "image 2", "Audio 1" in the prompt, in order. */
export function findCitations(prompt: string, words: CitationWords = DEFAULT_CITATION_WORDS): Citation[] {
  const { re, kindOfWord } = citationPattern(words);
  const out: Citation[] = [];
  for (const m of prompt.matchAll(re)) {
    const word = m[1] ?? '';
    const kind = kindOfWord.get(word.toLowerCase());
    if (!kind) continue;
    const start = m.index ?? 0;
    out.push({ text: m[0], kind, number: Number(m[3]), start, end: start + m[0].length });
  }
  return out;
}

export interface StaleLabel {
  code: 'prompt.stale_label';
  target: 'prompt';
  params: {
    label: string;
    kind: MediaKind;
    number: number;
    /** UTF-16 offsets in the (rewritten) prompt. */
    start: number;
    end: number;
    /** `removed`: it cited a reference that was just removed; `missing`: it cites no reference. */
    reason: 'removed' | 'missing';
  };
  message: string;
  citation: Citation;
}

function staleLabel(c: Citation, reason: 'removed' | 'missing'): StaleLabel {
  return {
    code: 'prompt.stale_label',
    target: 'prompt',
    params: { label: c.text, kind: c.kind, number: c.number, start: c.start, end: c.end, reason },
    message:
      reason === 'removed'
        ? `The prompt mentions "${c.text}", but that reference was removed; change or remove the mention.`
        : `The prompt mentions "${c.text}", but there is no ${labelFor(c.kind, c.number)} among the references; change or remove it.`,
    citation: c,
  };
}

export interface RelabelResult {
  prompt: string;
  /** Number of citations whose number changed. */
  changed: number;
  /**
   * Citations that no longer point to a reference, with offsets in the rewritten prompt. After a
   * removal, use this rather than `findStaleLabels`: a citation of the removed "Image 2" keeps
   * its text and would otherwise look like a citation of the reference now numbered 2.
   */
  orphaned: StaleLabel[];
}

/**
 * Rewrite the citations of a prompt after references were reordered or removed: every citation
 * of a reference that still exists is renumbered to its number in `after`, in one pass (so
 * swapping "Image 1" and "Image 2" works). The word as written (case, spacing) is kept.
 * Citations of a removed reference, or that pointed to nothing in `before`, are left as written
 * and reported in `orphaned`.
 */
export function relabelPromptDetailed(
  prompt: string,
  before: readonly ReferenceNumber[],
  after: readonly ReferenceNumber[],
  words: CitationWords = DEFAULT_CITATION_WORDS,
): RelabelResult {
  const idByLabel = new Map(before.map((n) => [`${n.kind}:${n.number}`, n.referenceId]));
  const afterById = new Map(after.map((n) => [n.referenceId, n]));
  let out = '';
  let last = 0;
  let changed = 0;
  const orphaned: StaleLabel[] = [];
  for (const c of findCitations(prompt, words)) {
    out += prompt.slice(last, c.start);
    last = c.end;
    const id = idByLabel.get(`${c.kind}:${c.number}`);
    const now = id === undefined ? undefined : afterById.get(id);
    const start = out.length;
    if (!now || now.kind !== c.kind) {
      out += c.text;
      orphaned.push(staleLabel({ ...c, start, end: out.length }, id === undefined ? 'missing' : 'removed'));
      continue;
    }
    if (now.number !== c.number) changed++;
    // Keep the word and spacing as written; replace only the trailing digits.
    out += c.text.replace(/\d+$/, String(now.number));
  }
  out += prompt.slice(last);
  return { prompt: out, changed, orphaned };
}

/** The rewritten prompt of `relabelPromptDetailed`. */
export function relabelPrompt(
  prompt: string,
  before: readonly ReferenceNumber[],
  after: readonly ReferenceNumber[],
  words: CitationWords = DEFAULT_CITATION_WORDS,
): string {
  return relabelPromptDetailed(prompt, before, after, words).prompt;
}

/**
 * Citations that point to no current reference (e.g. "Image 3" when there are two images). A
 * warning for the prompt editor, not a blocking violation: `validateDraft` does not include it.
 */
export function findStaleLabels(
  prompt: string,
  numbering: readonly ReferenceNumber[],
  words: CitationWords = DEFAULT_CITATION_WORDS,
): StaleLabel[] {
  const present = new Set(numbering.map((n) => `${n.kind}:${n.number}`));
  return findCitations(prompt, words)
    .filter((c) => !present.has(`${c.kind}:${c.number}`))
    .map((c) => staleLabel(c, 'missing'));
}

/**
 * Insert `label` at `cursor` (UTF-16 offset, as a textarea reports it; clamped, and moved past
 * a surrogate pair it would split). Replaces `[cursor, selectionEnd)` when a selection is given.
 * Adds a space before the label when it would touch a preceding letter/digit/punctuation, and
 * one after it when it would touch a following letter or digit. Returns the new prompt and the
 * cursor placed right after the inserted text.
 */
export function insertLabel(
  prompt: string,
  cursor: number,
  label: string,
  selectionEnd?: number,
): { prompt: string; cursor: number } {
  const clamp = (n: number): number => {
    let c = Math.max(0, Math.min(prompt.length, Math.trunc(Number.isFinite(n) ? n : prompt.length)));
    const prev = prompt.charCodeAt(c - 1);
    if (c > 0 && c < prompt.length && prev >= 0xd800 && prev <= 0xdbff) c += 1;
    return c;
  };
  const start = clamp(cursor);
  const end = selectionEnd === undefined ? start : Math.max(start, clamp(selectionEnd));
  const before = prompt.slice(0, start);
  const after = prompt.slice(end);
  const needsSpaceBefore = before.length > 0 && !/\s$/u.test(before) && !/[([{"'“‘«]$/u.test(before);
  const needsSpaceAfter = after.length > 0 && /^[\p{L}\p{N}]/u.test(after);
  const inserted = `${needsSpaceBefore ? ' ' : ''}${label}${needsSpaceAfter ? ' ' : ''}`;
  return { prompt: before + inserted + after, cursor: start + inserted.length };
}
