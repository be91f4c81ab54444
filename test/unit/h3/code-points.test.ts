import { describe, expect, test } from 'vitest';
import {
  countCodePoints,
  countPromptCodePoints,
  countTrimmedCodePoints,
} from '../../../src/shared/h3/index.js';

describe('countCodePoints', () => {
  test.each([
    ['', 0],
    ['a', 1],
    ['abc', 3],
    ['😀', 1],
    ['a😀b', 3],
    ['𝔘𝔫𝔦', 3],
    ['é', 1], // precomposed
    ['e\u0301', 2], // combining accent is its own code point
    ['👍🏽', 2], // emoji + skin-tone modifier are two code points
    ['\ud83d', 1], // lone surrogate counts once
    ['中文字', 3],
  ])('%j has %i code points', (text, n) => {
    expect(countCodePoints(text)).toBe(n);
    expect(countCodePoints(text)).toBe([...text].length);
  });

  test('a string of 7000 astral characters is 7000, not 14000', () => {
    const s = '😀'.repeat(7000);
    expect(s.length).toBe(14000);
    expect(countCodePoints(s)).toBe(7000);
  });
});

describe('countTrimmedCodePoints', () => {
  test.each([
    ['  a  ', 1],
    ['\n\t😀 \u00a0', 1],
    ['   ', 0],
    ['\u3000x\u3000', 1], // ideographic space trims
    [' a b ', 3],
  ])('%j trims to %i', (text, n) => {
    expect(countTrimmedCodePoints(text)).toBe(n);
  });

  test('does not modify or truncate its input', () => {
    const s = ` ${'x'.repeat(8000)} `;
    expect(countTrimmedCodePoints(s)).toBe(8000);
    expect(s.length).toBe(8002);
  });

  test('countPromptCodePoints trims unless told not to', () => {
    expect(countPromptCodePoints('  ab  ')).toBe(2);
    expect(countPromptCodePoints('  ab  ', false)).toBe(6);
  });
});
