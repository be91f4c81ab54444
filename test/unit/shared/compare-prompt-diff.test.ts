import { describe, expect, test } from 'vitest';
import { promptDiff } from '../../../src/shared/compare/prompt-diff.js';

describe('the word-level diff of two prompts', () => {
  test('marks the words B removed and added, keeping the rest as it was', () => {
    const d = promptDiff('A red lighthouse at dusk', 'A blue lighthouse at dawn, slowly');
    const text = (kind: string) =>
      d.parts
        .filter((p) => p.kind === kind)
        .map((p) => p.text.trim())
        .join('|');
    expect(text('removed')).toBe('red|dusk');
    expect(text('added')).toBe('blue|dawn, slowly');
    expect(d.removedWords).toBe(2);
    expect(d.addedWords).toBe(3);
    expect(d.identical).toBe(false);
    // reading A's parts gives A back, B's parts give B back
    const a = d.parts
      .filter((p) => p.kind !== 'added')
      .map((p) => p.text)
      .join('');
    const b = d.parts
      .filter((p) => p.kind !== 'removed')
      .map((p) => p.text)
      .join('');
    expect(a).toBe('A red lighthouse at dusk');
    expect(b).toBe('A blue lighthouse at dawn, slowly');
  });

  test('identical prompts are one unchanged part', () => {
    expect(promptDiff('Same words', 'Same words')).toEqual({
      parts: [{ kind: 'same', text: 'Same words' }],
      removedWords: 0,
      addedWords: 0,
      identical: true,
    });
  });

  test('a prompt written without spaces diffs by words, not as one block', () => {
    const d = promptDiff('一只猫在海边奔跑', '一只狗在海边奔跑');
    expect(d.parts.some((p) => p.kind === 'same' && p.text.includes('海边'))).toBe(true);
    expect(d.parts.filter((p) => p.kind === 'removed').map((p) => p.text)).toEqual(['猫']);
    expect(d.parts.filter((p) => p.kind === 'added').map((p) => p.text)).toEqual(['狗']);
  });
});
