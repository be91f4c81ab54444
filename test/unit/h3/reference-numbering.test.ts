import { describe, expect, test } from 'vitest';
import {
  findCitations,
  findStaleLabels,
  insertLabel,
  numberReferences,
  relabelPrompt,
  relabelPromptDetailed,
  reorderWithinKind,
} from '../../../src/shared/h3/index.js';
import { audio, image, mov, video } from './fixtures.js';

const i1 = image({ id: 'i1' });
const i2 = image({ id: 'i2' });
const i3 = image({ id: 'i3' });
const v1 = video({ id: 'v1' });
const a1 = audio({ id: 'a1' });
const a2 = audio({ id: 'a2' });
const m1 = mov(true, { id: 'm1' });

describe('numberReferences', () => {
  test('numbers each kind separately, in list order', () => {
    expect(numberReferences([i1, a1, v1, i2, m1, a2, i3])).toEqual([
      {
        referenceId: 'i1',
        role: 'reference_image',
        kind: 'image',
        number: 1,
        label: 'Image 1',
        labelKey: 'h3.reference.label.image',
      },
      {
        referenceId: 'a1',
        role: 'reference_audio',
        kind: 'audio',
        number: 1,
        label: 'Audio 1',
        labelKey: 'h3.reference.label.audio',
      },
      {
        referenceId: 'v1',
        role: 'reference_video',
        kind: 'video',
        number: 1,
        label: 'Video 1',
        labelKey: 'h3.reference.label.video',
      },
      {
        referenceId: 'i2',
        role: 'reference_image',
        kind: 'image',
        number: 2,
        label: 'Image 2',
        labelKey: 'h3.reference.label.image',
      },
      {
        referenceId: 'm1',
        role: 'reference_audio',
        kind: 'audio',
        number: 2,
        label: 'Audio 2',
        labelKey: 'h3.reference.label.audio',
      },
      {
        referenceId: 'a2',
        role: 'reference_audio',
        kind: 'audio',
        number: 3,
        label: 'Audio 3',
        labelKey: 'h3.reference.label.audio',
      },
      {
        referenceId: 'i3',
        role: 'reference_image',
        kind: 'image',
        number: 3,
        label: 'Image 3',
        labelKey: 'h3.reference.label.image',
      },
    ]);
  });

  test('a .mov without audio is numbered as a video', () => {
    expect(numberReferences([mov(false, { id: 'silent' })])[0]).toMatchObject({
      kind: 'video',
      label: 'Video 1',
      role: 'reference_video',
    });
  });

  test('empty list', () => {
    expect(numberReferences([])).toEqual([]);
  });
});

describe('reorderWithinKind', () => {
  const list = [i1, a1, i2, v1, i3];
  const ids = (l: { id: string }[]) => l.map((r) => r.id);

  test.each([
    ['i3', 0, ['i3', 'a1', 'i1', 'v1', 'i2']],
    ['i1', 2, ['i2', 'a1', 'i3', 'v1', 'i1']],
    ['i1', 1, ['i2', 'a1', 'i1', 'v1', 'i3']],
    ['i2', 1, ['i1', 'a1', 'i2', 'v1', 'i3']],
    ['i1', 99, ['i2', 'a1', 'i3', 'v1', 'i1']], // clamped
    ['i3', -5, ['i3', 'a1', 'i1', 'v1', 'i2']], // clamped
    ['v1', 0, ['i1', 'a1', 'i2', 'v1', 'i3']], // only one video
    ['nope', 0, ['i1', 'a1', 'i2', 'v1', 'i3']], // unknown id
  ])('move %s to %i within its kind', (id, to, expected) => {
    const out = reorderWithinKind(list, id, to);
    expect(ids(out)).toEqual(expected);
    expect(ids(list)).toEqual(['i1', 'a1', 'i2', 'v1', 'i3']); // input untouched
  });

  test('an audio .mov reorders among the audios', () => {
    expect(ids(reorderWithinKind([a1, i1, m1, a2], 'm1', 0))).toEqual(['m1', 'i1', 'a1', 'a2']);
  });
});

describe('relabelPrompt', () => {
  test('swapping two images swaps their citations in one pass', () => {
    const before = numberReferences([i1, i2, a1]);
    const after = numberReferences([i2, i1, a1]);
    expect(relabelPrompt('Image 1 walks toward Image 2 while Audio 1 plays.', before, after)).toBe(
      'Image 2 walks toward Image 1 while Audio 1 plays.',
    );
  });

  test('keeps case and spacing; recognises lower case', () => {
    const before = numberReferences([i1, i2, i3]);
    const after = numberReferences([i3, i1, i2]);
    expect(relabelPrompt('image 1, IMAGE  2 and Image3.', before, after)).toBe(
      'image 2, IMAGE  3 and Image1.',
    );
  });

  test('moving an audio renumbers only audio citations', () => {
    const before = numberReferences([a1, a2, i1]);
    const after = numberReferences([a2, a1, i1]);
    expect(relabelPrompt('Audio 1 then audio 2 over Image 1', before, after)).toBe(
      'Audio 2 then audio 1 over Image 1',
    );
  });

  test('citations of a removed reference are left as they are', () => {
    const before = numberReferences([i1, i2, i3]);
    const after = numberReferences([i1, i3]);
    expect(relabelPrompt('Image 1, Image 2, Image 3', before, after)).toBe('Image 1, Image 2, Image 2');
  });

  test('does not touch words that only look similar', () => {
    const before = numberReferences([i1, i2]);
    const after = numberReferences([i2, i1]);
    const text = 'myimage 1, Image 12, image 1a, an image of 2 cats, Imagery 2, 1080p video';
    expect(relabelPrompt(text, before, after)).toBe(text);
  });

  test('does not cross a line break', () => {
    const before = numberReferences([i1, i2]);
    const after = numberReferences([i2, i1]);
    expect(relabelPrompt('an image\n2 birds', before, after)).toBe('an image\n2 birds');
  });

  test('astral characters around a citation', () => {
    const before = numberReferences([i1, i2]);
    const after = numberReferences([i2, i1]);
    expect(relabelPrompt('😀Image 1😀', before, after)).toBe('😀Image 2😀');
  });
});

