import { describe, expect, it } from 'vitest';
import type { SoundtrackView } from '../../../src/shared/bridge/contract.js';
import { assemblyTimeline } from '../../../src/main/core/media-tools/assemble-shots.js';
import {
  DUCK_ATTACK_SECONDS as MIX_ATTACK,
  DUCK_RELEASE_SECONDS as MIX_RELEASE,
} from '../../../src/main/core/media-tools/mix-soundtrack.js';
import {
  DUCK_ATTACK_SECONDS,
  DUCK_RELEASE_SECONDS,
  buildTimeline,
  captionEdge,
  clampZoom,
  dropPosition,
  duckDepthAt,
  duckSpans,
  fitZoom,
  movedVoiceTime,
  musicGainAt,
  pictureAt,
  rippleTrim,
  rulerStep,
  snapTargets,
  snapTime,
  stepFrames,
  timecode,
  trimAtPlayhead,
  trimRequest,
  zoomIn,
  zoomOut,
} from '../../../src/renderer/src/screens/sequences/timeline/timeline-model.js';
import { sequence, shot } from './sequence-fixtures.js';

/** Three generated shots: 5 s, 4.5 s trimmed from 0.5 s to 5 s, and 6.02 s (not a whole frame). */
function threeShots() {
  return sequence({
    shots: [
      shot({
        shotId: 'a',
        label: 'Shot 1',
        state: 'succeeded',
        durationSeconds: 5,
        frameRate: 24,
        frameCount: 120,
        mediaUrl: 'media://a',
        sha256: 'a',
      }),
      shot({
        shotId: 'b',
        label: 'Shot 2',
        position: 1,
        origin: 'continue',
        sourceShotIds: ['a'],
        state: 'succeeded',
        durationSeconds: 5,
        frameRate: 24,
        frameCount: 120,
        mediaUrl: 'media://b',
        sha256: 'b',
        trim: { inSeconds: 0.5, outSeconds: 5, inFrame: 12, outFrame: 120, seconds: 4.5 },
      }),
      shot({
        shotId: 'c',
        label: 'Shot 3',
        position: 2,
        state: 'succeeded',
        durationSeconds: 6.02,
        frameRate: 24,
        frameCount: 144,
        mediaUrl: 'media://c',
        sha256: 'c',
      }),
    ],
  });
}

function soundtrack(patch: Partial<SoundtrackView> = {}): SoundtrackView {
  return {
    sequenceId: 'seq-1',
    music: {
      source: 'library',
      jobRowId: 1,
      prompt: null,
      state: 'ready',
      mediaUrl: 'media://music',
      fileName: 'bed.wav',
      durationSeconds: 6,
      errorMessage: null,
    },
    musicGainDb: -6,
    duckDb: 12,
    voices: [
      {
        lineId: 'v1',
        source: 'generated',
        text: 'The harbour wakes.',
        atSeconds: 2,
        gainDb: 0,
        state: 'ready',
        mediaUrl: 'media://v1',
        fileName: null,
        durationSeconds: 1.5,
        errorMessage: null,
        transcribed: true,
      },
    ],
    captions: [{ startSeconds: 2, endSeconds: 3.5, text: 'The harbour wakes.', lineId: 'v1', cueIndex: 0 }],
    ...patch,
  };
}

describe('timeline layout', () => {
  it('lays the shots out exactly as the assembly does, with and without cross-fades', () => {
    for (const fade of [0, 0.5, 1]) {
      const timeline = buildTimeline(threeShots(), null, fade);
      const assembled = assemblyTimeline({
        shots: [
          { path: 'a', durationSeconds: 5, hasAudioTrack: true, title: 'Shot 1' },
          {
            path: 'b',
            durationSeconds: 5,
            inSeconds: 0.5,
            outSeconds: 5,
            hasAudioTrack: true,
            title: 'Shot 2',
          },
          { path: 'c', durationSeconds: 6.02, hasAudioTrack: true, title: 'Shot 3' },
        ],
        canvas: { width: 1376, height: 768, fps: 24 },
        crossfadeSeconds: fade,
      });
      expect(timeline.totalSeconds).toBeCloseTo(assembled.totalSeconds, 3);
      // a chapter starts where its shot starts to fade in: the clip's start
      expect(timeline.picture.map((c) => c.start)).toEqual(
        assembled.chapters.map((c) => expect.closeTo(c.startSeconds, 3) as unknown as number),
      );
    }
    const timeline = buildTimeline(threeShots(), null, 0.5);
    expect(timeline.picture.map((c) => [c.start, c.end])).toEqual([
      [0, 5],
      [4.5, 9],
      [8.5, 14.5],
    ]);
    expect(timeline.picture[2]!.seconds).toBe(6); // 6.02 s is 144.48 frames: 144 at 24 fps
    expect(timeline.cuts).toEqual([4.75, 8.75]);
    expect(timeline.picture[1]!.linkedToPrevious).toBe(true);
    expect(timeline.picture[2]!.linkedToPrevious).toBe(false);
  });

  it('keeps what made each shot for its hover: model, prompt and seed', () => {
    const timeline = buildTimeline(
      sequence({ shots: [shot({ seed: 42, prompt: 'A heron lands' }), shot({ shotId: 'b', position: 1 })] }),
      null,
      0,
    );
    expect(timeline.picture.map((c) => [c.model, c.prompt, c.seed])).toEqual([
      ['h3-video', 'A heron lands', 42],
      ['h3-video', 'A lighthouse at dusk', null],
    ]);
  });

  it('counts a shot not yet generated at the seconds asked for, and an empty film as nothing', () => {
    const timeline = buildTimeline(sequence({ shots: [shot({ seconds: 8 })] }), null, 0.5);
    expect(timeline.totalSeconds).toBe(8);
    expect(timeline.picture[0]!.playable).toBe(false);
    expect(timeline.picture[0]!.fadeIn + timeline.picture[0]!.fadeOut).toBe(0);
    expect(buildTimeline(sequence(), soundtrack(), 0).music).toEqual([]);
  });

  it('loops the music bed to the film’s end, places voices at their times and captions as cues', () => {
    const timeline = buildTimeline(threeShots(), soundtrack(), 0);
    expect(timeline.totalSeconds).toBe(15.5);
    expect(timeline.music.map((m) => [m.start, m.end])).toEqual([
      [0, 6],
      [6, 12],
      [12, 15.5],
    ]);
    expect(timeline.voices).toMatchObject([{ id: 'v1', start: 2, end: 3.5, gainDb: 0 }]);
    expect(timeline.captions).toEqual([
      { index: 0, lineId: 'v1', cueIndex: 0, start: 2, end: 3.5, text: 'The harbour wakes.' },
    ]);
  });
});

