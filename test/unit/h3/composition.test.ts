import { describe, expect, test } from 'vitest';
import type { ProbedMedia, ViolationTarget } from '../../../src/shared/h3/index.js';
import { resolveEffectiveLimits, validateDraft } from '../../../src/shared/h3/index.js';
import { audio, brief, draft, image, many, mov, universal, video } from './fixtures.js';

const limits = resolveEffectiveLimits();

type RefSet = 'none' | 'image' | 'video' | 'audio-only' | 'mov-audio-only' | 'image+video+audio';
const refSets: Record<RefSet, () => ProbedMedia[]> = {
  none: () => [],
  image: () => [image()],
  video: () => [video()],
  'audio-only': () => [audio(), audio()],
  'mov-audio-only': () => [mov(true)],
  'image+video+audio': () => [image(), video(), audio()],
};
const modes = ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'] as const;

/** The spec's table, written out independently of the implementation. */
function expected(
  mode: (typeof modes)[number],
  first: boolean,
  last: boolean,
  refs: RefSet,
): { code: string; target: ViolationTarget }[] {
  switch (mode) {
    case 't2v':
      return []; // takes no assets; kept inputs are not sent (see mode-switch / build tests)
    case 'i2v':
      return first ? [] : [{ code: 'mode.first_frame_required', target: 'firstFrame' }];
    case 'first_last_frame_video':
      return [
        ...(first ? [] : [{ code: 'mode.first_frame_required', target: 'firstFrame' as const }]),
        ...(last ? [] : [{ code: 'mode.last_frame_required', target: 'lastFrame' as const }]),
      ];
    case 'universal_reference_video':
      return refs === 'image' || refs === 'video' || refs === 'image+video+audio'
        ? []
        : [{ code: 'references.visual_required', target: 'references' }];
  }
}

const table = modes.flatMap((mode) =>
  [false, true].flatMap((first) =>
    [false, true].flatMap((last) =>
      (Object.keys(refSets) as RefSet[]).map((refs) => [mode, first, last, refs] as const),
    ),
  ),
);

describe('composition table: every mode x first frame x last frame x reference set', () => {
  test.each(table)('%s first=%s last=%s refs=%s', (mode, first, last, refs) => {
    const d = draft({
      generationMode: mode,
      firstFrame: first ? image({ fileName: 'first.png' }) : undefined,
      lastFrame: last ? image({ fileName: 'last.png' }) : undefined,
      references: refSets[refs](),
    });
    expect(brief(validateDraft(d, limits))).toEqual(expected(mode, first, last, refs));
  });
});

describe('universal references: counts at and past each limit', () => {
  const cases: [string, () => ProbedMedia[], string[]][] = [
    ['1 image', () => [image()], []],
    ['9 images, no video', () => many(9, image), []],
    ['10 images, no video', () => many(10, image), ['references.too_many_images']],
    ['8 images + 1 video', () => [...many(8, image), video()], []],
    ['9 images + 1 video', () => [...many(9, image), video()], ['references.too_many_images']],
    ['1 video alone', () => [video()], []],
    ['2 videos', () => [video(), video()], ['references.too_many_videos']],
    [
      '2 videos + 9 images',
      () => [video(), video(), ...many(9, image)],
      ['references.too_many_images', 'references.too_many_videos'],
    ],
    ['1 image + 3 audios', () => [image(), ...many(3, audio)], []],
    ['1 image + 4 audios', () => [image(), ...many(4, audio)], ['references.too_many_audios']],
    ['8 images + 1 video + 3 audios = 12 items', () => [...many(8, image), video(), ...many(3, audio)], []],
    ['9 images + 3 audios = 12 items', () => [...many(9, image), ...many(3, audio)], []],
    [
      '9 images + 1 video + 3 audios = 13 items',
      () => [...many(9, image), video(), ...many(3, audio)],
      ['references.too_many_items', 'references.too_many_images'],
    ],
    [
      '10 images + 3 audios = 13 items',
      () => [...many(10, image), ...many(3, audio)],
      ['references.too_many_items', 'references.too_many_images'],
    ],
    ['0 references', () => [], ['references.visual_required']],
    ['3 audios only', () => many(3, audio), ['references.visual_required']],
    ['audio-bearing .mov only', () => [mov(true)], ['references.visual_required']],
  ];
  test.each(cases)('%s', (_name, refs, expectedCodes) => {
    const v = validateDraft(universal(refs()), limits);
    expect(brief(v)).toEqual(expectedCodes.map((code) => ({ code, target: 'references' })));
  });

  test('images limit reports the with-video maximum and counts', () => {
    const [v] = validateDraft(universal([...many(9, image), video()]), limits);
    expect(v?.params).toMatchObject({ count: 9, max: 8, images: 9, videos: 1, audios: 0 });
    expect(v?.message).toMatch(/alongside a video/);
  });

  test('audio-alone message says audio is not enough', () => {
    const [v] = validateDraft(universal([audio()]), limits);
    expect(v?.message).toMatch(/Audio alone/);
  });
});

describe('an audio-bearing .mov is a reference AUDIO, not a video', () => {
  test('8 images + 1 video + 1 audio .mov: the .mov does not take the video slot', () => {
    expect(validateDraft(universal([...many(8, image), video(), mov(true)]), limits)).toEqual([]);
  });
  test('9 images + 1 audio .mov: still "no video", so 9 images are allowed', () => {
    expect(validateDraft(universal([...many(9, image), mov(true)]), limits)).toEqual([]);
  });
  test('1 video + 1 audio .mov: no second video', () => {
    expect(validateDraft(universal([video(), mov(true)]), limits)).toEqual([]);
  });
  test('3 audios + 1 audio .mov = 4 audios', () => {
    expect(brief(validateDraft(universal([image(), ...many(3, audio), mov(true)]), limits))).toEqual([
      { code: 'references.too_many_audios', target: 'references' },
    ]);
  });
  test('a .mov without audio is invalid as a reference (and counts as a video)', () => {
    const m = mov(false);
    expect(brief(validateDraft(universal([image(), m]), limits))).toEqual([
      { code: 'reference.mov_without_audio', target: { referenceId: m.id } },
    ]);
  });
  test('a .mov whose audio track is unknown is treated as having none', () => {
    const m = mov(false, { hasAudioTrack: undefined });
    expect(brief(validateDraft(universal([image(), m]), limits))).toEqual([
      { code: 'reference.mov_without_audio', target: { referenceId: m.id } },
    ]);
  });
  test('a .mov without audio plus 9 images also exceeds the with-video image limit', () => {
    const m = mov(false);
    expect(brief(validateDraft(universal([...many(9, image), m]), limits))).toEqual([
      { code: 'references.too_many_images', target: 'references' },
      { code: 'reference.mov_without_audio', target: { referenceId: m.id } },
    ]);
  });
});

describe('inputs a mode does not take are not validated (they are kept, not sent)', () => {
  test('t2v ignores an oversized first frame and invalid references', () => {
    const d = draft({
      firstFrame: image({ byteSize: 100 * 1024 * 1024 }),
      references: [mov(false), ...many(12, audio)],
    });
    expect(validateDraft(d, limits)).toEqual([]);
  });
  test('universal ignores a GIF first frame', () => {
    const d = universal([image()], { firstFrame: image({ mimeType: 'image/gif' }) });
    expect(validateDraft(d, limits)).toEqual([]);
  });
  test('i2v ignores a bad last frame', () => {
    const d = draft({ generationMode: 'i2v', firstFrame: image(), lastFrame: video() });
    expect(validateDraft(d, limits)).toEqual([]);
  });
});
