/**
 * `framewright batch` of 12 prompts in one process and `framewright resume` in another, on one data
 * folder: every output is downloaded once, and each process reports the final state of every job
 * it was asked about — never "pending" for a job the other process finished and verified.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const PROMPTS = 12;

let sim: RunningSimulator;
beforeAll(async () => {
  // paced so that jobs are still running when the second process starts
  sim = await openSimulator({ timeScale: 0.3 });
});
afterAll(async () => {
  await sim.close();
});

function unfinishedIntents(dataDir: string): { total: number; unfinished: number } {
  try {
    const db = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true, fileMustExist: true });
    try {
      return db
        .prepare(
          `SELECT count(*) AS total,
             sum(CASE WHEN NOT EXISTS (
               SELECT 1 FROM jobs JOIN outputs ON outputs.job_row_id = jobs.id
               WHERE jobs.intent_id = job_intents.id AND outputs.download_state = 'verified'
             ) THEN 1 ELSE 0 END) AS unfinished
           FROM job_intents`,
        )
        .get() as { total: number; unfinished: number };
    } finally {
      db.close();
    }
  } catch {
    return { total: 0, unfinished: 0 }; // not created yet
  }
}

interface Row {
  state: string;
  idempotencyKey: string;
  outputs: { path: string; sha256: string; verified: boolean }[];
}

describe('batch and resume in two processes on one data folder', () => {
  it('both exit 0 and report succeeded for every job they were asked about; each output is downloaded once', async () => {
    const dir = tempFolder('fw-batch-resume-');
    const dataDir = path.join(dir, 'data');
    const file = path.join(dir, 'prompts.txt');
    writeFileSync(
      file,
      Array.from({ length: PROMPTS }, (_, i) => `A lighthouse at dusk, take ${i + 1}`).join('\n') + '\n',
    );
    const env = { FRAMEWRIGHT_API_KEY: sim.token };
    const global = ['--base-url', sim.baseUrl, '--data-dir', dataDir, '--json'];
    const batch = runFramewright(
      [...global, 'batch', file, '--model', 'h3-video', '--concurrency', '8', '--timeout', '300'],
      env,
    );
    // the second process starts while the batch works: several jobs recorded, most not finished
    const started = Date.now();
    while (unfinishedIntents(dataDir).unfinished < 6) {
      if (Date.now() - started > 60_000) throw new Error('the batch did not start its jobs');
      await new Promise((r) => setTimeout(r, 25));
    }
    const resume = runFramewright([...global, 'resume', '--timeout', '300'], env);
    const [batchRun, resumeRun] = await Promise.all([batch, resume]);

    expect(batchRun.code, batchRun.stderr).toBe(0);
    const batchOut = JSON.parse(batchRun.stdout) as { rows: Row[]; summary: Record<string, number> };
    expect(batchOut.summary).toMatchObject({ succeeded: PROMPTS, failed: 0, pending: 0 });

    expect(resumeRun.code, resumeRun.stderr + resumeRun.stdout).toBe(0);
    const resumed = JSON.parse(resumeRun.stdout.trim().split('\n').pop()!) as {
      results: Row[];
      errors: unknown[];
    };
    expect(resumed.errors).toEqual([]);
    // it was asked about the jobs the batch was working on, and reports each as it ended
    expect(resumed.results.length).toBeGreaterThanOrEqual(6);
    expect(resumed.results.map((r) => r.state)).toEqual(resumed.results.map(() => 'succeeded'));
    const batchByKey = new Map(batchOut.rows.map((r) => [r.idempotencyKey, r]));
    for (const result of resumed.results) {
      // the same verified file as the batch reports: one download, whichever process made it
      expect(result.outputs.map((o) => [o.path, o.sha256, o.verified])).toEqual(
        batchByKey.get(result.idempotencyKey)!.outputs.map((o) => [o.path, o.sha256, o.verified]),
      );
    }

    const created = await createdPerKey(sim.baseUrl, sim.token);
    const paths = new Set<string>();
    for (const row of batchOut.rows) {
      expect(created.get(row.idempotencyKey)).toBe(1);
      const output = row.outputs[0]!;
      expect(output.verified).toBe(true);
      expect(createHash('sha256').update(readFileSync(output.path)).digest('hex')).toBe(output.sha256);
      paths.add(output.path);
    }
    expect(paths.size).toBe(PROMPTS);
    const journal = new Database(path.join(dataDir, 'journal.sqlite'), { readonly: true });
    const counts = journal
      .prepare(
        `SELECT (SELECT count(*) FROM outputs WHERE download_state = 'verified') AS verified,
                (SELECT count(*) FROM outputs) AS outputs, (SELECT count(*) FROM job_leases) AS leases`,
      )
      .get();
    journal.close();
    expect(counts).toEqual({ verified: PROMPTS, outputs: PROMPTS, leases: 0 });
  });
});
