import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeDelivery } from '../../../src/main/core/media-tools/delivery-render.js';
import { measureLoudness } from '../../../src/main/core/media-tools/mix-soundtrack.js';
import { openCliDataFolder } from '../../support/worlds/cli-data-folder.js';

/**
 * `framewright sequence deliver` end to end: the real binary on one data folder with the embedded
 * simulator — a one-shot film assembled on the way and delivered 9:16 cropped at −23 LUFS, the
 * same delivery reused, and Ctrl-C cancelling a render with nothing left in the library.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const cli = openCliDataFolder('fw-cli-deliver-');
const { fw } = cli;
const deliveriesDir = () => path.join(cli.dataDir, 'library', 'sequences', 'deliveries');

interface Delivered {
  state: string;
  preset: string;
  fit: string;
  width: number;
  height: number;
  measuredLufs: number;
  sha256: string;
  reused: boolean;
  path: string;
  sidecarPath: string;
}

beforeAll(async () => {
  expect((await fw('sequence', 'new', 'Pier')).code).toBe(0);
  const added = await fw('sequence', 'add', 'Pier', '--prompt', 'Waves under a pier', '--seconds', '5');
  expect(added.code, added.stderr).toBe(0);
});

describe('framewright sequence deliver', () => {
  it('assembles on the way, delivers a cropped 9:16 at −23 LUFS, then reuses it', async () => {
    const run = await fw(
      '--json',
      ...['sequence', 'deliver', 'Pier', '--preset', '9x16', '--fit', 'crop', '--loudness', '-23'],
    );
    expect(run.code, run.stderr).toBe(0);
    const delivered = JSON.parse(run.stdout) as Delivered;
    expect(delivered).toMatchObject({
      state: 'ready',
      preset: '9x16',
      fit: 'crop',
      width: 1080,
      height: 1920,
    });
    expect(delivered.reused).toBe(false);
    expect(delivered.path.startsWith(deliveriesDir())).toBe(true);
    const facts = await probeDelivery(delivered.path);
    expect(facts).toMatchObject({ width: 1080, height: 1920, rotation: 0, audioCodec: 'aac', channels: 2 });
    expect(Math.abs((await measureLoudness(delivered.path)).integratedLufs - -23)).toBeLessThanOrEqual(1);
    const sidecar = JSON.parse(readFileSync(delivered.sidecarPath, 'utf8')) as { shots: { jobId: string }[] };
    expect(sidecar.shots).toHaveLength(1);
    expect(sidecar.shots[0]!.jobId).toMatch(/^job_/);

    const again = await fw(
      'sequence',
      'deliver',
      'Pier',
      '--preset',
      '9x16',
      '--fit',
      'crop',
      '--loudness',
      '-23',
    );
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain(`unchanged, reused: ${delivered.path}`);

    const bad = await fw('sequence', 'deliver', 'Pier', '--preset', '4x3');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--preset is 16x9, 9x16 or 1x1');
  });

  it('Ctrl-C cancels the render: exit 6, no file of it in the library', async () => {
    const before = readdirSync(deliveriesDir());
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/framewright.js'),
        ...[
          '--data-dir',
          cli.dataDir,
          'sequence',
          'deliver',
          'Pier',
          '--preset',
          '16x9',
          '--loudness',
          '-18',
        ],
      ],
      { cwd: ROOT, env: { ...process.env, FRAMEWRIGHT_API_KEY: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await new Promise<void>((resolve) =>
      child.stderr.on('data', (d: Buffer) => {
        stderr += String(d);
        // past the sound's share: the picture is being encoded into its temporary file
        if (/rendering [2-9]0%/.test(stderr)) resolve();
      }),
    );
    // a temporary file of the render is in the library folder while it runs
    expect(readdirSync(deliveriesDir()).some((n) => n.includes('.part'))).toBe(true);
    child.kill('SIGINT');
    expect(await closed).toBe(6);
    expect(stderr).toContain('The delivery was cancelled.');
    expect(readdirSync(deliveriesDir()).sort()).toEqual(before.sort());
    expect(readdirSync(deliveriesDir()).some((n) => n.includes('.part'))).toBe(false);
    expect(existsSync(deliveriesDir())).toBe(true);
  });
});
