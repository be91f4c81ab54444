import { cpSync, existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFramewright, simulatorVideoArgs } from '../../support/cli-runner.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** Every `framewright.json` below `dir`. */
function sidecars(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => path.basename(name) === 'framewright.json')
    .map((name) => path.join(dir, name));
}

const json = (text: string) => JSON.parse(text.trim().split('\n').at(-1)!) as Record<string, unknown>;

interface ShownJob {
  jobId: string;
  status: string;
  model: string;
  outputs: { path: string | null; sha256: string | null; byteSize: number | null; verified: boolean }[];
  request?: unknown;
  [key: string]: unknown;
}

describe('framewright library reindex', () => {
  it('rebuilds jobs and verified outputs from the sidecars after the journal is lost; idempotent; refuses tampered files', async () => {
    const dataDir = tempFolder('fw-reindex-');
    const made = await runFramewright(
      simulatorVideoArgs(dataDir, 'A lighthouse in a storm, kept by its sidecar'),
    );
    expect(made.code, made.stderr).toBe(0);
    const jobId = json(made.stdout).jobId as string;
    const shownBefore = await runFramewright(['--data-dir', dataDir, '--json', 'show', jobId]);
    const before = json(shownBefore.stdout) as unknown as ShownJob;
    expect(before.outputs.length).toBeGreaterThan(0);
    expect(before.outputs.every((o) => o.verified && o.path)).toBe(true);

    // the journal is damaged: the next command moves it aside and says where
    for (const suffix of ['-wal', '-shm'])
      rmSync(path.join(dataDir, `journal.sqlite${suffix}`), { force: true });
    writeFileSync(path.join(dataDir, 'journal.sqlite'), 'not a database '.repeat(400));
    const damaged = await runFramewright(['--data-dir', dataDir, 'jobs']);
    expect(damaged.code).not.toBe(0);
    expect(damaged.stderr).toMatch(/moved aside, not deleted, to .*journal\.sqlite\.corrupt-/);
    expect(damaged.stderr).toContain('framewright library reindex');
    expect(readdirSync(dataDir).some((name) => name.startsWith('journal.sqlite.corrupt-'))).toBe(true);
    const empty = await runFramewright(['--data-dir', dataDir, '--json', 'jobs']);
    expect(json(empty.stdout).data).toEqual([]);

    // a copied job folder whose result was altered must not be taken in
    const [sidecar] = sidecars(path.join(dataDir, 'library'));
    const tamperedFolder = path.join(path.dirname(path.dirname(sidecar!)), 'job_tampered');
    cpSync(path.dirname(sidecar!), tamperedFolder, { recursive: true });
    const tamperedSidecar = JSON.parse(readFileSync(path.join(tamperedFolder, 'framewright.json'), 'utf8'));
    tamperedSidecar.jobId = 'job_tampered';
    writeFileSync(path.join(tamperedFolder, 'framewright.json'), JSON.stringify(tamperedSidecar));
    const tamperedFile = path.join(tamperedFolder, tamperedSidecar.outputs[0].file);
    const bytes = readFileSync(tamperedFile);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
    writeFileSync(tamperedFile, bytes);

    const reindexed = await runFramewright(['--data-dir', dataDir, '--json', 'library', 'reindex']);
    const result = json(reindexed.stdout) as {
      restored: number;
      alreadyIndexed: number;
      refused: number;
      entries: { jobId?: string; outcome: string; reason?: string }[];
    };
    expect(result).toMatchObject({ restored: 1, alreadyIndexed: 0, refused: 1 });
    expect(result.entries.find((e) => e.jobId === jobId)?.outcome).toBe('restored');
    expect(result.entries.find((e) => e.jobId === 'job_tampered')).toMatchObject({
      outcome: 'refused',
      reason: expect.stringContaining('does not match its sha256'),
    });
    expect(reindexed.code).toBe(2);

    const listed = json((await runFramewright(['--data-dir', dataDir, '--json', 'jobs'])).stdout);
    expect((listed.data as { jobId: string }[]).map((j) => j.jobId)).toEqual([jobId]);
    const after = json(
      (await runFramewright(['--data-dir', dataDir, '--json', 'show', jobId])).stdout,
    ) as unknown as ShownJob;
    expect(after.status).toBe(before.status);
    expect(after.model).toBe(before.model);
    expect(after.request).toEqual(before.request);
    expect(after.outputs).toEqual(before.outputs);
    for (const output of after.outputs) expect(existsSync(output.path!)).toBe(true);

    // a second run changes nothing
    const again = json(
      (await runFramewright(['--data-dir', dataDir, '--json', 'library', 'reindex'])).stdout,
    );
    expect(again).toMatchObject({ restored: 0, alreadyIndexed: 1, refused: 1 });
    const listedAgain = json((await runFramewright(['--data-dir', dataDir, '--json', 'jobs'])).stdout);
    expect(listedAgain.data).toEqual(listed.data);
    const shownAgain = json((await runFramewright(['--data-dir', dataDir, '--json', 'show', jobId])).stdout);
    expect(shownAgain).toEqual(after);

    const nowhere = await runFramewright([
      '--data-dir',
      dataDir,
      'library',
      'reindex',
      '--library',
      path.join(dataDir, 'nope'),
    ]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('is not a folder');
  });
});
