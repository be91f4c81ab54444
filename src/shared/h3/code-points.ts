/**
 * Unicode code point counting for prompt limits.
 *
 * The H3 limits ("1..7000 Unicode code points after trimming") count code points, not UTF-16
 * units and not bytes: an emoji or any other astral character counts once. Nothing here ever
 * shortens a string; callers show the count and the limit and let the creator edit.
 */

/** Number of Unicode code points in `text` as written (a lone surrogate counts as one). */
export function countCodePoints(text: string): number {
  let count = 0;
  // for..of iterates by code point, exactly like `[...text]`, without allocating an array.
  for (const _ of text) count++;
  return count;
}

/** Number of Unicode code points after removing leading and trailing white space (`String.prototype.trim`). */
export function countTrimmedCodePoints(text: string): number {
  return countCodePoints(text.trim());
}

/** Code point count as the prompt limit sees it: trimmed unless the contract says `trim: false`. */
export function countPromptCodePoints(text: string, trim = true): number {
  return trim ? countTrimmedCodePoints(text) : countCodePoints(text);
}
