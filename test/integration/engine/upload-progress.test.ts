import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_PROGRESS_PER_SECOND } from '../../../src/main/core/api-clients/multipart-file-body.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const FILE_BYTES = 6 * 1024 * 1024;

let dir: string;
let file: string;
let server: http.Server;
let baseUrl: string;
const received: { contentLength: number; bytes: number }[] = [];

beforeAll(async () => {
  dir = tempFolder('fw-upload-progress-');
  file = path.join(dir, 'big.bin');
  writeFileSync(file, randomBytes(FILE_BYTES));
  // a service that reads the body slowly (so the upload takes a while) and answers like /assets/input
  server = http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      req.pause();
      setTimeout(() => req.resume(), 4);
    });
    req.on('end', () => {
      received.push({ contentLength: Number(req.headers['content-length']), bytes });
      const now = new Date().toISOString();
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          asset: {
            assetId: 'asset-1',
            publicationId: 'pub-1',
            kind: 'image',
            mimeType: 'image/png',
            byteSize: FILE_BYTES,
            status: 'available',
            createdAt: now,
            lastUploadedAt: now,
            expiresAt: new Date(Date.now() + 3600_000).toISOString(),
            reused: false,
          },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('upload byte progress', () => {
  it('a streamed upload reports increasing byte counts, throttled, ending at the total', async () => {
    const client = new PublicApiClient({
      profileId: 'p1',
      kind: 'personal',
      baseUrl,
      secret: () => Promise.resolve('sk-test'),
    });
    const reports: { sent: number; total: number; at: number }[] = [];
    const started = Date.now();
    const answer = await client.uploadAsset({
      model: 'h3-video',
      filePath: file,
      fileName: 'big.bin',
      mimeType: 'image/png',
      field: 'file',
      onProgress: (sent, total) => reports.push({ sent, total, at: Date.now() }),
    });
    const elapsed = Date.now() - started;
    expect(answer.asset.assetId).toBe('asset-1');
    expect(received).toHaveLength(1);
    const total = received[0]!.contentLength;
    // the body (multipart headers included) is what is counted; the server got all of it
    expect(total).toBeGreaterThan(FILE_BYTES);
    expect(received[0]!.bytes).toBe(total);
    expect(reports.every((r) => r.total === total)).toBe(true);
    // monotonically increasing, ending exactly at the total
    for (let i = 1; i < reports.length; i += 1)
      expect(reports[i]!.sent).toBeGreaterThan(reports[i - 1]!.sent);
    expect(reports[0]!.sent).toBe(0);
    expect(reports.at(-1)!.sent).toBe(total);
    // there is progress in between, and no more than the throttle allows (plus the first and last)
    expect(reports.length).toBeGreaterThan(2);
    expect(reports.length).toBeLessThanOrEqual(Math.ceil((elapsed / 1000) * UPLOAD_PROGRESS_PER_SECOND) + 2);
    const middle = reports.slice(1, -1);
    for (let i = 1; i < middle.length; i += 1)
      expect(middle[i]!.at - middle[i - 1]!.at).toBeGreaterThanOrEqual(1000 / UPLOAD_PROGRESS_PER_SECOND - 1);
  });
});
