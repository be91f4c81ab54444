import { describe, expect, it } from 'vitest';
import {
  captionTime,
  cuesForLine,
  subtitlesFilter,
  toSrt,
  toWebVtt,
} from '../../../src/main/core/media-tools/captions.js';

/** Caption sidecars players read: SRT (comma before the milliseconds) and WebVTT (a dot, a header). */

const cues = [
  { startSeconds: 65.5, endSeconds: 68.25, text: 'Second line' },
  { startSeconds: 1.5, endSeconds: 3, text: 'Hello <world> & friends' },
];

describe('caption sidecars', () => {
  it('writes SRT: numbered cues in time order, HH:MM:SS,mmm', () => {
    expect(toSrt(cues)).toBe(
      '1\n00:00:01,500 --> 00:00:03,000\nHello <world> & friends\n\n' +
        '2\n00:01:05,500 --> 00:01:08,250\nSecond line\n',
    );
  });

  it('writes WebVTT: a header, HH:MM:SS.mmm, markup characters escaped', () => {
    expect(toWebVtt(cues)).toBe(
      'WEBVTT\n\n' +
        '00:00:01.500 --> 00:00:03.000\nHello &lt;world&gt; &amp; friends\n\n' +
        '00:01:05.500 --> 00:01:08.250\nSecond line\n',
    );
  });

  it('keeps a blank line inside a text from ending the cue, and drops empty cues', () => {
    const srt = toSrt([
      { startSeconds: 0, endSeconds: 1, text: 'one\n\n\ntwo' },
      { startSeconds: 2, endSeconds: 3, text: '   ' },
      { startSeconds: 4, endSeconds: 4, text: 'no time' },
    ]);
    expect(srt).toBe('1\n00:00:00,000 --> 00:00:01,000\none\ntwo\n');
  });

  it('formats hours and rounds to the millisecond', () => {
    expect(captionTime(3725.0004, ',')).toBe('01:02:05,000');
    expect(captionTime(0.0005, '.')).toBe('00:00:00.001');
  });

  it('has no cues for no lines', () => {
    expect(toSrt([])).toBe('');
    expect(toWebVtt([])).toBe('WEBVTT\n');
  });
});

describe('cuesForLine', () => {
  it('keeps a short line as one cue over the whole voice', () => {
    expect(cuesForLine('  Hello   there. ', 3, 2.5)).toEqual([
      { startSeconds: 3, endSeconds: 5.5, text: 'Hello there.' },
    ]);
  });

  it('splits a long line into readable cues that cover the voice exactly, in order', () => {
    const text =
      'The river was quiet that morning. Nobody on the bank had seen the boat leave, ' +
      'and by the time the fog lifted it was already past the second bridge, drifting toward the sea.';
    const split = cuesForLine(text, 10, 9, 42);
    expect(split.length).toBeGreaterThan(2);
    for (const cue of split) expect(cue.text.length).toBeLessThanOrEqual(42);
    expect(split.map((c) => c.text).join(' ')).toBe(text);
    expect(split[0]!.startSeconds).toBe(10);
    expect(split.at(-1)!.endSeconds).toBe(19);
    for (let i = 1; i < split.length; i += 1) expect(split[i]!.startSeconds).toBe(split[i - 1]!.endSeconds);
  });

  it('has no cue for an empty text or no duration', () => {
    expect(cuesForLine('   ', 0, 2)).toEqual([]);
    expect(cuesForLine('text', 0, 0)).toEqual([]);
  });
});

describe('subtitlesFilter', () => {
  it('escapes a path for the option and the filter graph levels', () => {
    expect(subtitlesFilter('/tmp/a b/c.srt')).toBe('subtitles=filename=/tmp/a b/c.srt:charenc=UTF-8');
    expect(subtitlesFilter("C:\\it's [x],y;.srt")).toBe(
      "subtitles=filename=C\\\\:\\\\\\\\it\\\\\\'s \\[x\\]\\,y\\;.srt:charenc=UTF-8",
    );
  });
});
