import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import { TrimmedCopies, type ResolvedMedia } from '../../../src/main/core/storage/trimmed-copies.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// The cuts of trimmed references (issue 31): made once per (source sha256, range), the source
// untouched, counted in the person's quota, and removed once their source is gone.

let video: ResolvedMedia;
let movAudio: ResolvedMedia;
let work: string;

async function resolved(file: string, id: string): Promise<ResolvedMedia> {
  const probed = await probeMedia(file);
  return { ...probed, id, kind: probed.kind === 'document' ? 'image' : probed.kind };
}

beforeAll(async () => {
  work = tempFolder('fw-trimmed-');
  const { ffmpeg } = locateMediaTools();
  const mp4 = path.join(work, 'take.mp4');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=320x240:r=25:d=12'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', mp4],
  ]);
  const mov = path.join(work, 'voice.mov');
  execFileSync(ffmpeg, [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=s=160x120:r=25:d=20'],
    ...['-f', 'lavfi', '-i', 'sine=frequency=300:duration=20:sample_rate=44100', '-shortest'],
    ...['-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', mov],
  ]);
  video = await resolved(mp4, 'v');
  movAudio = await resolved(mov, 'a');
});

describe('TrimmedCopies', () => {
  it('cuts a video to the frame, once per range, and leaves the source as it was', async () => {
    const quota = { ready: Promise.resolve(), used: 0, files: 0 } as {
      ready: Promise<void>;
      used: number;
      files: number;
      admit(b: number, f: number): void;
      release(b: number, f: number): void;
    };
    quota.admit = (b, f) => {
      quota.used += b;
      quota.files += f;
    };
    quota.release = (b, f) => {
      quota.used -= b;
      quota.files -= f;
    };
    const copies = new TrimmedCopies(path.join(work, 'trims'), quota);
    const before = statSync(video.path);
    const range = { startSeconds: 1.2, endSeconds: 4.6 };
    const [a, b] = await Promise.all([copies.keptRangeOf(video, range), copies.keptRangeOf(video, range)]);
    expect(a.path).toBe(b.path);
    expect(a).toMatchObject({ id: 'v', fileName: 'take.mp4', kind: 'video', mimeType: 'video/mp4' });
    expect(Math.abs(a.durationSeconds! - 3.4)).toBeLessThanOrEqual(1 / 25);
    expect(quota).toMatchObject({ used: statSync(a.path).size, files: 1 });
    // asked again later: the same bytes, not cut again
    const mtime = statSync(a.path).mtimeMs;
    const again = await copies.keptRangeOf(video, range);
    expect(again.sha256).toBe(a.sha256);
    expect(statSync(a.path).mtimeMs).toBe(mtime);
    expect(quota.files).toBe(1);
    // the source never changes
    expect(statSync(video.path)).toMatchObject({ size: before.size, mtimeMs: before.mtimeMs });
    expect((await probeMedia(video.path)).sha256).toBe(video.sha256);
    // the whole file is the file itself; a range outside it is refused
    expect(await copies.keptRangeOf(video, { startSeconds: 0, endSeconds: 12 })).toBe(video);
    await expect(copies.keptRangeOf(video, { startSeconds: 3, endSeconds: 13 })).rejects.toMatchObject({
      code: 'media.trim_invalid',
    });
    expect(readdirSync(path.join(work, 'trims')).filter((n) => n.endsWith('.part'))).toEqual([]);

    // removed once their source is no longer staged (and old enough), kept while it is
    const old = Date.now() / 1000 - 3 * 24 * 3600;
    utimesSync(a.path, old, old);
    expect(await copies.removeUnused(new Set([video.sha256]), 24 * 3600_000, Date.now())).toBe(0);
    expect(await copies.removeUnused(new Set(), 24 * 3600_000, Date.now())).toBe(1);
    expect(existsSync(a.path)).toBe(false);
    expect(quota).toMatchObject({ used: 0, files: 0 });
  });

  it('an audio-bearing .mov reference is cut to its audio alone, on exact samples', async () => {
    const copies = new TrimmedCopies(path.join(work, 'trims-audio'));
    expect(movAudio).toMatchObject({ mimeType: 'video/quicktime', hasAudioTrack: true });
    const cut = await copies.keptRangeOf(movAudio, { startSeconds: 2.5, endSeconds: 14.25 });
    expect(cut).toMatchObject({ kind: 'audio', mimeType: 'audio/flac', fileName: 'voice.flac' });
    const { ffprobe } = locateMediaTools();
    const samples = execFileSync(ffprobe, [
      ...['-v', 'error', '-show_entries', 'stream=duration_ts,codec_type', '-of', 'csv=p=0', cut.path],
    ])
      .toString()
      .trim();
    expect(samples).toBe(`audio,${Math.round(11.75 * 44100)}`);
  });
});