describe('relabelPromptDetailed: removals are reported, not silently retargeted', () => {
  test('removing Image 2 of three: "Image 3" becomes "Image 2", the old "Image 2" is orphaned', () => {
    const before = numberReferences([i1, i2, i3]);
    const after = numberReferences([i1, i3]);
    const r = relabelPromptDetailed('Image 1, Image 2, Image 3', before, after);
    expect(r.prompt).toBe('Image 1, Image 2, Image 2');
    expect(r.changed).toBe(1);
    expect(r.orphaned.map((o) => [o.params.label, o.params.reason, o.params.start, o.params.end])).toEqual([
      ['Image 2', 'removed', 9, 16],
    ]);
    expect(r.orphaned[0]?.message).toMatch(/was removed/);
    // findStaleLabels alone could not tell: Image 2 exists again
    expect(findStaleLabels(r.prompt, after)).toEqual([]);
  });

  test('offsets are in the rewritten prompt even when numbers change length', () => {
    const images = Array.from({ length: 10 }, (_, k) => image({ id: `n${k}` }));
    const before = numberReferences(images);
    const after = numberReferences(images.slice(1).concat([])); // remove Image 1: 10 -> 9
    const r = relabelPromptDetailed('Image 10 then Image 1 end', before, after);
    expect(r.prompt).toBe('Image 9 then Image 1 end');
    expect(r.orphaned.map((o) => r.prompt.slice(o.params.start, o.params.end))).toEqual(['Image 1']);
  });

  test('citations that pointed to nothing are reported as missing', () => {
    const r = relabelPromptDetailed('Video 4', numberReferences([v1]), numberReferences([v1]));
    expect(r.orphaned.map((o) => o.params.reason)).toEqual(['missing']);
    expect(r.changed).toBe(0);
  });
});

describe('citation words for other languages', () => {
  const words = { image: ['image', '图片', 'Bild'], video: ['video', '视频'], audio: ['audio', '音频'] };
  test('CJK words need no spaces around them', () => {
    const before = numberReferences([i1, i2, a1]);
    const after = numberReferences([i2, i1, a1]);
    expect(relabelPrompt('参考图片1的人物，走向图片2，背景音乐用音频1。', before, after, words)).toBe(
      '参考图片2的人物，走向图片1，背景音乐用音频1。',
    );
  });
  test('Latin words still need a boundary', () => {
    expect(findCitations('Bild 2 und Bildung 2 und xBild 2', words).map((c) => c.text)).toEqual(['Bild 2']);
  });
  test('an empty word list finds nothing', () => {
    expect(findCitations('Image 1', { image: [], video: [], audio: [] })).toEqual([]);
  });
});

describe('findStaleLabels', () => {
  test('flags citations that point to no current reference', () => {
    const numbering = numberReferences([i1, a1]);
    const prompt = 'Image 1 and Image 2 with audio 1 and Audio 3 and Video 1';
    const stale = findStaleLabels(prompt, numbering);
    expect(
      stale.map((s) => [s.code, s.params.label, s.params.kind, s.params.number, s.params.reason]),
    ).toEqual([
      ['prompt.stale_label', 'Image 2', 'image', 2, 'missing'],
      ['prompt.stale_label', 'Audio 3', 'audio', 3, 'missing'],
      ['prompt.stale_label', 'Video 1', 'video', 1, 'missing'],
    ]);
    expect(prompt.slice(stale[0]!.params.start, stale[0]!.params.end)).toBe('Image 2');
    expect(stale[0]!.target).toBe('prompt');
    expect(stale[0]!.message).toContain('Image 2');
  });

  test('nothing stale when every citation resolves', () => {
    expect(findStaleLabels('Image 1 and Audio 1', numberReferences([i1, a1]))).toEqual([]);
  });

  test('findCitations reports UTF-16 offsets after astral characters', () => {
    const [c] = findCitations('😀 Video 1');
    expect(c).toMatchObject({ kind: 'video', number: 1, start: 3, end: 10, text: 'Video 1' });
  });
});

describe('insertLabel', () => {
  test.each([
    ['', 0, 'Image 1', 7],
    ['A cat', 5, 'A cat Image 1', 13],
    ['A cat ', 6, 'A cat Image 1', 13],
    ['cat', 0, 'Image 1 cat', 8],
    ['A  cat', 2, 'A Image 1 cat', 9],
    ['(', 1, '(Image 1', 8],
    ['see .', 4, 'see Image 1.', 11],
  ])('%j at %i -> %j', (prompt, cursor, expected, newCursor) => {
    expect(insertLabel(prompt, cursor, 'Image 1')).toEqual({ prompt: expected, cursor: newCursor });
  });

  test('a cursor past the end is clamped', () => {
    expect(insertLabel('ab', 50, 'Audio 2')).toEqual({ prompt: 'ab Audio 2', cursor: 10 });
  });

  test('a cursor inside a surrogate pair moves past it', () => {
    expect(insertLabel('😀x', 1, 'Video 1')).toEqual({ prompt: '😀 Video 1 x', cursor: 11 });
  });

  test('replaces a selection', () => {
    expect(insertLabel('use Image 3 here', 4, 'Image 1', 11)).toEqual({
      prompt: 'use Image 1 here',
      cursor: 11,
    });
  });
});
