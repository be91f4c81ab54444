/**
 * Starts `framewright serve` (the browser host with the real core and its embedded simulator) on a
 * random loopback port with a fresh data folder: the end-to-end tests' host, and the queue bench's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { BrowserContext } from '@playwright/test';
import { openJournal } from '../../src/main/core/journal/open-journal';
import { HOST_SESSION_STORAGE_KEY } from '../../src/shared/bridge/browser-host-protocol';

export interface StudioHost {
  origin: string;
  launchUrl: string;
  token: string;
  dataDir: string;
}

export async function startStudioHost(): Promise<{ host: StudioHost; stop: () => Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-'));
  const root = path.resolve(import.meta.dirname, '../..');
  const child: ChildProcess = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--json',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--simulator-time-scale',
      '0.05',
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const firstLine = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`framewright serve exited with ${code}`)));
  });
  const info = JSON.parse(firstLine) as Omit<StudioHost, 'dataDir'>;
  return {
    host: { ...info, dataDir },
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/**
 * Signs every page of `context` on `host` in, as the one-time launch link does: the token in that
 * origin's sessionStorage, where the page keeps it (set before the page's scripts, on every load).
 */
export async function signInContext(
  context: BrowserContext,
  host: { origin: string; token: string },
): Promise<void> {
  const [key, origin, token] = [HOST_SESSION_STORAGE_KEY, host.origin, host.token].map((v) =>
    JSON.stringify(v),
  );
  await context.addInitScript({
    content: `if (location.origin === ${origin}) sessionStorage.setItem(${key}, ${token});`,
  });
}

/** `count` finished (failed) video jobs written straight into a host's journal (WAL: shared with the running core). */
export function seedFinishedJobs(dataDir: string, count: number): void {
  const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
  try {
    journal.transaction(() => {
      for (let i = 0; i < count; i += 1) {
        const key = `seed-${i}-${process.pid}`;
        journal.jobs.recordIntent({
          idempotencyKey: key,
          profileId: 'simulator',
          model: 'seeded-model',
          serviceKind: 'video_generation',
          body: { prompt: `Seeded job number ${i}`, generationMode: 't2v' },
        });
        journal.jobs.markAccepted(key, {
          jobId: `job_seed_${i}`,
          requestId: `req_seed_${i}`,
          status: 'failed',
          errorCode: 'seeded',
          errorMessage: 'Seeded for the virtualization test.',
          retryable: false,
        });
      }
    });
  } finally {
    journal.close();
  }
}
