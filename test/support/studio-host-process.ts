/**
 * Starts `framewright serve` (the browser host with the real core and its embedded simulator) on a
 * random loopback port with a fresh data folder (or a given one, to restart on it): the end-to-end tests' host, and the queue bench's.
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

export interface StartedStudioHost {
  host: StudioHost;
  stop: () => Promise<void>;
  /** What the terminal would type (a new line asks for another one-time link). */
  type: (text: string) => void;
  /** The next line `serve` prints after the first (60 s at most). */
  nextLine: () => Promise<string>;
}

export async function startStudioHost(
  options: {
    rendererDir?: string;
    /** An existing data folder (a restart); else a fresh one. */
    dataDir?: string;
  } = {},
): Promise<StartedStudioHost> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'fw-e2e-'));
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
      ...(options.rendererDir ? ['--renderer-dir', options.rendererDir] : []),
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const printed: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter) waiter(line);
    else printed.push(line);
  });
  const nextLine = () =>
    new Promise<string>((resolve, reject) => {
      const ready = printed.shift();
      if (ready !== undefined) return resolve(ready);
      const timer = setTimeout(() => reject(new Error('framewright serve printed nothing')), 60_000);
      waiting.push((line) => {
        clearTimeout(timer);
        resolve(line);
      });
    });
  const firstLine = await Promise.race([
    nextLine(),
    new Promise<never>((_resolve, reject) =>
      child.once('exit', (code) => reject(new Error(`framewright serve exited with ${code}`))),
    ),
  ]);
  const info = JSON.parse(firstLine) as Omit<StudioHost, 'dataDir'>;
  // `serve` prints its address while the core is still opening (bridge calls wait for it); a test
  // that writes into the journal (seedFinishedJobs) needs the core's own first open (migrations,
  // the built-in simulator profile) done first: one bridge call answers only after it.
  const answer = await fetch(`${info.origin}/bridge/invoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${info.token}` },
    body: JSON.stringify({ method: 'app.info', params: {} }),
  });
  if (!answer.ok) throw new Error(`framewright serve's core did not open: ${await answer.text()}`);
  return {
    host: { ...info, dataDir },
    type: (text) => child.stdin!.write(text),
    nextLine,
    stop: async () => {
      if (child.exitCode !== null) return;
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
