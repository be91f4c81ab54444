import { describe, expect, it } from 'vitest';
import {
  assemblyFilterGraph,
  assemblyTimeline,
  checkCrossfade,
  type AssemblyPlan,
  type AssemblyShot,
} from '../../../src/main/core/media-tools/assemble-shots.js';
import {
  resultFramesOf,
  snapTrim,
  trimFor,
  trimSeconds,
} from '../../../src/main/core/sequences/shot-trims.js';

/** A 5 s result at 24 fps: 120 frames. */
const result = { fpsNum: 24, fpsDen: 1, frameCount: 120 };

const shot = (
  durationSeconds: number,
  trim?: { inSeconds?: number; outSeconds?: number },
  i = 0,
): AssemblyShot => ({
  path: `/lib/${i}.mp4`,
  durationSeconds,
  hasAudioTrack: true,
  title: `Shot ${i + 1}`,
  ...trim,
});
const plan = (shots: AssemblyShot[], crossfadeSeconds: number): AssemblyPlan => ({
  shots,
  canvas: { width: 1376, height: 768, fps: 24 },
  crossfadeSeconds,
});

describe('shot trims', () => {
  it('snaps in and out points to the nearest frame of the result', () => {
    expect(snapTrim({ inSeconds: 0.5, outSeconds: 4 }, result, 'Shot 1')).toEqual({
      inFrame: 12,
      outFrame: 96,
    });
    // 0.52 s is 12.48 frames: frame 12; 4.99 s is 119.76 frames: 120, the end
    expect(snapTrim({ inSeconds: 0.52, outSeconds: 4.99 }, result, 'Shot 1')).toEqual({
      inFrame: 12,
      outFrame: 120,
    });
    // NTSC rates stay exact: 30000/1001, 1 s is frame 30 (29.97 rounds up)
    const ntsc = { fpsNum: 30000, fpsDen: 1001, frameCount: 150 };
    expect(snapTrim({ inSeconds: 1, outSeconds: 2 }, ntsc, 'Shot 1')).toEqual({ inFrame: 30, outFrame: 60 });
    expect(trimSeconds({ inFrame: 30, outFrame: 60, ...ntsc }).seconds).toBeCloseTo(1.001, 6);
  });

  it('refuses a bad range with a clear error', () => {
    const bad = (inSeconds: number, outSeconds: number) => () =>
      snapTrim({ inSeconds, outSeconds }, result, 'Shot 2');
    expect(bad(3, 3)).toThrow(/in point \(3 s\) must come before the out point \(3 s\)/);
    expect(bad(4, 2)).toThrow(/must come before/);
    expect(bad(1, 5.1)).toThrow(/out point \(5.1 s\) is past the end of Shot 2 \(5 s\)/);
    expect(bad(-1, 2)).toThrow(/0 s or later/);
    expect(bad(1, 1.01)).toThrow(/shorter than one frame \(0.042 s\)/);
    expect(bad(Number.NaN, 2)).toThrow(/numbers of seconds/);
    try {
      bad(3, 3)();
    } catch (error) {
      expect(error).toMatchObject({ code: 'sequence.invalid_trim' });
    }
    // one frame is enough
    expect(snapTrim({ inSeconds: 1, outSeconds: 1 + 1 / 24 }, result, 'Shot 2')).toEqual({
      inFrame: 24,
      outFrame: 25,
    });
  });

  it('needs measured frames, and applies only to the result it was set on', () => {
    expect(() => resultFramesOf({}, 'Shot 3')).toThrow(
      expect.objectContaining({ code: 'sequence.no_result' }),
    );
    expect(resultFramesOf({ frameRate: { num: 24, den: 1 }, frameCount: 120 }, 'Shot 3')).toEqual(result);
    const stored = {
      shotId: 's',
      sourceSha256: 'a'.repeat(64),
      fpsNum: 24,
      fpsDen: 1,
      inFrame: 0,
      outFrame: 5,
      updatedAt: 0,
    };
    expect(trimFor(stored, 'a'.repeat(64))).toBe(stored);
    expect(trimFor(stored, 'b'.repeat(64))).toBeUndefined();
    expect(trimFor(undefined, 'a'.repeat(64))).toBeUndefined();
  });

  it('times the assembly, its chapters and its cross-fades from the trimmed lengths', () => {
    const shots = [
      shot(5, { inSeconds: 0.5, outSeconds: 4 }, 0),
      shot(6, { inSeconds: 2 }, 1),
      shot(5, undefined, 2),
    ];
    const timeline = assemblyTimeline(plan(shots, 0.5));
    // 3.5 + 4 + 5 − 2 × 0.5
    expect(timeline.totalSeconds).toBe(11.5);
    expect(timeline.chapters).toEqual([
      { title: 'Shot 1', startSeconds: 0, endSeconds: 3 },
      { title: 'Shot 2', startSeconds: 3, endSeconds: 6.5 },
      { title: 'Shot 3', startSeconds: 6.5, endSeconds: 11.5 },
    ]);
    expect(assemblyTimeline(plan(shots, 0)).totalSeconds).toBe(12.5);
    // a cross-fade is checked against the trimmed length: 1 s of a 1.5 s trim is too long
    expect(() => checkCrossfade(plan([shot(5, { inSeconds: 1, outSeconds: 2.5 }), shot(5)], 1))).toThrow(
      /shortest shot lasts 1.50 s/,
    );
  });

  it('cuts the trimmed range out of the decoded picture and sound, and nothing out of a whole shot', () => {
    const graph = assemblyFilterGraph(
      plan([shot(5, { inSeconds: 0.5, outSeconds: 4 }, 0), shot(5, undefined, 1)], 0.5),
    );
    expect(graph).toContain(
      '[0:v:0]setpts=PTS-STARTPTS,trim=start=0.499500:end=3.999500,setpts=PTS-STARTPTS,scale=',
    );
    expect(graph).toContain(
      '[0:a:0]asetpts=PTS-STARTPTS,atrim=start=0.500000:end=4.000000,asetpts=PTS-STARTPTS,aresample',
    );
    expect(graph).toContain('xfade=transition=fade:duration=0.5:offset=3.000000');
    expect(graph).toContain('[1:v:0]scale=');
    expect(graph).toContain('[1:a:0]aresample');
    // the kept length rules the pad/trim of the shot: 3.5 s
    expect(graph).toContain('tpad=stop_mode=clone:stop_duration=3.500000');
  });
});
