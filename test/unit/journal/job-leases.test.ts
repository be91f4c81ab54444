import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import type { LeaseOwner } from '../../../src/main/core/journal/jobs-repository.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const A: LeaseOwner = { id: 'app:1:a', pid: 101, host: 'here' };
const B: LeaseOwner = { id: 'cli:2:b', pid: 202, host: 'here' };
const alive = () => true;
const TTL = 30_000;

function intent(key: string): number {
  t.journal.profiles.create({ id: `p-${key}`, name: `P ${key}`, kind: 'simulator' });
  return t.journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId: `p-${key}`,
    model: 'h3',
    serviceKind: 'video_generation',
    body: { prompt: key },
  }).id;
}

describe('job leases: one owner works an intent at a time', () => {
  it('gives the lease to one owner; the other is told who holds it until it is released', () => {
    t = tempJournal();
    const id = intent('k1');
    expect(t.journal.jobs.acquireLease(id, A, TTL, alive)).toEqual({ acquired: true });
    expect(t.journal.jobs.acquireLease(id, B, TTL, alive)).toMatchObject({
      acquired: false,
      holder: { id: A.id, pid: 101, expiresAt: t.clock.now + TTL },
    });
    // the holder asking again renews it
    t.clock.now += 1000;
    expect(t.journal.jobs.acquireLease(id, A, TTL, alive)).toEqual({ acquired: true });
    expect(t.journal.jobs.getLease(id)?.expiresAt).toBe(t.clock.now + TTL);
    // only the holder can release it
    t.journal.jobs.releaseLease(id, B);
    expect(t.journal.jobs.getLease(id)?.id).toBe(A.id);
    t.journal.jobs.releaseLease(id, A);
    expect(t.journal.jobs.getLease(id)).toBeUndefined();
    expect(t.journal.jobs.acquireLease(id, B, TTL, alive)).toEqual({ acquired: true });
  });

  it('frees the lease of an owner that died or stopped renewing; the old owner then cannot renew', () => {
    t = tempJournal();
    const dead = intent('dead');
    const stalled = intent('stalled');
    t.journal.jobs.acquireLease(dead, A, TTL, alive);
    t.journal.jobs.acquireLease(stalled, A, TTL, alive);
    const aIsDead = (owner: LeaseOwner) => owner.id !== A.id;
    expect(t.journal.jobs.acquireLease(dead, B, TTL, aIsDead)).toEqual({ acquired: true });
    // A runs but did not renew: past the expiry the lease is free
    t.clock.now += TTL - 1;
    expect(t.journal.jobs.acquireLease(stalled, B, TTL, alive).acquired).toBe(false);
    t.clock.now += 1;
    expect(t.journal.jobs.acquireLease(stalled, B, TTL, alive)).toEqual({ acquired: true });
    expect(t.journal.jobs.renewLease(stalled, A, TTL)).toBe(false);
    expect(t.journal.jobs.renewLease(stalled, B, TTL)).toBe(true);
  });

  it('is taken by exactly one of two connections to the same journal file', () => {
    t = tempJournal();
    const id = intent('shared');
    const other = openJournal({ path: t.file, now: () => t.clock.now });
    try {
      const first = other.jobs.acquireLease(id, B, TTL, alive);
      const second = t.journal.jobs.acquireLease(id, A, TTL, alive);
      expect([first.acquired, second.acquired]).toEqual([true, false]);
    } finally {
      other.close();
    }
  });

  it('names the partial download files of live leases only', () => {
    t = tempJournal();
    const files: Record<string, string> = {};
    for (const [key, owner] of [
      ['live', A],
      ['dead', B],
      ['expired', A],
      ['unleased', undefined],
    ] as const) {
      const id = intent(key);
      const job = t.journal.jobs.markAccepted(key, {
        jobId: `job-${key}`,
        requestId: `req-${key}`,
        status: 'succeeded',
        outputs: [{ assetId: `asset-${key}`, mimeType: 'video/mp4' }],
      });
      files[key] = `/library/.incoming/${key}.part`;
      t.journal.outputs.markDownloading(t.journal.jobs.getJob(job.id)!.outputs[0]!.id, files[key]!);
      if (owner) t.journal.jobs.acquireLease(id, owner, key === 'expired' ? 10 : TTL, alive);
    }
    t.clock.now += 10;
    const live = t.journal.jobs.liveDownloadTempPaths((owner) => owner.id !== B.id);
    expect([...live]).toEqual([files.live]);
  });
});
