import { readFileSync } from 'node:fs';
import os from 'node:os';

/**
 * Whether a process with this id runs on this machine (signal 0 checks without signalling). A
 * process that has exited but whose parent has not reaped it yet (a zombie) still answers signal 0;
 * on Linux its state in `/proc/<pid>/stat` says so, and it counts as dead.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it runs, under another user
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

/** Linux only: `Z` (zombie) or `X` (dead) in the state field of `/proc/<pid>/stat`. */
function isZombie(pid: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state …": comm may itself hold spaces and parentheses; the state follows the last ')'
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false; // gone between the two checks, or no /proc: signal 0's answer stands
  }
}

/**
 * Whether a process named by pid and host may still run: on this machine it is checked; a process
 * on another host (a data folder on a network share) is assumed alive until its lease expires.
 */
export function isProcessOnHostAlive(owner: { pid: number; host: string }): boolean {
  return owner.host !== os.hostname() || isProcessAlive(owner.pid);
}
