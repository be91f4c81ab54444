/**
 * Two processes on one data folder (two `framewright resume` at once, as the CLI beside the app):
 * job leases make exactly one process work each job, the start-up sweep leaves the other's live
 * download alone, and both use the one simulator the data folder's lock names.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { createdPerKey, h3VideoSubmission } from '../../support/engine-harness.js';
import { openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const JOBS = 20;

const resume = (dataDir: string) =>
  runFramewright(['--data-dir', dataDir, '--json', 'resume', '--timeout', '120']);

/**
 * A loopback proxy in front of the simulator that counts result downloads per asset. The first
 * download is held after its first bytes until another request arrives: the process downloading
 * it makes no other request meanwhile, so that request comes from the second process, after its
 * start-up sweep — which therefore ran while a partial file was live.
 */
class CountingProxy {
  readonly downloads = new Map<string, number>();
  heldWhileOtherStarted = false;
  private server: Server | undefined;
  private releaseHeld: (() => void) | undefined;
  holding = false;
  private held = false;

  constructor(private readonly upstream: string) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      const download = /\/assets\/([^/]+)\/content$/.exec(new URL(req.url!, 'http://x').pathname);
      if (!download && this.holding && this.releaseHeld) {
        this.heldWhileOtherStarted = true;
        this.releaseHeld();
      }
      if (download) this.downloads.set(download[1]!, (this.downloads.get(download[1]!) ?? 0) + 1);
      const target = new URL(req.url!, this.upstream);
      const forward = request(
        target,
        { method: req.method, headers: { ...req.headers, host: target.host } },
        (upstream: IncomingMessage) => {
          res.writeHead(upstream.statusCode!, upstream.headers);
          if (!download || this.held) {
            upstream.pipe(res);
            return;
          }
          this.held = true;
          upstream.once('data', (first: Buffer) => {
            upstream.pause();
            res.write(first);
            this.holding = true;
            const release = () => {
              this.holding = false;
              this.releaseHeld = undefined;
              upstream.pipe(res);
              upstream.resume();
            };
            this.releaseHeld = release;
            setTimeout(() => this.releaseHeld === release && release(), 30_000).unref();
          });
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

let sim: RunningSimulator;
let proxy: CountingProxy;
let proxyUrl: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = tempFolder('fw-two-proc-');
  sim = await openSimulator({ dataDir: path.join(dataDir, 'simulator'), timeScale: 0.05 });
  proxy = new CountingProxy(sim.baseUrl.replace(/\/v1$/, '/'));
  proxyUrl = await proxy.start();
});
afterAll(async () => {
  await proxy.close();
  await sim.close();
});

describe('two processes resume one data folder at once', () => {
  it('download each of 20 outputs once and never remove a file under a live download', async () => {
    // 20 accepted, unfinished jobs, as an app that quit with work in flight leaves them
    const proxied = { ...sim, baseUrl: proxyUrl };
    const core = await openDesktopCore(proxied, { dataDir });
    const keys = Array.from({ length: JOBS }, (_, i) => `two-proc-${i}`);
    for (const key of keys) {
      // one render shared by every job (the simulator caches it): the machine's time goes to the
      // two processes, not to ffmpeg
      const result = await core.engine.submit(h3VideoSubmission(key, 'Two processes, one folder'), {
        noWait: true,
      });
      expect(result.state).toBe('pending');
    }
    await core.close();
    // This process stands for the app that runs the data folder's simulator: the lock names it
    // (through the counting proxy); both CLI processes must use it rather than start their own.
    writeFileSync(
      path.join(dataDir, 'simulator.lock'),
      JSON.stringify({ pid: process.pid, host: os.hostname(), baseUrl: proxyUrl, token: sim.token }),
    );

    const first = resume(dataDir);
    for (let i = 0; i < 1200 && !proxy.holding; i += 1) await new Promise((r) => setTimeout(r, 50));
    expect(proxy.holding).toBe(true);
    // the first process's partial file is on disk (its first bytes arrived; the rest are held)
    const incoming = path.join(dataDir, 'library', '.incoming');
    const partials = () => (existsSync(incoming) ? readdirSync(incoming) : []);
    for (let i = 0; i < 200 && partials().length === 0; i += 1) await new Promise((r) => setTimeout(r, 25));
    expect(partials()).toHaveLength(1);
    const second = resume(dataDir);
    const runs = await Promise.all([first, second]);

    for (const run of runs) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout.trim().split('\n').pop()!).errors).toEqual([]);
    }
    expect(proxy.heldWhileOtherStarted).toBe(true);
    const reports = runs.map(
      (run) =>
        JSON.parse(run.stdout.trim().split('\n').pop()!) as {
          results: { state: string; idempotencyKey: string; workedElsewhere?: boolean }[];
        },
    );
    // each process reports the final state of every job it was asked about: the ones the other
    // process finished too (none is "pending" because another process held it for a while)
    for (const report of reports) {
      expect(report.results.map((r) => r.state)).toEqual(keys.map(() => 'succeeded'));
      expect(report.results.some((r) => r.workedElsewhere)).toBe(false);
    }

    const journal = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true });
    const outputs = journal
      .prepare(
        `SELECT outputs.asset_id, outputs.download_state, outputs.local_path, outputs.sha256
         FROM outputs JOIN jobs ON jobs.id = outputs.job_row_id ORDER BY jobs.id`,
      )
      .all() as { asset_id: string; download_state: string; local_path: string; sha256: string }[];
    const leases = journal.prepare('SELECT count(*) AS n FROM job_leases').get() as { n: number };
    journal.close();
    expect(outputs).toHaveLength(JOBS);
    for (const output of outputs) {
      expect(output.download_state).toBe('verified');
      expect(proxy.downloads.get(output.asset_id)).toBe(1);
      expect(createHash('sha256').update(readFileSync(output.local_path)).digest('hex')).toBe(output.sha256);
    }
    expect([...proxy.downloads.values()].reduce((a, b) => a + b, 0)).toBe(JOBS);
    // every lease was given back; no partial file is left
    expect(leases.n).toBe(0);
    expect(partials()).toEqual([]);
    // each job was created once (before the two processes; resuming created none)
    const created = await createdPerKey(sim.baseUrl, sim.token);
    for (const key of keys) expect(created.get(key)).toBe(1);
  });
});
