import { describe, expect, test } from 'vitest';
import { MediaSpecContract } from '../../../src/shared/api/media-spec-contract.js';
import {
  keptReference,
  resolveEffectiveLimits,
  trimFits,
  validateDraft,
} from '../../../src/shared/h3/index.js';
import { MiB, audio, codes, image, universal, video } from './fixtures.js';

// A reference trimmed in Create (issue 31): the rules see only its kept range.
const limits = resolveEffectiveLimits();

describe('the H3 rules judge a trimmed reference by its kept range', () => {
  test('a 20 s audio breaks the 2..15 s rule; trimmed to 10 s it passes', () => {
    const long = audio({ fileName: 'long.wav', durationSeconds: 20 });
    expect(codes(validateDraft(universal([image(), long]), limits))).toEqual([
      'references.audio_total_too_long',
      'reference.audio_too_long',
    ]);
    const trimmed = { ...long, trim: { startSeconds: 4, endSeconds: 14 } };
    expect(validateDraft(universal([image(), trimmed]), limits)).toEqual([]);
  });

  test('a range that still breaks a rule gets the engine message with the kept length', () => {
    const v = validateDraft(
      universal([
        image(),
        audio({ fileName: 'long.wav', durationSeconds: 20, trim: { startSeconds: 1, endSeconds: 17.5 } }),
      ]),
      limits,
    );
    expect(v.find((x) => x.code === 'reference.audio_too_long')?.message).toBe(
      'Audio 1 "long.wav" lasts 16.5 s; each audio reference may last at most 15 s. Trim it.',
    );
    // and one too short: 1.5 s kept of a 20 s file
    const short = validateDraft(
      universal([image(), audio({ durationSeconds: 20, trim: { startSeconds: 3, endSeconds: 4.5 } })]),
      limits,
    );
    expect(codes(short)).toEqual(['reference.audio_too_short']);
  });

  test('the 15 s combined audio rule adds the kept ranges', () => {
    const a = audio({ durationSeconds: 12, trim: { startSeconds: 0, endSeconds: 8 } });
    const b = audio({ durationSeconds: 12, trim: { startSeconds: 2, endSeconds: 10 } });
    expect(codes(validateDraft(universal([image(), a, b]), limits))).toEqual([
      'references.audio_total_too_long',
    ]);
    const c = { ...b, trim: { startSeconds: 2, endSeconds: 9 } };
    expect(validateDraft(universal([image(), a, c]), limits)).toEqual([]);
  });

  test('a video over a contract duration limit passes once trimmed inside it', () => {
    const contract = MediaSpecContract.parse({
      uploadLimits: { reference_video: { formats: ['video/mp4'], maxBytes: 50 * MiB, maxSeconds: 10 } },
    });
    const withVideoLimit = resolveEffectiveLimits(contract);
    const long = video({ durationSeconds: 30 });
    expect(codes(validateDraft(universal([long]), withVideoLimit))).toEqual(['reference.video_too_long']);
    expect(
      validateDraft(universal([{ ...long, trim: { startSeconds: 5, endSeconds: 15 } }]), withVideoLimit),
    ).toEqual([]);
  });

  test('a trim makes the size rule see the kept share of the bytes (main checks the cut itself)', () => {
    const big = video({ byteSize: 120 * MiB, durationSeconds: 60 });
    expect(codes(validateDraft(universal([big]), limits))).toEqual(['reference.too_large']);
    expect(validateDraft(universal([{ ...big, trim: { startSeconds: 0, endSeconds: 20 } }]), limits)).toEqual(
      [],
    );
    expect(keptReference({ ...big, trim: { startSeconds: 0, endSeconds: 20 } }).byteSize).toBe(40 * MiB);
  });

  test('a range outside the file, or keeping nothing, does not shorten it: the whole file is judged', () => {
    for (const trim of [
      { startSeconds: 5, endSeconds: 21 },
      { startSeconds: 6, endSeconds: 6 },
      { startSeconds: 8, endSeconds: 3 },
    ]) {
      const v = validateDraft(
        universal([image(), audio({ fileName: 'a.wav', durationSeconds: 20, trim })]),
        limits,
      );
      expect(codes(v)).toContain('reference.audio_too_long');
      expect(trimFits(trim, 20)).toBe(false);
    }
    expect(trimFits({ startSeconds: 0, endSeconds: 20 }, 20)).toBe(true);
  });

  test('an image ignores a trim; an untrimmed reference is itself', () => {
    const still = image({ trim: { startSeconds: 0, endSeconds: 1 } });
    expect(keptReference(still)).toBe(still);
    const clip = audio();
    expect(keptReference(clip)).toBe(clip);
    expect(validateDraft(universal([still]), limits)).toEqual([]);
  });
});
