import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { openCliDataFolder } from '../../support/worlds/cli-data-folder.js';

/** `framewright sequence music|voice|captions` end to end: the real binary with the embedded simulator. */

const cli = openCliDataFolder('fw-cli-sound-');
const { fw, json } = cli;

interface Soundtrack {
  music: { source: string; state: string; prompt: string | null } | null;
  musicGainDb: number;
  duckDb: number;
  voices: { source: string; state: string; atSeconds: number; gainDb: number; text: string }[];
  captions: { startSeconds: number; endSeconds: number; text: string }[];
}

describe('framewright sequence music, voice and captions', () => {
  it('sets a generated music bed, adds spoken and dropped lines, and writes the caption sidecars', async () => {
    await json('sequence', 'new', 'Dock');
    const music = await json<Soundtrack>(
      'sequence',
      'music',
      'Dock',
      '--generate',
      'Slow harbour strings',
      '--gain',
      '-10',
      '--duck',
      '15',
    );
    expect(music.music).toMatchObject({
      source: 'generated',
      state: 'ready',
      prompt: 'Slow harbour strings',
    });
    expect(music).toMatchObject({ musicGainDb: -10, duckDb: 15 });

    // without --json, off a terminal: the speech job's plain progress line, then the sound track
    const spoken = await fw(
      'sequence',
      'voice',
      'Dock',
      '--text',
      'Lanterns on the water.',
      '--at',
      '1.5',
      '--gain',
      '-3',
    );
    expect(spoken.code, spoken.stderr).toBe(0);
    expect(spoken.stderr).toMatch(/^voice at 1\.5 s · job_\w+ · succeeded/m);
    expect(spoken.stdout).toMatch(/1\.50 s\s+generated\s+ready\s+-3 dB/);

    const wav = path.join(cli.dataDir, 'line.wav');
    execFileSync(locateMediaTools().ffmpeg, [
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=300:duration=4',
      wav,
    ]);
    const dropped = await json<Soundtrack>('sequence', 'voice', 'Dock', '--file', wav, '--at', '6');
    expect(dropped.voices.map((v) => [v.source, v.state, v.atSeconds])).toEqual([
      ['generated', 'ready', 1.5],
      ['file', 'ready', 6],
    ]);

    const srt = path.join(cli.dataDir, 'dock.srt');
    const vtt = path.join(cli.dataDir, 'dock.vtt');
    const written = await fw('sequence', 'captions', 'Dock', '--srt', srt, '--vtt', vtt);
    expect(written.code, written.stderr).toBe(0);
    expect(readFileSync(srt, 'utf8')).toMatch(
      /^1\n00:00:01,500 --> 00:00:0\d,\d{3}\nLanterns on the water\.\n/,
    );
    expect(readFileSync(vtt, 'utf8')).toMatch(/^WEBVTT\n\n00:00:01\.500 --> /);
    expect(readFileSync(srt, 'utf8')).toMatch(/\n00:00:06,000 --> /);
    // without a file: the SRT on stdout
    const printed = await fw('sequence', 'captions', 'Dock');
    expect(printed.stdout).toBe(readFileSync(srt, 'utf8'));
  });

  it('takes the music bed from the library by its job id', async () => {
    await json('sequence', 'new', 'Pier');
    const made = await json<{ jobId: string }>(
      'speak',
      '--model',
      'cadence-music',
      '--prompt',
      'Calm piano',
      '--seconds',
      '5',
    );
    const set = await json<Soundtrack>('sequence', 'music', 'Pier', '--library', made.jobId);
    expect(set.music).toMatchObject({ source: 'library', state: 'ready', prompt: null });
    const unknown = await fw('sequence', 'music', 'Pier', '--library', 'job_nope');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No job "job_nope"');
  });

  it('says what is wrong with bad input, with the invalid-input exit code', async () => {
    await json('sequence', 'new', 'Quiet');
    const neither = await fw('sequence', 'voice', 'Quiet', '--at', '1');
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('Give --text');
    const badAt = await fw('sequence', 'voice', 'Quiet', '--at', 'soon', '--text', 'Hi');
    expect(badAt.code).toBe(2);
    expect(badAt.stderr).toContain('--at is a number of seconds');
    const badGain = await fw('sequence', 'music', 'Quiet', '--gain', 'loud');
    expect(badGain.code).toBe(2);
    expect(badGain.stderr).toContain('--gain is a number of dB');
  });
});
