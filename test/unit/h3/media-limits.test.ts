import { describe, expect, test } from 'vitest';
import { resolveEffectiveLimits, validateDraft } from '../../../src/shared/h3/index.js';
import { MiB, audio, brief, draft, image, mov, universal, video } from './fixtures.js';

const limits = resolveEffectiveLimits();

describe('first/last-frame images: JPG/PNG/WEBP, <= 16 MiB', () => {
  const frameDraft = (slot: 'firstFrame' | 'lastFrame', over: Parameters<typeof image>[0]) =>
    draft({
      generationMode: 'first_last_frame_video',
      firstFrame: image(slot === 'firstFrame' ? over : {}),
      lastFrame: image(slot === 'lastFrame' ? over : {}),
    });

  test.each(['firstFrame', 'lastFrame'] as const)('%s: sizes at and 1 byte over 16 MiB', (slot) => {
    expect(validateDraft(frameDraft(slot, { byteSize: 16 * MiB }), limits)).toEqual([]);
    const v = validateDraft(frameDraft(slot, { byteSize: 16 * MiB + 1 }), limits);
    expect(brief(v)).toEqual([{ code: 'frame.too_large', target: slot }]);
    expect(v[0]?.params).toMatchObject({ byteSize: 16 * MiB + 1, maxBytes: 16 * MiB });
    expect(v[0]?.message).toContain('16 MiB');
  });

  test('i2v first frame: 16 MiB + 1 is too large even though a reference image may be 30 MiB', () => {
    const v = validateDraft(
      draft({ generationMode: 'i2v', firstFrame: image({ byteSize: 16 * MiB + 1 }) }),
      limits,
    );
    expect(brief(v)).toEqual([{ code: 'frame.too_large', target: 'firstFrame' }]);
  });

  test.each([
    ['image/jpeg', null],
    ['image/png', null],
    ['image/webp', null],
    ['image/jpg', null], // alias of image/jpeg
    ['IMAGE/PNG', null],
    ['image/gif', 'frame.format'],
    ['image/bmp', 'frame.format'],
    ['image/heic', 'frame.format'],
    ['image/svg+xml', 'frame.format'],
    ['video/mp4', 'frame.format'],
  ])('%s as a first frame -> %s', (mimeType, code) => {
    const v = validateDraft(frameDraft('firstFrame', { mimeType }), limits);
    expect(brief(v)).toEqual(code ? [{ code, target: 'firstFrame' }] : []);
  });

  test('the same image may be both first and last frame (a loop)', () => {
    const still = image();
    expect(
      validateDraft(
        draft({ generationMode: 'first_last_frame_video', firstFrame: still, lastFrame: still }),
        limits,
      ),
    ).toEqual([]);
  });
});

describe('reference sizes exactly at and 1 byte over each role limit', () => {
  test.each([
    ['reference image', () => image({ byteSize: 30 * MiB }), () => image({ byteSize: 30 * MiB + 1 })],
    ['reference video', () => video({ byteSize: 50 * MiB }), () => video({ byteSize: 50 * MiB + 1 })],
    ['reference audio', () => audio({ byteSize: 15 * MiB }), () => audio({ byteSize: 15 * MiB + 1 })],
    [
      'reference audio .mov',
      () => mov(true, { byteSize: 15 * MiB }),
      () => mov(true, { byteSize: 15 * MiB + 1 }),
    ],
  ])('%s', (_name, atLimit, overLimit) => {
    const ok = atLimit();
    expect(validateDraft(universal(ok.kind === 'image' ? [ok] : [image(), ok]), limits)).toEqual([]);
    const bad = overLimit();
    const v = validateDraft(universal(bad.kind === 'image' ? [bad] : [image(), bad]), limits);
    expect(brief(v)).toEqual([{ code: 'reference.too_large', target: { referenceId: bad.id } }]);
    expect(v[0]?.params.byteSize).toBe(bad.byteSize);
  });

  test('a 31 MiB image reference reports the 30 MiB limit', () => {
    const big = image({ byteSize: 31 * MiB });
    const [v] = validateDraft(universal([big]), limits);
    expect(v?.params).toMatchObject({ maxBytes: 30 * MiB, label: 'Image 1', role: 'reference_image' });
    expect(v?.message).toContain('Image 1');
  });
});

describe('reference formats per role (detected MIME)', () => {
  test.each([
    ['image/jpeg', 'image', null],
    ['image/png', 'image', null],
    ['image/webp', 'image', null],
    ['image/gif', 'image', 'reference.format'],
    ['image/avif', 'image', 'reference.format'],
    ['video/mp4', 'video', null],
    ['video/webm', 'video', 'reference.format'],
    ['video/x-matroska', 'video', 'reference.format'],
    ['audio/wav', 'audio', null],
    ['audio/x-wav', 'audio', null],
    ['audio/mpeg', 'audio', null],
    ['audio/mp3', 'audio', null],
    ['audio/flac', 'audio', null],
    ['audio/x-flac', 'audio', null],
    ['audio/mp4', 'audio', null],
    ['audio/x-m4a', 'audio', null],
    ['audio/aac', 'audio', null],
    ['audio/ogg', 'audio', null],
    ['audio/ogg; codecs=opus', 'audio', null],
    ['audio/webm', 'audio', 'reference.format'],
    ['audio/aiff', 'audio', 'reference.format'],
    ['audio/amr', 'audio', 'reference.format'],
  ] as const)('%s (%s) -> %s', (mimeType, kind, code) => {
    const ref =
      kind === 'image' ? image({ mimeType }) : kind === 'video' ? video({ mimeType }) : audio({ mimeType });
    const refs = kind === 'image' ? [ref] : [image(), ref];
    expect(brief(validateDraft(universal(refs), limits))).toEqual(
      code ? [{ code, target: { referenceId: ref.id } }] : [],
    );
  });

  test('format violation names the allowed formats', () => {
    const gif = image({ mimeType: 'image/gif', fileName: 'anim.gif' });
    const [v] = validateDraft(universal([image(), gif]), limits);
    expect(v?.params).toMatchObject({
      mimeType: 'image/gif',
      allowed: 'image/jpeg, image/png, image/webp',
      label: 'Image 2',
    });
    expect(v?.message).toContain('anim.gif');
  });
});

