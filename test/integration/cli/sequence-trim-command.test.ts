import { describe, expect, it } from 'vitest';
import { openCliDataFolder } from '../../support/worlds/cli-data-folder.js';

/** `framewright sequence trim` end to end: the real binary on one data folder with the embedded simulator. */

const cli = openCliDataFolder('fw-cli-trim-');
const { fw, json } = cli;

interface Trim {
  inSeconds: number;
  outSeconds: number;
  inFrame: number;
  outFrame: number;
  seconds: number;
}
interface Shot {
  shotId: string;
  trim: Trim | null;
  durationSeconds: number | null;
}

describe('framewright sequence trim', () => {
  it('sets, shows, refuses and clears a shot’s in and out points', async () => {
    await json('sequence', 'new', 'Pier');
    await json('sequence', 'add', 'Pier', '--prompt', 'Waves under the pier');

    const trimmed = await json<{ shot: Shot; sequence: { totalSeconds: number } }>(
      'sequence',
      'trim',
      'Pier',
      '1',
      '--in',
      '1',
      '--out',
      '3.5',
    );
    expect(trimmed.shot.trim).toEqual({
      inSeconds: 1,
      outSeconds: 3.5,
      inFrame: 24,
      outFrame: 84,
      seconds: 2.5,
    });
    expect(trimmed.sequence.totalSeconds).toBe(2.5);

    // without --out: up to the result's end; the plain answer names the kept range
    const plain = await fw('sequence', 'trim', 'Pier', '1', '--in', '0.5');
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('Shot 1: 0.500–5.000 s (frames 12–120), 4.50 s kept');
    const listed = await fw('sequence', 'list', 'Pier');
    expect(listed.stdout).toContain('[0.500–5.000 s]');

    const backwards = await fw('sequence', 'trim', 'Pier', '1', '--in', '3', '--out', '2');
    expect(backwards.code).toBe(2);
    expect(backwards.stderr).toMatch(/in point \(3 s\) must come before the out point \(2 s\)/);
    const pastEnd = await fw('sequence', 'trim', 'Pier', '1', '--in', '1', '--out', '9');
    expect(pastEnd.code).toBe(2);
    expect(pastEnd.stderr).toMatch(/past the end of Shot 1/);
    const notANumber = await fw('sequence', 'trim', 'Pier', '1', '--out', 'soon');
    expect(notANumber.code).toBe(2);
    expect(notANumber.stderr).toMatch(/--out is a number of seconds/);

    const cleared = await json<{ shot: Shot; sequence: { totalSeconds: number } }>(
      'sequence',
      'trim',
      'Pier',
      '1',
      '--clear',
    );
    expect(cleared.shot.trim).toBeNull();
    expect(cleared.sequence.totalSeconds).toBeCloseTo(cleared.shot.durationSeconds!, 2);
  });
});
