import { describe, expect, it } from 'vitest';
import { JobWakeups } from '../../../src/main/core/platform/job-events/job-wakeups.js';

describe('JobWakeups (job events → the engine’s poll)', () => {
  it('an event for a job no poll waits for says so, and the caller reads it another way', async () => {
    const wakeups = new JobWakeups();
    expect(await wakeups.wake('job-1')).toBe(false);
  });

  it('wakes the poll waiting for the job and counts the event processed once that poll recorded its read', async () => {
    const wakeups = new JobWakeups();
    const stop = new AbortController();
    let woken = false;
    void wakeups.until('job-1', stop.signal).then(() => (woken = true));
    let processed = false;
    const event = wakeups.wake('job-1').then((handled) => (processed = handled));
    await new Promise((r) => setTimeout(r, 10));
    expect(woken).toBe(true);
    expect(processed).toBe(false); // not before the read is recorded
    wakeups.read('job-2'); // another job's read does not count
    await new Promise((r) => setTimeout(r, 10));
    expect(processed).toBe(false);
    wakeups.read('job-1');
    await event;
    expect(processed).toBe(true);
  });

  it('a woken poll that never reads again (it stopped) does not hold the event forever', async () => {
    const wakeups = new JobWakeups();
    void wakeups.until('job-1', new AbortController().signal);
    expect(await wakeups.wake('job-1', 20)).toBe(true);
  });

  it('a wait ended by its signal leaves nothing behind', async () => {
    const wakeups = new JobWakeups();
    const stop = new AbortController();
    const waiting = wakeups.until('job-1', stop.signal);
    stop.abort();
    await waiting;
    expect(await wakeups.wake('job-1')).toBe(false);
  });
});
