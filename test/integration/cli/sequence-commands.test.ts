import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { openCliDataFolder } from '../../support/worlds/cli-data-folder.js';

/** `framewright sequence …` end to end: the real binary on one data folder with the embedded simulator. */

const cli = openCliDataFolder('fw-cli-seq-');
const { fw, json } = cli;

interface Shot {
  shotId: string;
  origin: string;
  state: string;
  jobId: string | null;
  sha256: string | null;
  durationSeconds: number | null;
}
interface Sequence {
  sequenceId: string;
  name: string;
  shots: Shot[];
}

describe('framewright sequence', () => {
  it('new, add, bridge, continue, list and assemble on the same journal', async () => {
    const created = await json<Sequence>('sequence', 'new', 'Night market');
    expect(created.name).toBe('Night market');

    const first = await json<{ shot: Shot }>(
      'sequence',
      'add',
      'night market',
      '--prompt',
      'Lanterns light up',
    );
    expect(first.shot).toMatchObject({ state: 'succeeded', origin: 'new' });
    expect(first.shot.sha256).toMatch(/^[0-9a-f]{64}$/);
    // without --json, off a terminal: plain progress lines on stderr, no escape codes
    const second = await fw(
      'sequence',
      'add',
      created.sequenceId,
      '--prompt',
      'A crowd gathers',
      '--seconds',
      '6',
    );
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/^Shot 2 · job_\w+ · succeeded/m);
    expect(second.stderr).not.toContain('\u001b[');
    expect(second.stdout).toContain('2 shots');
    const bridged = await json<{ sequence: Sequence; shot: Shot }>(
      'sequence',
      'bridge',
      'Night market',
      '1',
      '2',
    );
    expect(bridged.shot).toMatchObject({ origin: 'bridge', state: 'succeeded' });
    expect(bridged.sequence.shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new']);
    const continued = await json<{ sequence: Sequence }>('sequence', 'continue', 'Night market', '3');
    expect(continued.sequence.shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new', 'continue']);

    const listed = await json<Sequence>('sequence', 'list', 'Night market');
    expect(listed.shots.every((s) => s.state === 'succeeded' && s.jobId)).toBe(true);
    const plain = await fw('sequence', 'list');
    expect(plain.stdout).toContain('Night market  4 shots');

    const assembled = await json<{
      state: string;
      path: string;
      sidecarPath: string;
      durationSeconds: number;
      chapters: { title: string }[];
      reused: boolean;
    }>('sequence', 'assemble', 'Night market', '--crossfade', '0.5');
    expect(assembled.state).toBe('ready');
    expect(assembled.reused).toBe(false);
    const durations = listed.shots.map((s) => s.durationSeconds!);
    const expected = durations.reduce((a, b) => a + b, 0) - 0.5 * 3;
    const probed = JSON.parse(
      execFileSync(locateMediaTools().ffprobe, [
        ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-show_chapters'],
        assembled.path,
      ]).toString(),
    ) as { format: { duration: string }; streams: { codec_type: string }[]; chapters: unknown[] };
    expect(Math.abs(Number(probed.format.duration) - expected)).toBeLessThan(0.15);
    expect(probed.streams.map((s) => s.codec_type)).toEqual(expect.arrayContaining(['video', 'audio']));
    expect(probed.chapters).toHaveLength(4);
    expect(assembled.path.startsWith(path.join(cli.dataDir, 'library'))).toBe(true);
    const sidecar = JSON.parse(readFileSync(assembled.sidecarPath, 'utf8')) as { shots: { jobId: string }[] };
    expect(sidecar.shots.map((s) => s.jobId)).toEqual(listed.shots.map((s) => s.jobId));

    // unchanged: the same file again, said in plain words
    const again = await fw('sequence', 'assemble', 'Night market', '--crossfade', '0.5');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`unchanged, reused: ${assembled.path}`);
    expect(existsSync(assembled.path)).toBe(true);
  });

  it('says what is wrong with bad input, with the invalid-input exit code', async () => {
    const missing = await fw('sequence', 'list', 'No such sequence');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No sequence is named "No such sequence"');
    await json('sequence', 'new', 'Short');
    const badShot = await fw('sequence', 'continue', 'Short', '7');
    expect(badShot.code).toBe(2);
    expect(badShot.stderr).toContain('"7" is not a shot of Short');
    const badFade = await fw('sequence', 'assemble', 'Short', '--crossfade', 'soft');
    expect(badFade.code).toBe(2);
    expect(badFade.stderr).toContain('--crossfade is a number of seconds');
    const empty = await fw('sequence', 'assemble', 'Short');
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('no shots');
  });
});
