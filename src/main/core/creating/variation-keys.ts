import { createHash } from 'node:crypto';

/** The spec's seed range, 0..2147483647 (2^31 - 1). */
const SEED_SPAN = 2 ** 31;
/** What an idempotency key may be (the spec's 8..128 characters of `[A-Za-z0-9._:-]`). */
const KEY_SHAPE = /^[A-Za-z0-9._:-]{8,128}$/;

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * The idempotency key of variation `index` (0-based) of a draft: the draft's key and `.v<index>`,
 * the same on every press, so a second press (or a double click) replays the same N intents. A
 * draft key that would not leave a valid key is replaced by its SHA-256 (still one per draft).
 */
export function variationKey(draftKey: string, index: number): string {
  const direct = `${draftKey}.v${index}`;
  if (KEY_SHAPE.test(direct)) return direct;
  return `var-${sha256(draftKey).toString('hex').slice(0, 48)}.v${index}`;
}

/**
 * The seed of variation `index`: the draft's own seed for index 0 and the next ones after it
 * (mod 2^31); without a seed, a start derived from the draft's key. Deterministic, so a replay
 * sends the same body (the spec: a seed never changes in an idempotent retry), and distinct
 * within a group of at most 8.
 */
export function variationSeed(draftKey: string, draftSeed: number | null | undefined, index: number): number {
  const start =
    typeof draftSeed === 'number' && Number.isInteger(draftSeed) && draftSeed >= 0 && draftSeed < SEED_SPAN
      ? draftSeed
      : sha256(draftKey).readUInt32BE(0) % SEED_SPAN;
  return (start + index) % SEED_SPAN;
}

/** The group id of a draft's variations (one per draft key; a reopened draft starts a new group). */
export function variationGroupId(draftKey: string): string {
  return `vg-${sha256(draftKey).toString('hex').slice(0, 32)}`;
}
