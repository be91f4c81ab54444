import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadOutputs, VerificationError } from '../../../src/main/core/jobs/download-outputs.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const GOOD = randomBytes(256 * 1024);
const SHA = createHash('sha256').update(GOOD).digest('hex');

/** A result server whose next answers can be corrupted, truncated or mistyped. */
const plan: { faults: ('corrupt' | 'truncate' | 'wrong-type')[]; served: number } = { faults: [], served: 0 };
let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    plan.served += 1;
    const fault = plan.faults.shift();
    if (fault === 'truncate') {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(GOOD.length) });
      res.write(GOOD.subarray(0, 1000));
      setTimeout(() => res.destroy(), 10);
      return;
    }
    const body = fault === 'corrupt' ? Buffer.from(GOOD).fill(7, 100, 200) : GOOD;
    res.writeHead(200, {
      'content-type': fault === 'wrong-type' ? 'text/html' : 'video/mp4',
      'content-length': String(body.length),
    });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => server.close());

let counter = 0;
function acceptedJob(journal: Journal) {
  counter += 1;
  const key = `dl-${counter}`;
  if (!journal.profiles.get('p'))
    journal.profiles.create({ id: 'p', name: 'P', kind: 'personal', baseUrl: base });
  journal.jobs.recordIntent({
    idempotencyKey: key,
    profileId: 'p',
    model: 'm',
    serviceKind: 'video_generation',
    body: { n: counter },
  });
  return journal.jobs.markAccepted(key, {
    jobId: `job_${counter}`,
    requestId: 'req',
    jobUrl: `${base}/jobs/job_${counter}?model=m`,
    status: 'succeeded',
    outputs: [
      {
        assetId: `res_${counter}`,
        contentUrl: `${base}/assets/res_${counter}/content?model=m`,
        sha256: SHA,
        byteSize: GOOD.length,
        mimeType: 'video/mp4',
      },
    ],
    outputsSource: 'outputs',
  });
}

function mediaIn(libraryDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (!entry.name.endsWith('framewright.json')) out.push(path.relative(libraryDir, full));
    }
  };
  walk(libraryDir);
  return out;
}

describe('download and verify', () => {
  it.each([['corrupt'], ['truncate'], ['wrong-type']] as const)(
    'a %s read is read again (the same read) and only verified bytes are kept',
    async (fault) => {
      const journal = openJournal({ path: ':memory:' });
      const libraryDir = tempFolder('fw-lib-');
      const job = acceptedJob(journal);
      const c = new PublicApiClient({
        profileId: 'p',
        kind: 'personal',
        baseUrl: base,
        secret: async () => 'k',
      });
      plan.faults = [fault, fault];
      plan.served = 0;
      const done = await downloadOutputs(journal, c, job, libraryDir, { retryDelayMs: 1 });
      expect(plan.served).toBe(3);
      const output = done.outputs[0]!;
      expect(output.downloadState).toBe('verified');
      expect(output.attemptCount).toBeGreaterThanOrEqual(3);
      expect(readFileSync(output.localPath!).equals(GOOD)).toBe(true);
      expect(mediaIn(libraryDir)).toEqual([path.relative(libraryDir, output.localPath!)]);
    },
  );

  it('bytes that never verify are refused: nothing is kept, the output is marked failed', async () => {
    const journal = openJournal({ path: ':memory:' });
    const libraryDir = tempFolder('fw-lib-');
    const job = acceptedJob(journal);
    const c = new PublicApiClient({
      profileId: 'p',
      kind: 'personal',
      baseUrl: base,
      secret: async () => 'k',
    });
    plan.faults = ['corrupt', 'corrupt', 'corrupt', 'corrupt'];
    await expect(
      downloadOutputs(journal, c, job, libraryDir, { retryDelayMs: 1, maxReads: 4 }),
    ).rejects.toBeInstanceOf(VerificationError);
    expect(journal.outputs.listForJob(job.id)[0]!.downloadState).toBe('failed');
    expect(mediaIn(libraryDir)).toEqual([]);
  });
});
