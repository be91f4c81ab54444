import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** A second identity of the simulator: its inspection route shows only what it sent. */
const OTHER_KEY = 'batch-other-identity-0123456789';
const BROKE_KEY = 'batch-broke-identity-0123456789';

interface BatchRow {
  row: number;
  state: string;
  idempotencyKey: string;
  jobId: string | null;
  outputs: { path: string | null; sha256: string | null; verified: boolean }[];
  duplicateOf?: number;
  error?: { code: string; message: string; status?: number };
}
interface BatchOutput {
  rows: BatchRow[];
  summary: Record<string, number>;
}

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await openSimulator({ tokens: [OTHER_KEY, BROKE_KEY] });
});
afterAll(async () => {
  await sim.close();
});

/** A workspace: a data folder and a folder for the batch files. */
function workspace() {
  const dir = tempFolder('fw-batch-');
  return {
    dataDir: path.join(dir, 'data'),
    file(name: string, text: string): string {
      const file = path.join(dir, name);
      writeFileSync(file, text);
      return file;
    },
  };
}

/** `framewright --base-url <sim> --data-dir D --json batch FILE --model h3-video …` */
async function batch(dataDir: string, file: string, extra: string[] = [], key = sim.token) {
  const run = await runFramewright(
    [
      '--base-url',
      sim.baseUrl,
      '--data-dir',
      dataDir,
      '--json',
      'batch',
      file,
      '--model',
      'h3-video',
      ...extra,
    ],
    { FRAMEWRIGHT_API_KEY: key },
  );
  let out: BatchOutput | undefined;
  try {
    out = JSON.parse(run.stdout) as BatchOutput;
  } catch {
    out = undefined;
  }
  return { ...run, out: out! };
}

const byRow = (out: BatchOutput, row: number) => out.rows.find((r) => r.row === row)!;

