import { randomBytes } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { Writable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import {
  FILE_READ_BUFFERS,
  FILE_READ_CHUNK_BYTES,
  writeFileInto,
} from '../../../src/main/core/api-clients/write-file-into.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const FILE_BYTES = 24 * 1024 * 1024 + 12_345;

let dir: string;
let file: string;
let content: Buffer;

beforeAll(() => {
  dir = tempFolder('fw-upload-streaming-');
  file = path.join(dir, 'big.bin');
  content = randomBytes(FILE_BYTES);
  writeFileSync(file, content);
});

/** A target that takes each write after a delay, recording what it holds at once and which memory. */
function slowTarget(delayMs = 1) {
  const received: Buffer[] = [];
  const memories = new Set<ArrayBufferLike>();
  let held = 0;
  let maxHeld = 0;
  const target = new Writable({
    highWaterMark: 1,
    write(chunk: Buffer, _encoding, callback) {
      memories.add(chunk.buffer);
      held += chunk.length;
      maxHeld = Math.max(maxHeld, held);
      setTimeout(() => {
        received.push(Buffer.from(chunk));
        held -= chunk.length;
        callback();
      }, delayMs);
    },
  });
  return { target, received, memories, maxHeld: () => maxHeld };
}

/** Reads a multipart body to the end and answers like /assets/input with the body's length. */
const DRAINING_SERVER = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  let bytes = 0;
  req.on('data', (chunk) => (bytes += chunk.length));
  req.on('end', () => {
    const now = new Date().toISOString();
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ asset: { assetId: 'asset-1', publicationId: 'pub-1', kind: 'video',
      mimeType: 'video/mp4', byteSize: bytes, status: 'available', createdAt: now, lastUploadedAt: now,
      expiresAt: new Date(Date.now() + 3600000).toISOString(), reused: false } }));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
`;

describe('uploads stream the file from a few reused buffers', () => {
  it('sends every byte in order, never more than a few chunks in flight, from the same few buffers', async () => {
    const sink = slowTarget();
    let counted = 0;
    await writeFileInto(sink.target, file, FILE_BYTES, (bytes) => (counted += bytes));
    expect(Buffer.concat(sink.received).equals(content)).toBe(true);
    expect(counted).toBe(FILE_BYTES);
    expect(sink.maxHeld()).toBeLessThanOrEqual(FILE_READ_BUFFERS * FILE_READ_CHUNK_BYTES);
    // no new memory per chunk (25 chunks here) for the garbage collector to catch up with
    expect(sink.memories.size).toBeLessThanOrEqual(FILE_READ_BUFFERS);
  });

  it('a file that became shorter than its measured size is a clear error', async () => {
    const sink = slowTarget(0);
    await expect(writeFileInto(sink.target, file, FILE_BYTES + 10)).rejects.toThrow(
      `became shorter while it was sent (${FILE_BYTES} of ${FILE_BYTES + 10} bytes)`,
    );
  });

  it('stops, with the file closed, when the connection goes away mid-body', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const sink = slowTarget();
    // the target's own error is its owner's to handle (the request's, in the client)
    sink.target.on('error', () => undefined);
    setTimeout(() => sink.target.destroy(new Error('socket hang up')), 20);
    await expect(writeFileInto(sink.target, file, FILE_BYTES)).rejects.toThrow('socket hang up');
    expect(openFiles()).toBe(before);
  });

  it('an upload through the client keeps memory flat: no per-chunk copies of the file pile up', async () => {
    // the service in its own process, so that only the client's memory is measured here
    const server = spawn(process.execPath, ['-e', DRAINING_SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const [port] = (await once(server.stdout, 'data')) as [Buffer];
    try {
      const client = new PublicApiClient({
        profileId: 'p',
        kind: 'personal',
        baseUrl: `http://127.0.0.1:${port.toString().trim()}/v1`,
        secret: async () => 'key-1234',
      });
      const baseline = process.memoryUsage().arrayBuffers;
      let peak = baseline;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().arrayBuffers)), 1);
      const { asset } = await client.uploadAsset({
        model: 'm',
        filePath: file,
        fileName: 'big.mp4',
        mimeType: 'video/mp4',
        field: 'file',
        onProgress: () => undefined,
      });
      clearInterval(sampler);
      expect(asset.byteSize).toBeGreaterThan(FILE_BYTES);
      // the reused buffers and the socket's queue; copying every chunk grew this by tens of MiB
      expect((peak - baseline) / 1024 / 1024).toBeLessThan(12);
    } finally {
      server.kill();
    }
  });
});