describe('the picture at a time', () => {
  const timeline = buildTimeline(threeShots(), null, 0.5);

  it('names the shot and the time in its file, the trim’s in point counted', () => {
    expect(pictureAt(timeline, 1)).toMatchObject({ clip: { shotId: 'a' }, sourceSeconds: 1 });
    const inB = pictureAt(timeline, 6)!;
    expect(inB.clip.shotId).toBe('b');
    expect(inB.sourceSeconds).toBeCloseTo(0.5 + 1.5, 6);
    expect(inB.incoming).toBeUndefined();
    // past the end: the last frame
    expect(pictureAt(timeline, 99)!.clip.shotId).toBe('c');
  });

  it('is inside a cross-fade both shots, the incoming one by how far the fade has gone', () => {
    const at = pictureAt(timeline, 4.75)!;
    expect(at.clip.shotId).toBe('a');
    expect(at.incoming?.clip.shotId).toBe('b');
    expect(at.incoming?.mix).toBeCloseTo(0.5, 6);
    expect(at.incoming?.sourceSeconds).toBeCloseTo(0.75, 6);
  });

  it('falls on the frame’s start (a time inside a frame shows that frame)', () => {
    expect(pictureAt(timeline, 1.0 + 0.5 / 24)!.sourceSeconds).toBeCloseTo(1, 6);
  });
});

describe('the duck', () => {
  it('is the mix’s envelope: its ramps, full depth under a voice, none far from it', () => {
    expect([DUCK_ATTACK_SECONDS, DUCK_RELEASE_SECONDS]).toEqual([MIX_ATTACK, MIX_RELEASE]);
    const timeline = buildTimeline(threeShots(), soundtrack(), 0);
    expect(duckDepthAt(timeline.voices, 0.5)).toBe(0);
    expect(duckDepthAt(timeline.voices, 2.5)).toBe(1);
    expect(duckDepthAt(timeline.voices, 2 - DUCK_ATTACK_SECONDS / 2)).toBeCloseTo(0.5, 6);
    expect(20 * Math.log10(musicGainAt(timeline, 2.5))).toBeCloseTo(-6 - 12, 6);
    expect(20 * Math.log10(musicGainAt(timeline, 10))).toBeCloseTo(-6, 6);
    expect(duckSpans(timeline.voices)).toEqual([{ start: 1.85, end: 3.8 }]);
  });
});

