import { describe, expect, it } from 'vitest';
import {
  assemblyFilterGraph,
  assemblyTimeline,
  checkCrossfade,
  ffmetadataOf,
  type AssemblyPlan,
} from '../../../src/main/core/media-tools/assemble-shots.js';

const plan = (durations: number[], crossfadeSeconds: number, audio = true): AssemblyPlan => ({
  shots: durations.map((d, i) => ({
    path: `/lib/${i}.mp4`,
    durationSeconds: d,
    hasAudioTrack: audio,
    title: `Shot ${i + 1}`,
  })),
  canvas: { width: 1376, height: 768, fps: 24 },
  crossfadeSeconds,
});

describe('assembly plan', () => {
  it('lasts the sum of the shots minus one cross-fade per join, each shot a whole number of frames', () => {
    expect(assemblyTimeline(plan([5, 6, 5], 0.5)).totalSeconds).toBe(15);
    expect(assemblyTimeline(plan([5, 6, 5], 0)).totalSeconds).toBe(16);
    // 5.02 s at 24 fps is 120 frames: 5 s
    expect(assemblyTimeline(plan([5.02, 5.02], 0)).totalSeconds).toBe(10);
  });

  it('names one chapter per shot, starting where the shot starts to fade in', () => {
    expect(assemblyTimeline(plan([5, 6, 5], 0.5)).chapters).toEqual([
      { title: 'Shot 1', startSeconds: 0, endSeconds: 4.5 },
      { title: 'Shot 2', startSeconds: 4.5, endSeconds: 10 },
      { title: 'Shot 3', startSeconds: 10, endSeconds: 15 },
    ]);
  });

  it('cross-fades picture and sound at the right offsets, and fills a silent shot with silence', () => {
    const graph = assemblyFilterGraph(plan([5, 6, 5], 0.5, false));
    expect(graph).toContain('xfade=transition=fade:duration=0.5:offset=4.500000');
    expect(graph).toContain('xfade=transition=fade:duration=0.5:offset=10.000000');
    expect(graph.match(/acrossfade=d=0.5/g)).toHaveLength(2);
    expect(graph.match(/anullsrc/g)).toHaveLength(3);
    expect(graph).toContain('scale=1376:768:force_original_aspect_ratio=decrease');
    expect(graph).toContain('fps=24');
    const cut = assemblyFilterGraph(plan([5, 5], 0));
    expect(cut).toContain('concat=n=2:v=1:a=1[v][a]');
    expect(cut).not.toContain('xfade');
    expect(cut).toContain('[1:a:0]aresample=48000');
  });

  it('refuses a cross-fade longer than half the shortest shot', () => {
    expect(() => checkCrossfade(plan([5, 1], 0.75))).toThrow(/too long/);
    expect(() => checkCrossfade(plan([5, 1.5], 0.75))).not.toThrow();
  });

  it('writes chapters in milliseconds and escapes names', () => {
    const text = ffmetadataOf([{ title: 'Shot 1; a=b', startSeconds: 0, endSeconds: 4.5 }], 'Harbour #1');
    expect(text).toBe(
      ';FFMETADATA1\ntitle=Harbour \\#1\n[CHAPTER]\nTIMEBASE=1/1000\nSTART=0\nEND=4500\ntitle=Shot 1\\; a\\=b\n',
    );
  });
});
