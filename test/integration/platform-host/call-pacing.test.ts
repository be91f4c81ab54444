import { afterEach, describe, expect, it } from 'vitest';
import { Page, startRig, type PlatformRig } from './harness.js';

let rig: PlatformRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('one person’s pace on the platform host', () => {
  it('refuses a person’s calls past their burst with a retryable answer, and never another person’s', async () => {
    // one call's worth every 10 s: whatever the machine's speed, the sixth call's turn is far away
    // (that a call within the longest wait waits its turn instead is call-pacing.test.ts's, on a clock)
    rig = await startRig({
      callPacing: { callsPerSecond: 0.1, burstCalls: 5, bytesPerCall: 64 * 1024, maxWaitMs: 1000 },
    });
    const flooder = new Page(rig);
    const other = new Page(rig);
    await flooder.open(await rig.launchCode('member'));
    await other.open(await rig.launchCode('personal'));

    for (let i = 0; i < 5; i += 1) expect((await flooder.invoke('notes.list')).status).toBe(200);
    const refused = await flooder.invoke('notes.add', { text: 'x'.repeat(100 * 1024) });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('host.calls_too_fast');
    expect(JSON.parse(flooder.answers.at(-1)!)).toEqual(expect.arrayContaining([['retry-after', '1']]));
    // the other person is not paced by the flooder: their own burst is whole
    for (let i = 0; i < 5; i += 1) expect((await other.invoke('notes.list')).status).toBe(200);
  });
});