describe('zoom, ruler and snapping', () => {
  it('fits the film, zooms in to single frames and never out past the fit', () => {
    const fit = fitZoom(60, 1200);
    expect(fit).toBe(20);
    expect(zoomOut(fit, fit)).toBe(fit);
    let z = fit;
    for (let i = 0; i < 30; i += 1) z = zoomIn(z, fit);
    expect(z).toBe(24 * 24); // one frame 24 px wide
    expect(clampZoom(1e9, fit)).toBe(576);
    expect(rulerStep(fit)).toBe(5);
    expect(rulerStep(576)).toBe(0.25); // 6 frames: 144 px
    expect(rulerStep(576, 20)).toBe(1 / 24); // single frames when 24 px is enough
    expect(timecode(61.5)).toBe('1:01.12');
  });

  it('snaps to the nearest cut, playhead or edge within the threshold, else to a frame', () => {
    const timeline = buildTimeline(threeShots(), soundtrack(), 0);
    const targets = snapTargets(timeline, 7.3, 'v1');
    expect(targets).toEqual(expect.arrayContaining([5, 9.5, 7.3]));
    expect(snapTime(7.25, targets, 0.1)).toEqual({ seconds: 7.3, snappedTo: 7.3 });
    expect(snapTime(5.04, targets, 0.1)).toEqual({ seconds: 5, snappedTo: 5 });
    expect(snapTime(6.51, targets, 0.1)).toEqual({ seconds: 6.5, snappedTo: null });
    expect(snapTime(6.53, targets, 0.01).seconds).toBeCloseTo(13 / 24 + 6, 6); // frame 157
    // a voice line dragged a little does not snap back to its own caption (nor a cue to itself)
    expect(snapTargets(timeline, 7.3, 'v1')).not.toContain(3.5);
    const count = (list: number[], n: number) => list.filter((x) => x === n).length;
    expect(count(snapTargets(timeline, 7.3, 'a'), 3.5)).toBe(2); // the line's end and its caption's
    expect(count(snapTargets(timeline, 7.3, 'cue-0'), 3.5)).toBe(1); // the cue snaps to its line, not itself
  });
});

describe('editing arithmetic', () => {
  const timeline = buildTimeline(threeShots(), soundtrack(), 0);

  it('drops a dragged shot before the first shot whose middle lies later', () => {
    expect(dropPosition(timeline.picture, 'a', 12)).toBe(1); // between b and c: a lands at 1
    expect(dropPosition(timeline.picture, 'a', 20)).toBe(2);
    expect(dropPosition(timeline.picture, 'c', 0.1)).toBe(0);
  });

  it('ripple-trims either edge by whole frames, keeping at least one and staying inside the file', () => {
    const [a, b] = timeline.picture;
    expect(rippleTrim(a!, 'out', -1)).toEqual({ inFrame: 0, outFrame: 96 });
    expect(trimRequest(a!, { inFrame: 0, outFrame: 96 })).toEqual({ inSeconds: 0, outSeconds: 4 });
    expect(rippleTrim(b!, 'in', -10)).toEqual({ inFrame: 0, outFrame: 120 });
    expect(trimRequest(b!, { inFrame: 0, outFrame: 120 })).toBeNull(); // the whole file again: no trim
    expect(rippleTrim(b!, 'in', 100)).toEqual({ inFrame: 119, outFrame: 120 });
    expect(rippleTrim(a!, 'out', 3)).toEqual({ inFrame: 0, outFrame: 120 });
    const draft = buildTimeline(sequence({ shots: [shot()] }), null, 0).picture[0]!;
    expect(rippleTrim(draft, 'out', -1)).toBeUndefined();
  });

  it('trims the shot under the playhead with I and O, its file’s frame counted from the trim', () => {
    // 6.5 s in the film is 1.5 s into shot 2, whose file starts at 0.5 s: frame 48 of its file
    expect(trimAtPlayhead(timeline, 6.5, 'i')).toMatchObject({
      clip: { shotId: 'b' },
      range: { inFrame: 48, outFrame: 120 },
    });
    expect(trimAtPlayhead(timeline, 6.5, 'o')).toMatchObject({ range: { inFrame: 12, outFrame: 49 } });
    const draft = buildTimeline(sequence({ shots: [shot()] }), null, 0);
    expect(trimAtPlayhead(draft, 1, 'i')).toBeUndefined();
  });

  it('moves a caption’s edges to the millisecond, never shorter than 0.2 s nor before the start', () => {
    const block = { start: 2, end: 3.5 };
    expect(captionEdge(block, 'end', 3.0004)).toEqual({ startSeconds: 2, endSeconds: 3 });
    expect(captionEdge(block, 'end', 1)).toEqual({ startSeconds: 2, endSeconds: 2.2 });
    expect(captionEdge(block, 'start', 3.49)).toEqual({ startSeconds: 3.3, endSeconds: 3.5 });
    expect(captionEdge(block, 'start', -1)).toEqual({ startSeconds: 0, endSeconds: 3.5 });
  });

  it('moves a voice line to the millisecond and never before the start; steps the playhead by frames', () => {
    expect(movedVoiceTime(2, 1.23456)).toBe(3.235);
    expect(movedVoiceTime(2, -5)).toBe(0);
    expect(stepFrames(1, 1, 15.5)).toBeCloseTo(1 + 1 / 24, 6);
    expect(stepFrames(0, -1, 15.5)).toBe(0);
    expect(stepFrames(15.5, 3, 15.5)).toBeCloseTo(15.5 - 1 / 24, 6);
    // one frame at a time never sticks on a time rounded to the microsecond
    let t = 9;
    for (let i = 0; i < 36; i += 1) t = stepFrames(t, 1, 15.5);
    expect(t).toBeCloseTo(10.5, 6);
    for (let i = 0; i < 36; i += 1) t = stepFrames(t, -1, 15.5);
    expect(t).toBe(9);
  });
});