async function simJob(jobId: string, key = sim.token) {
  const response = await fetch(`${sim.baseUrl}/jobs/${jobId}?model=h3-video`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { createdAt: string; completedAt?: string; status: string };
}

/** The most jobs the simulator had between creation and completion at the same moment. */
async function maxOverlap(jobIds: string[]): Promise<number> {
  const jobs = await Promise.all(jobIds.map((id) => simJob(id)));
  const spans = jobs.map((j) => [Date.parse(j.createdAt), Date.parse(j.completedAt!)] as const);
  return Math.max(...spans.map(([start]) => spans.filter(([s, e]) => s <= start && start < e).length));
}

describe('framewright batch', () => {
  it('a TXT of 3 prompts and a duplicate line: 3 verified videos, the duplicate reported, one job per key', async () => {
    const ws = workspace();
    const file = ws.file(
      'prompts.txt',
      '# three prompts\nA red fox in fresh snow\n\nA blue whale, singing\nA red fox in fresh snow\nA green parrot on a branch\n',
    );
    const run = await batch(ws.dataDir, file);
    expect(run.code, run.stderr).toBe(0);
    expect(run.out.rows.map((r) => [r.row, r.state])).toEqual([
      [2, 'succeeded'],
      [4, 'succeeded'],
      [5, 'duplicate'],
      [6, 'succeeded'],
    ]);
    expect(byRow(run.out, 5)).toMatchObject({ duplicateOf: 2, jobId: null });
    expect(run.out.summary).toMatchObject({ succeeded: 3, duplicate: 1, failed: 0 });
    for (const row of run.out.rows.filter((r) => r.state === 'succeeded')) {
      expect(row.idempotencyKey).toMatch(/^fw-batch-[0-9a-f]{64}$/);
      expect(row.outputs).toHaveLength(1);
      const output = row.outputs[0]!;
      expect(output.verified).toBe(true);
      const bytes = readFileSync(output.path!);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(output.sha256);
    }
    const created = await createdPerKey(sim.baseUrl, sim.token);
    const keys = [2, 4, 6].map((row) => byRow(run.out, row).idempotencyKey);
    expect(new Set(keys).size).toBe(3);
    expect(byRow(run.out, 5).idempotencyKey).toBe(keys[0]);
    for (const key of keys) expect(created.get(key)).toBe(1);
  });

  it('running the same file again creates nothing new (even with the journal lost); a new --run-label does', async () => {
    const ws = workspace();
    const file = ws.file('again.txt', 'A lighthouse at dusk\nA kite over the dunes\n');
    const first = await batch(ws.dataDir, file);
    expect(first.code, first.stderr).toBe(0);
    const jobIds = first.out.rows.map((r) => r.jobId);
    const keys = first.out.rows.map((r) => r.idempotencyKey);
    const before = await createdPerKey(sim.baseUrl, sim.token);

    const again = await batch(ws.dataDir, file);
    expect(again.code, again.stderr).toBe(0);
    expect(again.out.rows.map((r) => [r.state, r.jobId])).toEqual(jobIds.map((id) => ['succeeded', id]));
    // a new machine or a wiped data folder: the service's idempotency returns the same jobs
    const elsewhere = await batch(workspace().dataDir, file);
    expect(elsewhere.code, elsewhere.stderr).toBe(0);
    expect(elsewhere.out.rows.map((r) => r.jobId)).toEqual(jobIds);
    expect(await createdPerKey(sim.baseUrl, sim.token)).toEqual(before);

    const labelled = await batch(ws.dataDir, file, ['--run-label', 'take-2']);
    expect(labelled.code, labelled.stderr).toBe(0);
    const newKeys = labelled.out.rows.map((r) => r.idempotencyKey);
    for (const [i, row] of labelled.out.rows.entries()) {
      expect(row.state).toBe('succeeded');
      expect(row.jobId).not.toBe(jobIds[i]);
      expect(newKeys[i]).not.toBe(keys[i]);
    }
    const after = await createdPerKey(sim.baseUrl, sim.token);
    expect(after.size).toBe(before.size + 2);
    for (const key of [...keys, ...newKeys]) expect(after.get(key)).toBe(1);

    const help = await runFramewright(['batch', '--help']);
    expect(help.stdout).toContain('--run-label');
    expect(help.stdout).toMatch(/again .* creates no new job/s);
  });

  it('a CSV with quoted commas and line breaks: an invalid row is named and nothing is sent; fixed, each row keeps its settings', async () => {
    const ws = workspace();
    const multiLine = 'A cat, sitting\non a mat, "purring"';
    const header = 'prompt,seconds,orientation\n';
    const good = `"A cat, sitting\non a mat, ""purring""",6,portrait\nA dog on a beach,7,\n`;
    const bad = ws.file('bad.csv', `${header}${good}A slow river,99,landscape\n"",5,\n`);
    const run = await batch(ws.dataDir, bad, [], OTHER_KEY);
    expect(run.code).toBe(2);
    // the multi-line record occupies lines 2-3: the bad rows are on lines 5 and 6
    expect(run.stderr).toMatch(/row 5: .*seconds.*99/i);
    expect(run.stderr).toMatch(/row 6: .*prompt/i);
    expect(run.stderr).not.toMatch(/row [234]:/);
    const error = (JSON.parse(run.stdout) as { error: { details: { row: number }[] } }).error;
    expect(error.details.map((d) => d.row)).toEqual([5, 6]);
    expect((await createdPerKey(sim.baseUrl, OTHER_KEY)).size).toBe(0);
    const jobs = await runFramewright(['--data-dir', ws.dataDir, '--json', 'jobs']);
    expect(JSON.parse(jobs.stdout).data).toEqual([]);

    const fixed = ws.file('fixed.csv', header + good);
    const ok = await batch(ws.dataDir, fixed, ['--orientation', 'landscape'], OTHER_KEY);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.out.rows.map((r) => [r.row, r.state])).toEqual([
      [2, 'succeeded'],
      [4, 'succeeded'],
    ]);
    const show = async (jobId: string) =>
      JSON.parse((await runFramewright(['--data-dir', ws.dataDir, '--json', 'show', jobId])).stdout) as {
        request: { prompt: string; seconds: number; orientation: string };
      };
    expect((await show(byRow(ok.out, 2).jobId!)).request).toMatchObject({
      prompt: multiLine,
      seconds: 6,
      orientation: 'portrait',
    });
    // an empty cell falls back to the command line
    expect((await show(byRow(ok.out, 4).jobId!)).request).toMatchObject({
      prompt: 'A dog on a beach',
      seconds: 7,
      orientation: 'landscape',
    });
  });

  it('--concurrency bounds the rows in flight (measured on the simulator’s job times)', async () => {
    const ws = workspace();
    const prompts = (tag: string) =>
      [1, 2, 3].map((n) => `Concurrency ${tag}: shot ${n} of a train crossing a bridge`).join('\n');
    const one = await batch(ws.dataDir, ws.file('one.txt', prompts('one')), ['--concurrency', '1']);
    expect(one.code, one.stderr).toBe(0);
    expect(await maxOverlap(one.out.rows.map((r) => r.jobId!))).toBe(1);
    const two = await batch(ws.dataDir, ws.file('two.txt', prompts('two')), ['--concurrency', '2']);
    expect(two.code, two.stderr).toBe(0);
    expect(await maxOverlap(two.out.rows.map((r) => r.jobId!))).toBe(2);

    const refused = await batch(ws.dataDir, ws.file('nine.txt', 'x\n'), ['--concurrency', '9']);
    expect(refused.code).toBe(2);
  });

  it('--max-jobs 2 on 3 rows: 2 sent, 1 capped; a re-run continues the sent ones and sends the next', async () => {
    const ws = workspace();
    const file = ws.file('cap.txt', 'Capped: a sunrise\nCapped: a sunset\nCapped: a starry night\n');
    const run = await batch(ws.dataDir, file, ['--max-jobs', '2']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.out.rows.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'capped']);
    expect(run.out.summary).toMatchObject({ succeeded: 2, capped: 1 });
    expect((await createdPerKey(sim.baseUrl, sim.token)).has(byRow(run.out, 3).idempotencyKey)).toBe(false);

    const next = await batch(ws.dataDir, file, ['--max-jobs', '2']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.out.rows.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(next.out.rows.slice(0, 2).map((r) => r.jobId)).toEqual(
      run.out.rows.slice(0, 2).map((r) => r.jobId),
    );
    const created = await createdPerKey(sim.baseUrl, sim.token);
    for (const row of next.out.rows) expect(created.get(row.idempotencyKey)).toBe(1);
  });

  it('402: the first refusal stops the batch, no further row is sent, exit 4; after topping up a re-run sends them all once', async () => {
    const ws = workspace();
    const file = ws.file('broke.txt', 'Broke: one\nBroke: two\nBroke: three\nBroke: four\n');
    sim.setScenario('insufficient_balance');
    let run: Awaited<ReturnType<typeof batch>>;
    try {
      run = await batch(ws.dataDir, file, ['--concurrency', '4'], BROKE_KEY);
      expect(run.code).toBe(4);
      expect(run.out.rows.map((r) => r.state)).toEqual([
        'failed',
        'not_submitted',
        'not_submitted',
        'not_submitted',
      ]);
      expect(byRow(run.out, 1).error).toMatchObject({ status: 402 });
      expect(run.out.summary).toMatchObject({ failed: 1, notSubmitted: 3 });
    } finally {
      sim.setScenario(null);
    }
    expect((await createdPerKey(sim.baseUrl, BROKE_KEY)).size).toBe(0);

    // topped up: the same file again sends every row, the refused one under its next attempt key
    const again = await batch(ws.dataDir, file, ['--concurrency', '4'], BROKE_KEY);
    expect(again.code, again.stderr).toBe(0);
    expect(again.out.rows.map((r) => r.state)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    const refusedKey = run.out.rows[0]!.idempotencyKey;
    expect(again.out.rows[0]!.idempotencyKey).toBe(`${refusedKey}.2`);
    expect(again.out.rows.slice(1).map((r) => r.idempotencyKey)).toEqual(
      run.out.rows.slice(1).map((r) => r.idempotencyKey),
    );
    const created = await createdPerKey(sim.baseUrl, BROKE_KEY);
    expect(created.size).toBe(4);
    for (const row of again.out.rows) expect(created.get(row.idempotencyKey)).toBe(1);
    // and once more: nothing new
    const third = await batch(ws.dataDir, file, ['--concurrency', '4'], BROKE_KEY);
    expect(third.out.rows.map((r) => r.jobId)).toEqual(again.out.rows.map((r) => r.jobId));
    expect((await createdPerKey(sim.baseUrl, BROKE_KEY)).size).toBe(4);
  });
});
