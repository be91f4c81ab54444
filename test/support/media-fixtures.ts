import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator.js';

/** Real media files made with ffmpeg, once per test process, for uploads and probing. */
export interface MediaFixtures {
  dir: string;
  firstPng: string;
  lastPng: string;
  refJpg: string;
  refWebp: string;
  refMp4: string;
  audioWav: string;
  audioWav2: string;
  movWithAudio: string;
  movWithoutAudio: string;
  shortWav: string;
}

let cached: MediaFixtures | undefined;

export function mediaFixtures(): MediaFixtures {
  if (cached) return cached;
  const { ffmpeg } = locateMediaTools();
  const dir = path.join(os.tmpdir(), `fw-fixtures-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const make = (name: string, args: string[]) => {
    const out = path.join(dir, name);
    if (!existsSync(out)) execFileSync(ffmpeg, ['-loglevel', 'error', '-y', ...args, out]);
    return out;
  };
  cached = {
    dir,
    firstPng: make('first.png', ['-f', 'lavfi', '-i', 'testsrc2=s=640x360', '-frames:v', '1']),
    lastPng: make('last.png', ['-f', 'lavfi', '-i', 'smptebars=s=640x360', '-frames:v', '1']),
    refJpg: make('ref.jpg', ['-f', 'lavfi', '-i', 'mandelbrot=s=320x240', '-frames:v', '1']),
    refWebp: make('ref.webp', ['-f', 'lavfi', '-i', 'rgbtestsrc=s=320x240', '-frames:v', '1']),
    refMp4: make('ref.mp4', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:d=3',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
    ]),
    audioWav: make('voice.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=3']),
    audioWav2: make('music.wav', ['-f', 'lavfi', '-i', 'sine=frequency=660:duration=4']),
    shortWav: make('short.wav', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1']),
    movWithAudio: make('clip-with-sound.mov', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:d=3',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=330:duration=3',
      '-shortest',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:a',
      'aac',
    ]),
    movWithoutAudio: make('clip-silent.mov', [
      '-f',
      'lavfi',
      '-i',
      'testsrc=s=320x240:d=3',
      '-pix_fmt',
      'yuv420p',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
    ]),
  };
  return cached;
}
