import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { stopOnSignal } from '../../../src/cli/actions/serve-platform.js';
import type { RunningPlatformHost } from '../../../src/main/host/platform-host.js';

/** A host and backend that record what was done to them, in order. */
function world(drain: (graceMs: number) => Promise<{ finished: boolean; cutShort: number }>) {
  const done: string[] = [];
  const host: RunningPlatformHost = {
    origin: 'http://127.0.0.1:1',
    port: 1,
    drain: (graceMs) => (done.push(`drain ${graceMs}`), drain(graceMs)),
    close: async () => void done.push('host closed'),
  };
  const backend = {
    limits: { drainSeconds: 25 } as never,
    close: async () => void done.push('backend closed'),
  };
  const signals = new EventEmitter();
  const log: string[] = [];
  const stopped = stopOnSignal(host, backend, (line) => log.push(line), signals as never);
  return { done, log, signals, stopped };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('serve --platform stopping on a signal', () => {
  it('drains on SIGTERM for the configured grace, then closes the host and then the backend', async () => {
    const w = world(async () => ({ finished: true, cutShort: 0 }));
    w.signals.emit('SIGTERM', 'SIGTERM');
    await w.stopped;
    expect(w.done).toEqual(['drain 25000', 'host closed', 'backend closed']);
    expect(w.log).toContain('drained: nothing in flight');
  });

  it('stops at once on a second SIGTERM while draining', async () => {
    const w = world(() => new Promise(() => undefined));
    w.signals.emit('SIGTERM', 'SIGTERM');
    await tick();
    expect(w.done).toEqual(['drain 25000']);
    w.signals.emit('SIGTERM', 'SIGTERM');
    await w.stopped;
    expect(w.done).toEqual(['drain 25000', 'host closed', 'backend closed']);
    expect(w.log).toContain('SIGTERM again: stopping at once');
  });

  it('says how many requests the end of the grace period cut short', async () => {
    const w = world(async () => ({ finished: false, cutShort: 3 }));
    w.signals.emit('SIGTERM', 'SIGTERM');
    await w.stopped;
    expect(w.log.join('\n')).toContain('3 request(s) still in flight');
    expect(w.done.at(-1)).toBe('backend closed');
  });

  it('stops without a drain on SIGINT (a person at a terminal)', async () => {
    const w = world(async () => ({ finished: true, cutShort: 0 }));
    w.signals.emit('SIGINT', 'SIGINT');
    await w.stopped;
    expect(w.done).toEqual(['host closed', 'backend closed']);
  });
});
