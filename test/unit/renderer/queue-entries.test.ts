import { describe, expect, it } from 'vitest';
import { queueEntries } from '../../../src/renderer/src/screens/queue/queue-entries.js';
import type { JobView } from '../../../src/shared/bridge/contract.js';

function job(rowId: number, prompt: string, variation: JobView['variation'] = null): JobView {
  return { rowId, prompt, variation } as unknown as JobView;
}

describe('the Queue groups the jobs of a Generate ×N', () => {
  it('puts a group under one line, by index, where its newest job is; other jobs stay on their own', () => {
    const g = (index: number) => ({ groupId: 'g', index, count: 3 });
    const jobs = {
      9: job(9, 'single, newest'),
      8: job(8, 'boat', g(1)),
      7: job(7, 'interleaved'),
      6: job(6, 'boat', g(2)),
      5: job(5, 'boat', g(0)),
      4: job(4, 'older', { groupId: 'h', index: 0, count: 2 }),
    };
    const entries = queueEntries([9, 8, 7, 6, 5, 4], jobs);
    expect(
      entries.map((e) =>
        e.kind === 'job' ? e.job.rowId : `${e.groupId}:${e.jobs.map((j) => j.rowId).join(',')}`,
      ),
    ).toEqual([9, 'g:5,8,6', 7, 'h:4']);
    const group = entries[1]!;
    expect(group).toMatchObject({ kind: 'group', count: 3, prompt: 'boat' });
  });

  it('skips rows not loaded and keeps a queue without variations as it is', () => {
    const jobs = { 3: job(3, 'a'), 1: job(1, 'b') };
    expect(queueEntries([3, 2, 1], jobs).map((e) => e.kind === 'job' && e.job.rowId)).toEqual([3, 1]);
  });
});
