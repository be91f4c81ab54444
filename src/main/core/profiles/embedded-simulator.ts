import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { link, open, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { isProcessOnHostAlive } from '../process/process-liveness.js';
import { AppError } from '../errors.js';

/** A running local simulator as the core sees it (src/simulator implements it). */
export interface RunningSimulator {
  /** Loopback base URL including /v1. */
  baseUrl: string;
  /** The fixed local test token; a simulator credential, not a personal key. */
  token: string;
  close(): Promise<void>;
  setScenario(name: string | null): void;
}

export type SimulatorLauncher = () => Promise<RunningSimulator>;

/**
 * What `<dataDir>/simulator.lock` holds: the process that runs the data folder's simulator and,
 * once it listens, where. Other processes on the folder use that simulator instead of starting a
 * second one over the same state.
 */
export interface SimulatorLock {
  pid: number;
  host: string;
  baseUrl?: string;
  token?: string;
}

export interface EmbeddedSimulatorOptions {
  /** One simulator per data folder: this lock file names it (none: every process starts its own). */
  lockFile?: string;
  /** How long to wait for another process's simulator to start listening (default 20 s). */
  waitForOtherMs?: number;
}

/** Whether a simulator answers at all (any HTTP answer); false when nothing listens there. */
async function answers(baseUrl: string, token: string): Promise<boolean> {
  try {
    const response = await fetch(`${baseUrl}/models`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(3000),
    });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}

function parseLock(text: string): SimulatorLock | undefined {
  try {
    const lock = JSON.parse(text) as Partial<SimulatorLock>;
    if (typeof lock.pid !== 'number' || typeof lock.host !== 'string') return undefined;
    return lock as SimulatorLock;
  } catch {
    // being written (created, not yet filled)
    return undefined;
  }
}

/**
 * Starts the embedded simulator once, on first need, and shares it. The simulator profile is the
 * default when no personal key is configured, so it must cost nothing until used.
 *
 * With a lock file, one simulator serves a data folder: the first process to create the lock
 * starts it and records its pid and address; a later process (the CLI beside the app) uses that
 * one. A lock whose process is dead, or whose address no longer answers, is stale and taken over.
 */
export class EmbeddedSimulator {
  private running: Promise<RunningSimulator> | undefined;
  /** Set while this process uses another process's simulator. */
  private borrowed: SimulatorLock | undefined;
  private readonly lockFile: string | undefined;
  private readonly waitForOtherMs: number;

  constructor(
    private readonly launch: SimulatorLauncher,
    options: EmbeddedSimulatorOptions = {},
  ) {
    this.lockFile = options.lockFile;
    this.waitForOtherMs = options.waitForOtherMs ?? 20_000;
  }

  get(): Promise<RunningSimulator> {
    // the process whose simulator this one used has quit (or another took over): find it again
    if (this.borrowed && this.running && !this.lockStillNames(this.borrowed)) {
      this.running = undefined;
      this.borrowed = undefined;
    }
    if (!this.running) {
      this.running = this.lockFile ? this.startOrJoin(this.lockFile) : this.launch();
      // a failed start may be retried on the next call
      this.running.catch(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  /** The running simulator if it has started (or is starting), without starting it. */
  async peek(): Promise<RunningSimulator | undefined> {
    return this.running?.catch(() => undefined);
  }

  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.borrowed = undefined;
    if (running) await (await running.catch(() => undefined))?.close();
  }

  private lockStillNames(lock: SimulatorLock): boolean {
    try {
      const current = parseLock(readFileSync(this.lockFile!, 'utf8'));
      return current?.pid === lock.pid && current.baseUrl === lock.baseUrl;
    } catch {
      return false;
    }
  }

  private async startOrJoin(lockFile: string): Promise<RunningSimulator> {
    const deadline = Date.now() + this.waitForOtherMs;
    for (;;) {
      const created = await open(lockFile, 'wx', 0o600).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return undefined;
        throw error;
      });
      if (created) {
        const mine: SimulatorLock = { pid: process.pid, host: os.hostname() };
        try {
          await created.writeFile(JSON.stringify(mine));
        } finally {
          await created.close();
        }
        return this.startOwn(lockFile, mine);
      }
      const lock = parseLock(await readFile(lockFile, 'utf8').catch(() => ''));
      if (lock && !isProcessOnHostAlive(lock)) {
        await this.removeStale(lockFile, lock);
        continue;
      }
      if (lock?.baseUrl && lock.token) {
        if (await answers(lock.baseUrl, lock.token)) return this.join(lock);
        // its process runs but nothing listens there any more (or the pid was reused)
        await this.removeStale(lockFile, lock);
        continue;
      }
      if (Date.now() > deadline) {
        throw new AppError(
          'simulator.lock_timeout',
          `Another process (pid ${lock?.pid ?? 'unknown'}) is starting the local simulator for this data folder and it did not start in time. If no other Framewright runs, remove ${lockFile}.`,
        );
      }
      await sleep(100);
    }
  }

  private async startOwn(lockFile: string, mine: SimulatorLock): Promise<RunningSimulator> {
    let sim: RunningSimulator;
    try {
      sim = await this.launch();
    } catch (error) {
      await rm(lockFile, { force: true });
      throw error;
    }
    const ready: SimulatorLock = { ...mine, baseUrl: sim.baseUrl, token: sim.token };
    const temp = `${lockFile}.${randomUUID()}.tmp`;
    await writeFile(temp, JSON.stringify(ready), { mode: 0o600 });
    await rename(temp, lockFile);
    return {
      ...sim,
      close: async () => {
        try {
          await sim.close();
        } finally {
          if (this.lockNamesMe(lockFile, ready)) await rm(lockFile, { force: true });
        }
      },
    };
  }

  private lockNamesMe(lockFile: string, ready: SimulatorLock): boolean {
    try {
      const current = parseLock(readFileSync(lockFile, 'utf8'));
      return current?.pid === ready.pid && current.baseUrl === ready.baseUrl;
    } catch {
      return false;
    }
  }

  private join(lock: SimulatorLock): RunningSimulator {
    this.borrowed = lock;
    const { baseUrl, token } = lock as Required<SimulatorLock>;
    return {
      baseUrl,
      token,
      // the simulator belongs to the process that started it
      close: async () => undefined,
      setScenario(name) {
        void fetch(`${baseUrl}/_simulator/scenario`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ scenario: name }),
        }).catch(() => undefined);
      },
    };
  }

  /**
   * Moves a stale lock aside so that a fresh `wx` can win. Two processes may see the same stale
   * lock: the move is checked, and a fresh lock moved by mistake is put back (never overwriting).
   */
  private async removeStale(lockFile: string, stale: SimulatorLock): Promise<void> {
    const aside = `${lockFile}.${randomUUID()}.stale`;
    try {
      await rename(lockFile, aside);
    } catch {
      return; // another process moved it first
    }
    const moved = parseLock(await readFile(aside, 'utf8').catch(() => ''));
    if (!moved || moved.pid !== stale.pid || moved.baseUrl !== stale.baseUrl) {
      await link(aside, lockFile).catch(() => undefined);
    }
    await rm(aside, { force: true });
  }
}
