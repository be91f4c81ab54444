import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isProcessAlive } from '../../../src/main/core/process/process-liveness.js';

const state = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
};

describe.runIf(process.platform === 'linux')('isProcessAlive', () => {
  it('a running process is alive; once killed it is dead, even while its parent has not reaped it (a zombie)', async () => {
    // the shell starts `sleep`, prints its pid, then becomes a `sleep` that never reaps it
    const parent = spawn('sh', ['-c', 'sleep 60 & echo $!; exec sleep 60'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = Number(
        await new Promise<string>((resolve) => parent.stdout.once('data', (d: Buffer) => resolve(String(d)))),
      );
      expect(isProcessAlive(pid)).toBe(true);
      process.kill(pid, 'SIGKILL');
      for (let i = 0; i < 200 && state(pid) !== 'Z'; i += 1) await new Promise((r) => setTimeout(r, 10));
      expect(state(pid)).toBe('Z');
      // signal 0 still answers for a zombie …
      expect(() => process.kill(pid, 0)).not.toThrow();
      // … but it runs no more
      expect(isProcessAlive(pid)).toBe(false);
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
