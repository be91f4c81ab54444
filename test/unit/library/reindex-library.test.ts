import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reindexLibrary } from '../../../src/main/core/library/reindex-library.js';
import { tempJournal } from '../journal/helpers.js';

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const sha = (bytes: string) => createHash('sha256').update(bytes).digest('hex');

/** A job folder as download-outputs.ts writes it: one result and its framewright.json. */
function jobFolder(
  library: string,
  jobId: string,
  overrides: Record<string, unknown> = {},
  bytes = 'video bytes',
) {
  const folder = path.join(library, '2026-05-01', jobId);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, '1-asset_1.mp4'), bytes);
  const sidecar = {
    framewright: 1,
    jobId,
    requestId: 'req_1',
    profileId: 'simulator',
    model: 'h3-video',
    serviceKind: 'video',
    status: 'succeeded',
    request: { model: 'h3-video', prompt: `prompt of ${jobId}` },
    timings: { acceptedAt: '2026-05-01T10:00:00.000Z', completedAt: '2026-05-01T10:01:00.000Z' },
    outputs: [
      {
        file: '1-asset_1.mp4',
        assetId: 'asset_1',
        sha256: sha(bytes),
        byteSize: bytes.length,
        mimeType: 'video/mp4',
      },
    ],
    ...overrides,
  };
  writeFileSync(path.join(folder, 'framewright.json'), JSON.stringify(sidecar));
  return folder;
}

/** A journal holding the simulator profile, as every core opens it. */
function withSimulatorProfile() {
  const t = tempJournal();
  cleanup = t.cleanup;
  t.journal.profiles.create({ id: 'simulator', name: 'Simulator', kind: 'simulator' });
  return t;
}

describe('reindexLibrary', () => {
  it('restores a job with its verified output, searchable by its prompt, and only once', async () => {
    const t = withSimulatorProfile();
    const library = path.join(t.dir, 'library');
    const folder = jobFolder(library, 'job_a');

    const first = await reindexLibrary(t.journal, { libraryDirs: [library] });
    expect(first).toMatchObject({ restored: 1, alreadyIndexed: 0, refused: 0 });
    const job = t.journal.jobs.getJobByJobId('simulator', 'job_a')!;
    expect(job).toMatchObject({ status: 'succeeded', model: 'h3-video', requestId: 'req_1' });
    expect(job.outputs).toMatchObject([
      {
        downloadState: 'verified',
        localPath: path.join(folder, '1-asset_1.mp4'),
        sha256: sha('video bytes'),
        byteSize: 11,
        mimeType: 'video/mp4',
      },
    ]);
    expect(t.journal.jobs.searchJobs('prompt of job_a').map((j) => j.jobId)).toEqual(['job_a']);
    expect(t.journal.jobs.listUnfinished().jobsToDownload).toHaveLength(0);

    const second = await reindexLibrary(t.journal, { libraryDirs: [library, library] });
    expect(second).toMatchObject({ restored: 0, alreadyIndexed: 1, refused: 0 });
    expect(t.journal.jobs.listJobs().items).toHaveLength(1);
  });

  it('refuses sidecars whose files are missing, altered, outside the folder or not plain files', async () => {
    const t = withSimulatorProfile();
    const library = path.join(t.dir, 'library');
    writeFileSync(path.join(t.dir, 'secret.bin'), 'video bytes');
    jobFolder(library, 'job_altered', {}, 'video bytes');
    writeFileSync(path.join(library, '2026-05-01', 'job_altered', '1-asset_1.mp4'), 'video bytez');
    jobFolder(library, 'job_escape', {
      outputs: [
        {
          file: '../../../secret.bin',
          assetId: 'a',
          sha256: sha('video bytes'),
          byteSize: 11,
          mimeType: 'video/mp4',
        },
      ],
    });
    jobFolder(library, 'job_missing', {
      outputs: [{ file: 'gone.mp4', assetId: 'a', sha256: sha('x'), byteSize: 1, mimeType: 'video/mp4' }],
    });
    const linked = jobFolder(library, 'job_link', {
      outputs: [
        { file: 'link.mp4', assetId: 'a', sha256: sha('video bytes'), byteSize: 11, mimeType: 'video/mp4' },
      ],
    });
    symlinkSync(path.join(t.dir, 'secret.bin'), path.join(linked, 'link.mp4'));
    jobFolder(library, 'job_no_hash', {
      outputs: [{ file: '1-asset_1.mp4', assetId: 'a', byteSize: 11, mimeType: 'video/mp4' }],
    });
    mkdirSync(path.join(library, '2026-05-02', 'job_junk'), { recursive: true });
    writeFileSync(path.join(library, '2026-05-02', 'job_junk', 'framewright.json'), '{ not json');

    const result = await reindexLibrary(t.journal, { libraryDirs: [library] });
    const reasons = Object.fromEntries(
      result.entries.map((e) => [e.jobId ?? path.basename(path.dirname(e.sidecar)), e.reason]),
    );
    expect(result).toMatchObject({ restored: 0, refused: 6 });
    expect(reasons.job_altered).toMatch(/does not match its sha256/);
    expect(reasons.job_escape).toMatch(/not a file name in the job folder/);
    expect(reasons.job_missing).toMatch(/is missing/);
    expect(reasons.job_link).toMatch(/not a regular file/);
    expect(reasons.job_no_hash).toMatch(/not a Framewright sidecar \(outputs\.0\.sha256/);
    expect(reasons.job_junk).toMatch(/not readable JSON/);
    expect(t.journal.jobs.listJobs().items).toHaveLength(0);
  });

  it('refuses jobs of a profile the journal lacks unless told which profile takes them', async () => {
    const t = withSimulatorProfile();
    const library = path.join(t.dir, 'library');
    jobFolder(library, 'job_lost', { profileId: 'a-profile-from-the-lost-journal' });

    const refused = await reindexLibrary(t.journal, { libraryDirs: [library] });
    expect(refused.entries[0]!.reason).toMatch(
      /profile "a-profile-from-the-lost-journal" is not in this journal/,
    );
    expect(t.journal.jobs.listJobs().items).toHaveLength(0);

    t.journal.profiles.create({
      id: 'mine',
      name: 'Mine',
      kind: 'personal',
      baseUrl: 'https://api.example/v1',
    });
    const assigned = await reindexLibrary(t.journal, { libraryDirs: [library], assignToProfileId: 'mine' });
    expect(assigned.restored).toBe(1);
    expect(t.journal.jobs.getJobByJobId('mine', 'job_lost')?.outputs[0]?.downloadState).toBe('verified');
    await expect(
      reindexLibrary(t.journal, { libraryDirs: [library], assignToProfileId: 'nobody' }),
    ).rejects.toThrow(/no profile "nobody"/);
  });
});
