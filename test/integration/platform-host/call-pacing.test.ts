import { afterEach, describe, expect, it } from 'vitest';
import { Page, startRig, type PlatformRig } from './harness.js';

let rig: PlatformRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('one person’s pace on the platform host', () => {
  it('paces a person’s calls past their burst, refuses them only past the longest wait, and never another person', async () => {
    rig = await startRig({
      callPacing: { callsPerSecond: 5, burstCalls: 5, bytesPerCall: 64 * 1024, maxWaitMs: 500 },
    });
    const flooder = new Page(rig);
    const other = new Page(rig);
    await flooder.open(await rig.launchCode('member'));
    await other.open(await rig.launchCode('personal'));

    // a burst of five goes through at once; the sixth waits its turn (200 ms), then is answered
    for (let i = 0; i < 5; i += 1) expect((await flooder.invoke('notes.list')).status).toBe(200);
    const started = performance.now();
    expect((await flooder.invoke('notes.list')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);

    // a large body counts as several calls: its turn is more than half a second away, so it is refused
    const big = await flooder.invoke('notes.add', { text: 'x'.repeat(400 * 1024) });
    expect(big.status).toBe(429);
    expect(big.body.error.code).toBe('host.calls_too_fast');
    expect(JSON.parse(flooder.answers.at(-1)!)).toEqual(expect.arrayContaining([['retry-after', '1']]));

    // the other person is not paced by the flooder
    const before = performance.now();
    for (let i = 0; i < 5; i += 1) expect((await other.invoke('notes.list')).status).toBe(200);
    expect(performance.now() - before).toBeLessThan(1000);
  });
});
