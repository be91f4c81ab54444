/**
 * The engine works a job only under its lease: a job another live process holds is left to it
 * (this run waits for that process's outcome within its own wait limit, reading the journal), a
 * dead holder's job is taken over, a job another engine finished is reported as it finished, and a run whose lease was taken (this process stalled past
 * it) stops instead of working the job alongside the new holder.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PRESENCE_DIR,
  presenceFile,
  presenceOf,
  ProcessPresence,
} from '../../../src/main/core/process/process-presence.js';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { h3VideoSubmission } from '../../support/engine-harness.js';
import { FAST_ENGINE, openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let sim: RunningSimulator;
beforeAll(async () => {
  // slow pacing: a job stays running for a while
  sim = await openSimulator({ timeScale: 1 });
});
afterAll(async () => {
  await sim.close();
});

const OTHER = { id: 'other-process', pid: 4242, host: 'elsewhere' };

function submit(core: CoreParts, key: string, wait: { noWait?: boolean; waitSeconds?: number }) {
  return core.engine.submit(h3VideoSubmission(key, `Leases (${key})`, 3), wait);
}

describe('job leases in the engine', () => {
  it('leaves a job a live process holds, and takes over one whose holder died', async () => {
    let otherAlive = true;
    const core = await openDesktopCore(sim, {
      engine: { ...FAST_ENGINE, lease: { isOwnerAlive: () => otherAlive } },
    });
    try {
      const accepted = await submit(core, 'lease-held', { noWait: true });
      core.journal.jobs.acquireLease(accepted.intent.id, OTHER, 60_000, () => true);
      const waitedFrom = Date.now();
      const left = await core.engine.continueIntent(accepted.intent, { waitSeconds: 1 });
      // it waited for the other process's outcome up to its own wait limit, then says who holds it
      expect(Date.now() - waitedFrom).toBeGreaterThanOrEqual(700);
      expect(left).toMatchObject({
        state: 'pending',
        workedElsewhere: true,
        heldBy: { pid: 4242, host: 'elsewhere' },
      });
      if (left.state === 'pending') expect(left.reason).toMatch(/pid 4242 on elsewhere/);
      // nothing was polled by this process
      expect(core.journal.jobs.getJobForIntent(accepted.intent.id)!.pollCount).toBe(0);

      otherAlive = false;
      const taken = await core.engine.continueIntent(accepted.intent, { waitSeconds: 4 });
      expect(taken.state).toBe('pending');
      expect('workedElsewhere' in taken).toBe(false);
      expect(core.journal.jobs.getJobForIntent(accepted.intent.id)!.pollCount).toBeGreaterThan(0);
      // released at the end of the run
      expect(core.journal.jobs.getLease(accepted.intent.id)).toBeUndefined();
    } finally {
      await core.close();
    }
  });

  it('stops a run whose lease another process took over', async () => {
    const core = await openDesktopCore(sim, { engine: { ...FAST_ENGINE, lease: { ttlMs: 300 } } });
    try {
      const accepted = await submit(core, 'lease-lost', { noWait: true });
      const started = Date.now();
      const run = core.engine.continueIntent(accepted.intent, { waitSeconds: 60 });
      await new Promise((r) => setTimeout(r, 150));
      // this process stalled past its lease and another took it over
      core.journal.database
        .prepare('UPDATE job_leases SET owner = ?, owner_pid = ?, owner_host = ? WHERE intent_id = ?')
        .run(OTHER.id, OTHER.pid, OTHER.host, accepted.intent.id);
      const result = await run;
      expect(result.state).toBe('pending');
      if (result.state === 'pending') expect(result.reason).toMatch(/lost its lease/);
      expect(Date.now() - started).toBeLessThan(5_000);
      // the new holder's lease is left alone
      expect(core.journal.jobs.getLease(accepted.intent.id)?.id).toBe(OTHER.id);
    } finally {
      await core.close();
    }
  });

  it('reports the final state of a job another engine on the same data folder finished while it waited', async () => {
    const dataDir = tempFolder('fw-lease-two-engines-');
    const worker = await openDesktopCore(sim, { dataDir });
    const waiter = await openDesktopCore(sim, { dataDir });
    try {
      const accepted = await submit(worker, 'lease-finished-elsewhere', { noWait: true });
      const working = worker.engine.continueIntent(accepted.intent, { waitSeconds: 60 });
      // the worker holds the lease (its presence lock vouches for it: same host, alive)
      for (let i = 0; i < 200 && !worker.journal.jobs.getLease(accepted.intent.id); i += 1)
        await new Promise((r) => setTimeout(r, 10));
      expect(worker.journal.jobs.getLease(accepted.intent.id)?.id).toBe(worker.engine.leaseOwner.id);
      const waited = await waiter.engine.continueIntent(accepted.intent, { waitSeconds: 60 });
      const worked = await working;
      expect(worked.state).toBe('succeeded');
      // the waiter's answer is the job as the worker finished it: succeeded, its file verified
      expect(waited.state).toBe('succeeded');
      expect('workedElsewhere' in waited).toBe(false);
      if (waited.state === 'succeeded' && worked.state === 'succeeded') {
        expect(waited.job.outputs.map((o) => [o.downloadState, o.localPath])).toEqual(
          worked.job.outputs.map((o) => [o.downloadState, o.localPath]),
        );
      }
      expect(waiter.journal.jobs.getLease(accepted.intent.id)).toBeUndefined();
    } finally {
      await waiter.close();
      await worker.close();
    }
  });

  it('takes over at once a lease whose owner left a presence file nobody holds, whatever its pid says', async () => {
    const dataDir = tempFolder('fw-lease-presence-');
    const core = await openDesktopCore(sim, { dataDir });
    try {
      const accepted = await submit(core, 'lease-dead-presence', { noWait: true });
      const dir = path.join(dataDir, PRESENCE_DIR);
      // a process of this host that died: its presence file is there and nobody holds its lock. Its
      // pid is this test's own, alive: a pid check would call it alive; the presence says gone.
      const dead = { id: 'dead-owner', pid: process.pid, host: os.hostname() };
      mkdirSync(dir, { recursive: true });
      writeFileSync(presenceFile(dir, dead.id), '');
      core.journal.jobs.acquireLease(accepted.intent.id, dead, 60_000, () => true);
      const started = Date.now();
      const taken = await core.engine.continueIntent(accepted.intent, { waitSeconds: 4 });
      expect('workedElsewhere' in taken).toBe(false);
      expect(core.journal.jobs.getJobForIntent(accepted.intent.id)!.pollCount).toBeGreaterThan(0);
      expect(Date.now() - started).toBeLessThan(5_000);
      // the dead owner's file is cleared away; a live presence is told apart
      expect(existsSync(presenceFile(dir, dead.id))).toBe(false);
      const live = ProcessPresence.claim(dir, 'live-owner');
      try {
        expect(presenceOf(dir, 'live-owner')).toBe('alive');
      } finally {
        live.release();
      }
      expect(presenceOf(dir, 'live-owner')).toBe('unknown');
    } finally {
      await core.close();
    }
  });
});
