import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, startTestSimulator, type TestClient } from './client.js';
import { makeWav, removeScratch, scratchFile } from './fixtures.js';

let sim: RunningSimulator;
let client: TestClient;
let server: Server;
let origin = '';
let hits = 0;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator());
  server = createServer((_req, res) => {
    hits += 1;
    res.writeHead(200, { 'Content-Type': 'audio/wav' }).end(makeWav(1, 440));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await sim.close();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeScratch();
});

function send(bytes: Buffer, type: string, filename: string) {
  const form = new FormData();
  form.append('model', 'echo-transcribe');
  form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return client.request('POST', '/audio/transcriptions', { body: form });
}

describe('POST /audio/transcriptions sniffs the bytes before ffprobe sees them', () => {
  it('refuses an ffmpeg concat list and an HLS playlist naming a local file and a URL; the URL is never contacted', async () => {
    // a real local audio file the lists point at: probed, it would answer its 7 seconds
    const local = scratchFile('target.wav');
    writeFileSync(local, makeWav(7, 330));
    const concat = Buffer.from(
      `ffconcat version 1.0\nfile '${local}'\nfile '${origin}/concat.wav'\n`,
      'utf8',
    );
    const hls = Buffer.from(
      `#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:7,\nfile:${local}\n#EXTINF:1,\n${origin}/segment.wav\n#EXT-X-ENDLIST\n`,
      'utf8',
    );
    for (const [bytes, name] of [
      [concat, 'list.wav'],
      [hls, 'playlist.wav'],
    ] as const) {
      for (const type of ['audio/wav', 'application/octet-stream']) {
        const res = await send(bytes, type, name);
        expectError(res, 415, 'unsupported_media_type');
      }
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toBe(0);
  });

  it('still transcribes real audio', async () => {
    const res = await send(makeWav(3, 330), 'audio/wav', 'talk.wav');
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    expect(res.data.duration).toBeCloseTo(3, 2);
  });
});
