import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { downloadOutputs, type DownloadProgress } from '../../../src/main/core/jobs/download-outputs.js';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { PROGRESS_REPORTS_PER_SECOND } from '../../../src/main/core/api-clients/progress-throttle.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const BODY = randomBytes(1024 * 1024);
const SHA = createHash('sha256').update(BODY).digest('hex');
let server: http.Server;
let base: string;

beforeAll(async () => {
  // a result that arrives in many small pieces over about a second
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BODY.length) });
    let offset = 0;
    const timer = setInterval(() => {
      for (let i = 0; i < 16 && offset < BODY.length; i += 1, offset += 2048)
        res.write(BODY.subarray(offset, offset + 2048));
      if (offset >= BODY.length) {
        clearInterval(timer);
        res.end();
      }
    }, 30);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => server.close());

describe('download byte progress', () => {
  it('is throttled like upload progress, increasing, ending at the total', async () => {
    const journal = openJournal({ path: ':memory:' });
    journal.profiles.create({ id: 'p', name: 'P', kind: 'personal', baseUrl: base });
    journal.jobs.recordIntent({
      idempotencyKey: 'progress-1',
      profileId: 'p',
      model: 'm',
      serviceKind: 'video_generation',
      body: {},
    });
    const job = journal.jobs.markAccepted('progress-1', {
      jobId: 'job_progress',
      requestId: 'req',
      status: 'succeeded',
      outputs: [{ assetId: 'res_p', sha256: SHA, byteSize: BODY.length, mimeType: 'video/mp4' }],
      outputsSource: 'outputs',
    });
    const client = new PublicApiClient({
      profileId: 'p',
      kind: 'personal',
      baseUrl: base,
      secret: async () => 'k',
    });
    const reports: (DownloadProgress & { at: number })[] = [];
    const started = Date.now();
    const done = await downloadOutputs(journal, client, job, tempFolder('fw-lib-'), {
      onProgress: (p) => reports.push({ ...p, at: Date.now() }),
    });
    const elapsed = Date.now() - started;
    expect(done.outputs[0]!.downloadState).toBe('verified');
    expect(reports.at(-1)).toMatchObject({ receivedBytes: BODY.length, totalBytes: BODY.length });
    for (let i = 1; i < reports.length; i += 1)
      expect(reports[i]!.receivedBytes).toBeGreaterThan(reports[i - 1]!.receivedBytes);
    expect(reports.length).toBeGreaterThan(2);
    // far fewer than the 512 pieces: no more than the throttle allows, plus the last
    expect(reports.length).toBeLessThanOrEqual(Math.ceil((elapsed / 1000) * PROGRESS_REPORTS_PER_SECOND) + 2);
    const middle = reports.slice(0, -1);
    for (let i = 1; i < middle.length; i += 1)
      expect(middle[i]!.at - middle[i - 1]!.at).toBeGreaterThanOrEqual(
        1000 / PROGRESS_REPORTS_PER_SECOND - 1,
      );
    journal.close();
  });
});
