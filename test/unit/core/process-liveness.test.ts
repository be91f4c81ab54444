import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../src/main/core/process/process-liveness.js';

/** A process's `/proc` stat fields after its name: [state, parent pid, …]. */
const statOf = (pid: number | string) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
};
const state = (pid: number) => statOf(pid)[0];
const cmdline = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
const childrenOf = (parent: number) =>
  readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return Number(statOf(pid)[1]) === parent;
      } catch {
        return false; // it ended while we looked
      }
    })
    .map(Number);
const until = async (done: () => boolean) => {
  for (let i = 0; i < 500 && !done(); i += 1) await new Promise((r) => setTimeout(r, 10));
};

describe.runIf(process.platform === 'linux')('isProcessAlive', () => {
  it('a running process is alive; once killed it is dead, even while its parent has not reaped it (a zombie)', async () => {
    // the shell starts `sleep 60`, then becomes a `sleep 61` that never reaps it; the child is
    // killed only once the shell is gone (before that, the shell itself might reap it)
    const parent = spawn('sh', ['-c', 'sleep 60 & exec sleep 61'], { stdio: 'ignore' });
    try {
      const parentPid = parent.pid!;
      await until(() => cmdline(parentPid) === 'sleep 61' && childrenOf(parentPid).length === 1);
      expect(cmdline(parentPid)).toBe('sleep 61');
      const [pid] = childrenOf(parentPid);
      expect(pid).toBeGreaterThan(0);
      expect(isProcessAlive(pid!)).toBe(true);
      process.kill(pid!, 'SIGKILL');
      await until(() => state(pid!) === 'Z');
      expect(state(pid!)).toBe('Z');
      // signal 0 still answers for a zombie …
      expect(() => process.kill(pid!, 0)).not.toThrow();
      // … but it runs no more
      expect(isProcessAlive(pid!)).toBe(false);
    } finally {
      parent.kill('SIGKILL');
    }
  });

  it('an id that no process has is dead, and nonsense ids are refused', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(0)).toBe(false);
    expect(isProcessAlive(-5)).toBe(false);
    expect(isProcessAlive(2 ** 22 + 12345)).toBe(false);
  });
});