describe('audio durations: each 2..15 s, combined <= 15 s', () => {
  test.each([
    [1.99, ['reference.audio_too_short']],
    [2, []],
    [7.5, []],
    [15, []],
    [15.01, ['reference.audio_too_long', 'references.audio_total_too_long']],
  ])('one clip of %d s', (durationSeconds, expectedCodes) => {
    const a = audio({ durationSeconds });
    const v = validateDraft(universal([image(), a]), limits);
    expect(v.map((x) => x.code).sort()).toEqual([...expectedCodes].sort());
    for (const x of v)
      expect(x.target).toEqual(x.code.startsWith('references.') ? 'references' : { referenceId: a.id });
  });

  test.each([
    [[5, 5, 5], []],
    [[7.1, 7.9], []], // float sum 15.000000000000002 must not count as over
    [[2, 2, 11], []],
    [[5, 5, 5.01], ['references.audio_total_too_long']],
    [[10, 5.01], ['references.audio_total_too_long']],
    [[15, 2], ['references.audio_total_too_long']],
  ])('clips %j', (durations, expectedCodes) => {
    const v = validateDraft(
      universal([image(), ...durations.map((d) => audio({ durationSeconds: d }))]),
      limits,
    );
    expect(brief(v)).toEqual(expectedCodes.map((code) => ({ code, target: 'references' })));
  });

  test('combined duration counts audio .mov clips too, and not video references', () => {
    const v = validateDraft(
      universal([
        video({ durationSeconds: 30 }),
        audio({ durationSeconds: 10 }),
        mov(true, { durationSeconds: 5.5 }),
      ]),
      limits,
    );
    expect(brief(v)).toEqual([{ code: 'references.audio_total_too_long', target: 'references' }]);
    expect(v[0]?.params).toEqual({ totalSeconds: 15.5, maxTotalSeconds: 15 });
  });

  test('an audio .mov of 1.5 s is too short', () => {
    const m = mov(true, { durationSeconds: 1.5 });
    expect(brief(validateDraft(universal([image(), m]), limits))).toEqual([
      { code: 'reference.audio_too_short', target: { referenceId: m.id } },
    ]);
  });

  test('an audio clip whose duration is unknown cannot be verified', () => {
    const a = audio({ durationSeconds: undefined });
    expect(brief(validateDraft(universal([image(), a]), limits))).toEqual([
      { code: 'reference.duration_unknown', target: { referenceId: a.id } },
    ]);
  });

  test('video and image references have no duration rule in H3', () => {
    expect(validateDraft(universal([video({ durationSeconds: 60 }), image()]), limits)).toEqual([]);
  });
});

describe('duplicates', () => {
  test('the same local id twice', () => {
    const a = image({ id: 'same' });
    const b = image({ id: 'same', sha256: 'other' });
    const v = validateDraft(universal([a, b]), limits);
    expect(brief(v)).toEqual([{ code: 'reference.duplicate', target: { referenceId: 'same' } }]);
    expect(v[0]?.params).toMatchObject({ by: 'id', duplicateOf: 'Image 1', label: 'Image 2' });
  });

  test('the same sha256 under two ids (flags the later one)', () => {
    const a = image({ sha256: 'abc' });
    const b = image({ sha256: 'ABC' });
    const v = validateDraft(universal([a, b]), limits);
    expect(brief(v)).toEqual([{ code: 'reference.duplicate', target: { referenceId: b.id } }]);
    expect(v[0]?.params).toMatchObject({ by: 'sha256', duplicateOf: 'Image 1' });
  });

  test('three copies give two violations', () => {
    const refs = [image({ sha256: 'x' }), image({ sha256: 'x' }), image({ sha256: 'x' })];
    const v = validateDraft(universal(refs), limits);
    expect(brief(v)).toEqual([
      { code: 'reference.duplicate', target: { referenceId: refs[1]!.id } },
      { code: 'reference.duplicate', target: { referenceId: refs[2]!.id } },
    ]);
  });

  test('duplicate audio (sha256) across a wav and its copy', () => {
    const a = audio({ sha256: 'aud' });
    const b = audio({ sha256: 'aud' });
    expect(brief(validateDraft(universal([image(), a, b]), limits))).toEqual([
      { code: 'reference.duplicate', target: { referenceId: b.id } },
    ]);
  });

  test('different content without a sha256 is not a duplicate', () => {
    expect(
      validateDraft(universal([image({ sha256: undefined }), image({ sha256: undefined })]), limits),
    ).toEqual([]);
  });
});
