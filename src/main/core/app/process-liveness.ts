import os from 'node:os';

/** Whether a process with this id runs on this machine (signal 0 checks without signalling). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a process named by pid and host may still run: on this machine it is checked; a process
 * on another host (a data folder on a network share) is assumed alive until its lease expires.
 */
export function isProcessOnHostAlive(owner: { pid: number; host: string }): boolean {
  return owner.host !== os.hostname() || isProcessAlive(owner.pid);
}
