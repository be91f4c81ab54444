import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { subtitlesFilter, toSrt } from '../../../src/main/core/media-tools/captions.js';
import { measureLoudness, mixSoundtrack } from '../../../src/main/core/media-tools/mix-soundtrack.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * A film's sound track, measured with ffmpeg: the music (a 200 Hz tone) is looped to the film and
 * ducked under the voice (a 3 kHz tone placed at 3 s) by at least the set amount, and the mix
 * meets the loudness target within ±1 LU (EBU R128, measured by ebur128 apart from the mixer).
 */

let dir: string;
const ffmpeg = (args: string[]) =>
  execFileSync(locateMediaTools().ffmpeg, ['-hide_banner', '-nostdin', '-y', ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });

/** ffmpeg's log (stderr) of running `args`. */
function ffmpegLog(args: string[]): string {
  const out = spawnSync(locateMediaTools().ffmpeg, ['-hide_banner', '-nostdin', ...args], {
    encoding: 'utf8',
  });
  return out.stderr;
}

/** The RMS level (dBFS) of `file` between `from` and `to` seconds after `filter` (e.g. a low-pass). */
function rmsDb(file: string, filter: string, from: number, to: number): number {
  const log = ffmpegLog([
    '-i',
    file,
    '-af',
    `${filter},atrim=start=${from}:end=${to},astats=measure_perchannel=none:measure_overall=RMS_level`,
    '-f',
    'null',
    '-',
  ]);
  const match = /RMS level dB:\s*(-?[\d.]+|-inf)/.exec(log);
  if (!match) throw new Error(`no RMS in ${log.slice(-500)}`);
  return match[1] === '-inf' ? -Infinity : Number(match[1]);
}

const MUSIC_BAND = 'lowpass=f=400,lowpass=f=400,lowpass=f=400';
const VOICE_BAND = 'highpass=f=1500,highpass=f=1500,highpass=f=1500';

let film: string;
let filmWithSound: string;
let music: string;
let voice: string;

beforeAll(() => {
  dir = tempFolder('fw-mix-');
  film = path.join(dir, 'film.mp4');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=s=160x90:r=24:d=8', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', film]);
  filmWithSound = path.join(dir, 'film-sound.mp4');
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'testsrc=s=160x90:r=24:d=8',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=700:duration=8',
    '-pix_fmt',
    'yuv420p',
    '-c:v',
    'libx264',
    '-c:a',
    'aac',
    '-shortest',
    filmWithSound,
  ]);
  // 3 s of music for an 8 s film: it must loop
  music = path.join(dir, 'music.wav');
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=200:duration=3', music]);
  voice = path.join(dir, 'voice.wav');
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=3000:duration=2', voice]);
});

describe('mixSoundtrack', () => {
  it('ducks the looped music under the voice by at least the set amount, at the loudness target', async () => {
    const outPath = path.join(dir, 'mix.wav');
    const progress: number[] = [];
    const result = await mixSoundtrack({
      programAudioPath: film,
      durationSeconds: 8,
      music: { path: music, gainDb: -6 },
      voices: [{ path: voice, atSeconds: 3, gainDb: 0 }],
      duckDb: 12,
      targetLufs: -16,
      outPath,
      onProgress: (f) => progress.push(f),
    });
    expect(result.path).toBe(outPath);
    // measured by the mixer and again here, independently
    expect(Math.abs(result.integratedLufs - -16)).toBeLessThanOrEqual(1);
    expect(Math.abs((await measureLoudness(outPath)).integratedLufs - -16)).toBeLessThanOrEqual(1);

    const musicAlone = rmsDb(outPath, MUSIC_BAND, 1, 2.7);
    const musicUnderVoice = rmsDb(outPath, MUSIC_BAND, 3.2, 4.8);
    expect(musicAlone - musicUnderVoice).toBeGreaterThanOrEqual(12 - 0.05);
    // the music comes back after the voice, and is still there at 7 s (looped past its 3 s)
    expect(Math.abs(rmsDb(outPath, MUSIC_BAND, 5.5, 6.5) - musicAlone)).toBeLessThan(1);
    expect(Math.abs(rmsDb(outPath, MUSIC_BAND, 7, 7.8) - musicAlone)).toBeLessThan(1);
    // the voice starts at 3 s and stops at 5 s
    expect(rmsDb(outPath, VOICE_BAND, 2.5, 2.95)).toBeLessThan(-60);
    expect(rmsDb(outPath, VOICE_BAND, 3.05, 4.95)).toBeGreaterThan(-30);
    expect(rmsDb(outPath, VOICE_BAND, 5.1, 7.5)).toBeLessThan(-60);

    const probed = JSON.parse(
      execFileSync(
        locateMediaTools().ffprobe,
        ['-v', 'error', '-show_format', '-show_streams', '-print_format', 'json', outPath],
        { encoding: 'utf8' },
      ),
    ) as { format: { duration: string }; streams: { sample_rate: string; channels: number }[] };
    expect(Number(probed.format.duration)).toBeCloseTo(8, 1);
    expect(probed.streams[0]).toMatchObject({ sample_rate: '48000', channels: 2 });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.at(-1)).toBe(1);
  });

  it("normalizes the film's own sound to a broadcast target when there is no music or voice", async () => {
    const outPath = path.join(dir, 'own-sound.m4a');
    const result = await mixSoundtrack({
      programAudioPath: filmWithSound,
      durationSeconds: 8,
      voices: [],
      duckDb: 12,
      targetLufs: -23,
      outPath,
    });
    expect(Math.abs(result.integratedLufs - -23)).toBeLessThanOrEqual(1);
    expect(Math.abs((await measureLoudness(outPath)).integratedLufs - -23)).toBeLessThanOrEqual(1);
  });

  it('leaves no file behind when stopped', async () => {
    const outPath = path.join(dir, 'stopped.wav');
    const controller = new AbortController();
    const mixing = mixSoundtrack({
      programAudioPath: filmWithSound,
      durationSeconds: 8,
      music: { path: music, gainDb: 0 },
      voices: [{ path: voice, atSeconds: 1, gainDb: 0 }],
      duckDb: 6,
      targetLufs: -14,
      outPath,
      signal: controller.signal,
      onProgress: () => controller.abort(),
    });
    await expect(mixing).rejects.toThrow(/stopped/);
    expect(existsSync(outPath)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('stopped'))).toEqual([]);
  });
});

describe('subtitlesFilter', () => {
  it('burns an SRT whose path has quotes, colons, commas and brackets into the picture', () => {
    const odd = path.join(dir, "it's: a [test], ok;");
    execFileSync('mkdir', ['-p', odd]);
    const srt = path.join(odd, 'captions.srt');
    writeFileSync(srt, toSrt([{ startSeconds: 0, endSeconds: 2, text: 'HELLO WORLD' }]));
    const frame = (filter: string) =>
      execFileSync(
        locateMediaTools().ffmpeg,
        [
          '-v',
          'error',
          '-f',
          'lavfi',
          '-i',
          'color=c=black:s=320x180:d=1',
          '-vf',
          filter,
          '-frames:v',
          '1',
          '-f',
          'rawvideo',
          '-pix_fmt',
          'gray',
          '-',
        ],
        { maxBuffer: 1 << 24 },
      );
    const plain = frame('null');
    const burnt = frame(subtitlesFilter(srt));
    expect(plain.every((b) => b === 16 || b === 0)).toBe(true);
    // text was drawn: some pixels are bright
    expect(burnt.filter((b) => b > 128).length).toBeGreaterThan(50);
  });
});
