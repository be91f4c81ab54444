import { createWriteStream, existsSync, readdirSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ResultTooLargeError,
  VerificationError,
  downloadOutputs,
} from '../../../src/main/core/jobs/download-outputs.js';
import type { AnnouncedOutput } from '../../../src/main/core/journal/outputs-repository.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { AppError } from '../../../src/main/core/errors.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { acceptedJobRow, journalWithProfile } from '../../support/journal-rows.js';
import { startHostileServer } from '../../support/hostile-server.js';

/**
 * The hostile-download tests: a server that sends more than it announced, announces nothing and
 * never stops, or announces more than the job did, cannot fill the disk; a full disk ends with a
 * clear error and a bounded number of reads across resumes.
 */

const CHUNK = Buffer.alloc(64 * 1024, 7);
/** Bytes the server wrote before the client hung up (bounded: the server stops at 256 MiB). */
const sent = { bytes: 0 };

/** Writes chunks until the client hangs up (or 256 MiB), honouring back-pressure. */
function endless(res: ServerResponse): void {
  let stopped = false;
  res.on('close', () => (stopped = true));
  const pump = () => {
    while (!stopped && sent.bytes < 256 * 1024 * 1024) {
      sent.bytes += CHUNK.length;
      if (!res.write(CHUNK)) return void res.once('drain', pump);
    }
    res.end();
  };
  pump();
}

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function world(handler: (res: ServerResponse) => void, output: Partial<AnnouncedOutput>) {
  sent.bytes = 0;
  const server = await startHostileServer((_req, res) => handler(res));
  servers.push(server);
  const journal = journalWithProfile(server.base);
  const job = acceptedJobRow(journal, {
    outputs: [{ assetId: 'res_h', contentUrl: `${server.base}/assets/res_h/content?model=m`, ...output }],
  });
  const client = new PublicApiClient({
    profileId: 'p',
    kind: 'personal',
    baseUrl: server.base,
    secret: async () => 'k-hostile',
  });
  const libraryDir = tempFolder('fw-lib-');
  return { server, journal, job, client, libraryDir };
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('hostile downloads', () => {
  it('more bytes than the announced byteSize: stopped as soon as they exceed it', async () => {
    const w = await world(
      (res) => {
        res.writeHead(200, { 'content-type': 'video/mp4' }); // no Content-Length
        endless(res);
      },
      { byteSize: 1000, mimeType: 'video/mp4' },
    );
    let maxReceived = 0;
    const error = await downloadOutputs(w.journal, w.client, w.job, w.libraryDir, {
      maxReads: 1,
      onProgress: (p) => (maxReceived = Math.max(maxReceived, p.receivedBytes)),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationError);
    expect((error as Error).message).toContain('more than the 1000 bytes announced');
    expect(maxReceived).toBeLessThanOrEqual(1000);
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024); // the server was cut off, not drained
    expect(w.journal.outputs.listForJob(w.job.id)[0]!.downloadState).toBe('failed');
    expect(filesUnder(w.libraryDir)).toEqual([]);
  });

  it('nothing announced and no Content-Length: still capped by the per-kind limit, refused for good', async () => {
    const w = await world((res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      endless(res);
    }, {});
    const error = await downloadOutputs(w.journal, w.client, w.job, w.libraryDir, {
      maxResultBytes: { video: 256 * 1024 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTooLargeError);
    expect(sent.bytes).toBeLessThan(16 * 1024 * 1024);
    expect(w.server.seen).toHaveLength(1); // not read again
    expect(w.journal.outputs.listForJob(w.job.id)[0]!.downloadState).toBe('failed');
    expect(filesUnder(w.libraryDir)).toEqual([]);
  });

  it('a Content-Length larger than the announced byteSize is refused before reading', async () => {
    const w = await world(
      (res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(50 * 1024 * 1024) });
        endless(res);
      },
      { byteSize: 1000 },
    );
    let progress = 0;
    const error = await downloadOutputs(w.journal, w.client, w.job, w.libraryDir, {
      maxReads: 1,
      onProgress: (p) => (progress = Math.max(progress, p.receivedBytes)),
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VerificationError);
    expect((error as Error).message).toContain('refused before reading');
    expect(progress).toBe(0);
  });

  it('a Content-Length larger than the cap (nothing announced) is refused before reading', async () => {
    const w = await world((res) => {
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(10 * 1024 * 1024) });
      endless(res);
    }, {});
    const error = await downloadOutputs(w.journal, w.client, w.job, w.libraryDir, {
      maxResultBytes: { video: 1024 * 1024 },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResultTooLargeError);
    expect((error as Error).message).toContain('refused before reading');
    expect(w.journal.outputs.listForJob(w.job.id)[0]!.downloadState).toBe('failed');
  });

  it('a full disk ends with a clear error, no re-read in the same run, and a bounded number of reads across resumes', async () => {
    const body = Buffer.alloc(200 * 1024, 3);
    const w = await world(
      (res) => {
        res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(body.length) });
        res.end(body);
      },
      { byteSize: body.length },
    );
    // /dev/full: every write fails with ENOSPC, as on a full disk
    const full = { openTempFile: () => createWriteStream('/dev/full'), retryDelayMs: 1, maxLifetimeReads: 3 };
    const runs: unknown[] = [];
    for (let resume = 0; resume < 5; resume += 1) {
      const job = w.journal.jobs.getJob(w.job.id)!;
      runs.push(await downloadOutputs(w.journal, w.client, job, w.libraryDir, full).catch((e: unknown) => e));
    }
    const first = runs[0] as AppError;
    expect(first).toBeInstanceOf(AppError);
    expect(first.code).toBe('download.disk_full');
    expect(first.message).toContain('The disk is full');
    expect(first.message).toContain('read 1 of at most 3');
    expect((runs[3] as AppError).code).toBe('download.gave_up');
    const output = w.journal.outputs.listForJob(w.job.id)[0]!;
    expect(output.downloadState).toBe('failed');
    expect(output.lastError).toContain('The disk is full');
    expect(w.server.seen).toHaveLength(3); // one read per run, three runs in all, then never again
    expect(w.journal.outputs.jobsWithUnverifiedOutputs()).not.toContain(w.job.id);
  });
});
