import { describe, expect, it } from 'vitest';
import {
  forgetFinishedRecoveryRefs,
  forgetRecoveryRefsOnFinish,
} from '../../../src/main/core/platform/recovery-ref-cleanup.js';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import { RecoveryRefs } from '../../../src/main/core/secrets/recovery-refs.js';
import { acceptedJobRow, journalWithProfile } from '../../support/journal-rows.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';

const SHA = 'a'.repeat(64);
const verify = (journal: Journal, outputId: number) =>
  journal.outputs.markVerified(outputId, {
    localPath: '/lib/x.mp4',
    sha256: SHA,
    byteSize: 3,
    mimeType: 'video/mp4',
  });

async function refsFor(...jobIds: string[]) {
  const refs = new RecoveryRefs(new MemorySecretStore());
  for (const id of jobIds) await refs.remember(id, `jrr_ref_of_${id}`);
  return refs;
}

describe('recovery references of finished jobs', () => {
  it('are forgotten once the job’s outputs are stored, not before', async () => {
    const journal = journalWithProfile('https://runtime.example/v1');
    const job = acceptedJobRow(journal, {
      status: 'succeeded',
      outputs: [{ assetId: 'r1' }, { assetId: 'r2' }],
    });
    const refs = await refsFor(job.jobId);
    const onChange = forgetRecoveryRefsOnFinish(refs, 'p', (error) => {
      throw error;
    });
    const settle = () => new Promise((resolve) => setImmediate(resolve));

    onChange({ type: 'job', job: journal.jobs.getJob(job.id)! });
    verify(journal, job.outputs[0]!.id);
    onChange({ type: 'job', job: journal.jobs.getJob(job.id)! });
    await settle();
    expect(await refs.recall(job.jobId)).toBe(`jrr_ref_of_${job.jobId}`); // one output still to download

    verify(journal, job.outputs[1]!.id);
    onChange({ type: 'job', job: journal.jobs.getJob(job.id)! });
    await settle();
    expect(await refs.recall(job.jobId)).toBeUndefined();
  });

  it('are forgotten for a failed or canceled job with nothing to download, and only for that profile', async () => {
    const journal = journalWithProfile('https://runtime.example/v1');
    const running = acceptedJobRow(journal, { status: 'running' });
    const refs = await refsFor(running.jobId);
    const onChange = forgetRecoveryRefsOnFinish(refs, 'p', () => undefined);
    onChange({ type: 'job', job: running });
    await new Promise((resolve) => setImmediate(resolve));
    expect(await refs.recall(running.jobId)).toBeDefined();
    for (const status of ['failed', 'canceled'] as const) {
      onChange({ type: 'job', job: { ...running, status } });
      forgetRecoveryRefsOnFinish(
        refs,
        'another-profile',
        () => undefined,
      )({
        type: 'job',
        job: { ...running, status },
      });
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(await refs.recall(running.jobId)).toBeUndefined();
  });

  it('left behind (a stop before the forget) are forgotten at resume; unfinished jobs keep theirs', async () => {
    const journal = journalWithProfile('https://runtime.example/v1');
    const done = acceptedJobRow(journal, { status: 'succeeded', outputs: [{ assetId: 'r1' }] });
    verify(journal, done.outputs[0]!.id);
    const toDownload = acceptedJobRow(journal, { status: 'succeeded', outputs: [{ assetId: 'r2' }] });
    const running = acceptedJobRow(journal, { status: 'running' });
    const refs = await refsFor(done.jobId, toDownload.jobId, running.jobId);
    expect(await forgetFinishedRecoveryRefs(journal, refs, 'p')).toBe(1);
    expect(await refs.recall(done.jobId)).toBeUndefined();
    expect(await refs.recall(toDownload.jobId)).toBeDefined();
    expect(await refs.recall(running.jobId)).toBeDefined();
    // another profile's jobs are not this workspace's runtime jobs
    expect(await forgetFinishedRecoveryRefs(journal, await refsFor(done.jobId), 'other')).toBe(0);
  });
});
