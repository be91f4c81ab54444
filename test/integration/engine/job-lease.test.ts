/**
 * The engine works a job only under its lease: a job another live process holds is left to it,
 * a dead holder's job is taken over, and a run whose lease was taken (this process stalled past
 * it) stops instead of working the job alongside the new holder.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { WORKED_ELSEWHERE_MESSAGE } from '../../../src/main/core/jobs/job-engine.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import {
  FAST_ENGINE,
  h3VideoSubmission,
  openTestCore,
  startTestSimulator,
} from '../../support/engine-harness.js';

let sim: RunningSimulator;
beforeAll(async () => {
  // slow pacing: a job stays running for a while
  sim = await startTestSimulator({ timeScale: 1 });
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
    const core = await openTestCore(sim, {
      engine: { ...FAST_ENGINE, lease: { isOwnerAlive: () => otherAlive } },
    });
    try {
      const accepted = await submit(core, 'lease-held', { noWait: true });
      core.journal.jobs.acquireLease(accepted.intent.id, OTHER, 60_000, () => true);
      const left = await core.engine.continueIntent(accepted.intent, { waitSeconds: 1 });
      expect(left).toMatchObject({
        state: 'pending',
        workedElsewhere: true,
        reason: WORKED_ELSEWHERE_MESSAGE,
      });
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
    const core = await openTestCore(sim, { engine: { ...FAST_ENGINE, lease: { ttlMs: 300 } } });
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
});
