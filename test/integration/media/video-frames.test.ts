import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  extractFirstFrame,
  extractFrameAt,
  extractLastFrame,
} from '../../../src/main/core/media-tools/video-frames.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * "Continue from a shot" takes the exact last frame of a result: the PNG must hold the same pixels
 * as the video's last decoded frame (not a nearby keyframe, not a scaled copy).
 */

const W = 320;
const H = 180;
let dir: string;
const ffmpeg = (args: string[]) => execFileSync(locateMediaTools().ffmpeg, ['-v', 'error', '-y', ...args]);

/** Every decoded frame of a file as rgb24 bytes. */
function frames(file: string): Buffer[] {
  const raw = execFileSync(
    locateMediaTools().ffmpeg,
    ['-v', 'error', '-i', file, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { maxBuffer: 512 * 1024 * 1024 },
  );
  const size = W * H * 3;
  return Array.from({ length: raw.length / size }, (_, i) => raw.subarray(i * size, (i + 1) * size));
}

beforeAll(() => {
  dir = tempFolder('fw-frames-');
  // a moving pattern (every frame differs), 5 s at 24 fps, with a sound track one second longer
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${W}x${H}:rate=24:duration=5`,
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:sample_rate=48000:duration=6',
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-g',
    '48',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    path.join(dir, 'shot.mp4'),
  ]);
  // a clip shorter than the tail the extraction decodes
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${W}x${H}:rate=24:duration=0.5`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    path.join(dir, 'short.mp4'),
  ]);
});

describe('video frames', () => {
  it('writes the exact last decoded frame as a full-resolution lossless PNG', async () => {
    const video = path.join(dir, 'shot.mp4');
    const png = path.join(dir, 'last.png');
    await extractLastFrame(video, png);
    const all = frames(video);
    expect(all.length).toBe(120);
    const [still] = frames(png);
    expect(still!.length).toBe(W * H * 3);
    expect(still!.equals(all.at(-1)!)).toBe(true);
    expect(still!.equals(all.at(-2)!)).toBe(false);
    const header = execFileSync(locateMediaTools().ffprobe, [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width,height',
      '-of',
      'csv=p=0',
      png,
    ])
      .toString()
      .trim();
    expect(header).toBe(`png,${W},${H}`);
  });

  it('takes the last frame of a clip shorter than the tail it decodes, and the first frame', async () => {
    const video = path.join(dir, 'short.mp4');
    const last = path.join(dir, 'short-last.png');
    const first = path.join(dir, 'short-first.png');
    await extractLastFrame(video, last);
    await extractFirstFrame(video, first);
    const all = frames(video);
    expect(frames(last)[0]!.equals(all.at(-1)!)).toBe(true);
    expect(frames(first)[0]!.equals(all[0]!)).toBe(true);
  });

  it("writes frame N exactly (a trimmed shot's out or in point), whatever the keyframes", async () => {
    const video = path.join(dir, 'shot.mp4');
    const all = frames(video);
    for (const n of [0, 47, 50, 119]) {
      const png = path.join(dir, `frame-${n}.png`);
      await extractFrameAt(video, n, png);
      const [still] = frames(png);
      expect(still!.equals(all[n]!), `frame ${n}`).toBe(true);
    }
    await expect(extractFrameAt(video, 120, path.join(dir, 'past.png'))).rejects.toMatchObject({
      code: 'media.no_frame',
    });
  });

  it('refuses a file that is not media without running ffmpeg on it', async () => {
    const text = path.join(dir, 'notes.mp4');
    writeFileSync(text, 'this is not a video\n'.repeat(50));
    await expect(extractLastFrame(text, path.join(dir, 'x.png'))).rejects.toMatchObject({
      code: 'file.not_media',
    });
  });
});
