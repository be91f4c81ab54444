import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { downloadOutputs } from '../../../src/main/core/jobs/download-outputs.js';
import { SINK_SYNC_EVERY_BYTES } from '../../../src/main/core/jobs/temp-file-sink.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { acceptedJobRow, journalWithProfile } from '../../support/journal-rows.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

// a result of several sync steps, served in 64 KiB pieces as fast as the client reads
const BODY = randomBytes(3 * SINK_SYNC_EVERY_BYTES + 12_345);
const SHA = createHash('sha256').update(BODY).digest('hex');
const PIECES = Math.ceil(BODY.length / (64 * 1024));
let server: http.Server;
let base: string;
let dir: string;
let handleProto: FileHandle;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BODY.length) });
    res.end(BODY);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  dir = tempFolder('fw-download-disk-');
  const probe = await open(path.join(dir, 'probe'), 'w');
  handleProto = Object.getPrototypeOf(probe) as FileHandle;
  await probe.close();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
afterEach(() => vi.restoreAllMocks());

describe('a download goes to the disk in batches, durable before it is renamed into the library', () => {
  it('writes in few batched writes, flushes during the transfer and fsyncs before the rename', async () => {
    const steps: string[] = [];
    const writev = vi.spyOn(handleProto, 'writev');
    const datasync = vi.spyOn(handleProto, 'datasync');
    datasync.mockImplementation(async () => void steps.push('datasync'));
    const sync = vi.spyOn(handleProto, 'sync');
    sync.mockImplementation(async () => void steps.push('sync'));
    const journal = journalWithProfile(base);
    const job = acceptedJobRow(journal, {
      outputs: [{ assetId: 'res_d', sha256: SHA, byteSize: BODY.length, mimeType: 'video/mp4' }],
    });
    const client = new PublicApiClient({
      profileId: 'p',
      kind: 'personal',
      baseUrl: base,
      secret: async () => 'k',
    });
    const done = await downloadOutputs(journal, client, job, path.join(dir, 'library'));
    const output = done.outputs[0]!;
    expect(output.downloadState).toBe('verified');
    expect(readFileSync(output.localPath!).equals(BODY)).toBe(true);
    // step flushes while the bytes arrived, then one final fsync of the temporary file
    expect(steps.filter((s) => s === 'datasync').length).toBeGreaterThanOrEqual(1);
    expect(steps.at(-1)).toBe('sync');
    expect(steps.filter((s) => s === 'sync')).toHaveLength(1);
    // far fewer writes than pieces arrived (a 16 KiB write stream wrote each piece on its own)
    expect(writev.mock.calls.length).toBeLessThan(PIECES / 2);
    journal.close();
  });
});
