import { describe, expect, it } from 'vitest';
import {
  MediaWorkAborted,
  MediaWorkQueue,
  asMediaOwner,
  checkMediaRoom,
  mediaWorkLimitsFromEnv,
  mediaWorkQueue,
  runMediaWork,
} from '../../../src/main/core/media-tools/media-work-queue.js';

/** A job the test ends by hand: how many of these run at once is what the queue bounds. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => (open = resolve));
  return { open, done };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('media-work queue (issue 37: one person cannot start unbounded ffmpeg runs)', () => {
  it('runs at most `workers` jobs at once, in the order they came', async () => {
    const queue = new MediaWorkQueue({ workers: 2, perPersonRunning: 2, perPersonWaiting: 50 });
    const gates = Array.from({ length: 6 }, gate);
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      queue.run(async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    await settle();
    expect(started).toEqual([0, 1]);
    expect(queue.running).toBe(2);
    expect(queue.queued).toBe(4);
    gates[1]!.open();
    await settle();
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(queue.running).toBe(0);
  });

  it("one person's flood leaves a slot to another person, whose job starts at once", async () => {
    const queue = new MediaWorkQueue({ workers: 2, perPersonRunning: 1, perPersonWaiting: 50 });
    const flood = gate();
    const started: string[] = [];
    const floods = Array.from({ length: 10 }, (_, i) =>
      queue.run(
        async () => {
          started.push(`a${i}`);
          await flood.done;
        },
        { owner: 'a' },
      ),
    );
    await settle();
    expect(started).toEqual(['a0']);
    await queue.run(async () => void started.push('b0'), { owner: 'b' });
    expect(started).toEqual(['a0', 'b0']);
    flood.open();
    await Promise.all(floods);
    expect(started).toHaveLength(11);
  });

  it('tells a waiting job how many are ahead of it, as that number falls', async () => {
    const queue = new MediaWorkQueue({ workers: 1, perPersonRunning: 1, perPersonWaiting: 50 });
    const gates = Array.from({ length: 3 }, gate);
    const heard: number[] = [];
    const runs = gates.map((g) => queue.run(() => g.done));
    const last = queue.run(async () => 'done', { onWaiting: (ahead) => heard.push(ahead) });
    await settle();
    expect(heard).toEqual([2]);
    gates[0]!.open();
    await settle();
    gates[1]!.open();
    await settle();
    expect(heard).toEqual([2, 1, 0]);
    gates[2]!.open();
    expect(await last).toBe('done');
    await Promise.all(runs);
  });

  it("refuses a person's job past their waiting bound with a clear error, and frees a stopped waiter's place", async () => {
    const queue = new MediaWorkQueue({ workers: 1, perPersonRunning: 1, perPersonWaiting: 2 });
    const hold = gate();
    const running = queue.run(() => hold.done, { owner: 'a' });
    const stop = new AbortController();
    const waiting = [
      queue.run(async () => 'w1', { owner: 'a', signal: stop.signal }),
      queue.run(async () => 'w2', { owner: 'a' }),
    ];
    await expect(queue.run(async () => 'w3', { owner: 'a' })).rejects.toMatchObject({
      code: 'media.queue_full',
    });
    // another person is not refused by a's bound
    const other = queue.run(async () => 'b', { owner: 'b' });
    stop.abort();
    await expect(waiting[0]).rejects.toBeInstanceOf(MediaWorkAborted);
    expect(queue.queued).toBe(2);
    hold.open();
    await running;
    expect(await waiting[1]).toBe('w2');
    expect(await other).toBe('b');
  });

  it('queues work started inside asMediaOwner as that person’s, even after the call returned', async () => {
    const queue = mediaWorkQueue();
    const { workers } = queue.limits;
    const holds = Array.from({ length: workers + 1 }, gate);
    const started: number[] = [];
    // the call answers at once; its renders go on in the background, as person "p"
    const background: Promise<void>[] = [];
    asMediaOwner('p', () => {
      for (const [i, g] of holds.entries())
        background.push(
          runMediaWork(async () => {
            started.push(i);
            await g.done;
          }),
        );
    });
    await settle();
    // one person holds at most perPersonRunning of the workers (work of no person would take them all)
    expect(started).toHaveLength(queue.limits.perPersonRunning);
    for (const g of holds) g.open();
    await Promise.all(background);
    expect(started).toHaveLength(workers + 1);
  });

  it('takes the workers from FRAMEWRIGHT_MEDIA_WORKERS, else the cores (at most 4); one person runs workers − 1', () => {
    expect(mediaWorkLimitsFromEnv({}, 2)).toEqual({ workers: 2, perPersonRunning: 1, perPersonWaiting: 20 });
    expect(mediaWorkLimitsFromEnv({}, 32).workers).toBe(4);
    expect(mediaWorkLimitsFromEnv({}, 1)).toMatchObject({ workers: 1, perPersonRunning: 1 });
    expect(
      mediaWorkLimitsFromEnv({ FRAMEWRIGHT_MEDIA_WORKERS: '3', FRAMEWRIGHT_MEDIA_QUEUE_PER_PERSON: '5' }, 2),
    ).toEqual({ workers: 3, perPersonRunning: 2, perPersonWaiting: 5 });
    expect(mediaWorkLimitsFromEnv({ FRAMEWRIGHT_MEDIA_WORKERS: 'lots' }, 2).workers).toBe(2);
  });
});

describe('checkMediaRoom (a render refused as the call’s answer, before it is recorded)', () => {
  it("refuses at once when the person's waiting bound is reached, and not for another person", async () => {
    const queue = mediaWorkQueue();
    const { workers, perPersonWaiting } = queue.limits;
    const hold = gate();
    const running: Promise<unknown>[] = [];
    // fill every worker with work of no person, then person "f" fills their waiting bound
    for (let i = 0; i < workers; i += 1) running.push(runMediaWork(() => hold.done));
    asMediaOwner('f', () => {
      for (let i = 0; i < perPersonWaiting; i += 1)
        running.push(runMediaWork(() => hold.done).catch((error: unknown) => error));
    });
    await settle();
    expect(() => asMediaOwner('f', () => checkMediaRoom())).toThrow(
      expect.objectContaining({ code: 'media.queue_full' }),
    );
    expect(() => asMediaOwner('g', () => checkMediaRoom())).not.toThrow();
    hold.open();
    await Promise.all(running);
    expect(() => asMediaOwner('f', () => checkMediaRoom())).not.toThrow();
  });
});
