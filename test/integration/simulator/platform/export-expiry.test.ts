import { describe, expect, it } from 'vitest';
import { sha256, type Json } from '../client.js';
import { makePng } from '../fixtures.js';
import {
  expectPlatformError,
  runtimeCall,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';

let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let storage: LoopbackStorage;

// its own simulator: the test moves the clock a day forward
usePlatformWorld({ sessions: ['member'] }, (world) => {
  ({ client, studio, storage } = world);
  member = world.sessions.member!;
});

const call = (method: string, suffix: string, json?: unknown) =>
  runtimeCall(client, studio, method, suffix, { sessionId: member.sessionId, json });

async function waitReady(exportId: string): Promise<Json> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const res = await call('GET', `/media/exports/${exportId}`);
    expect(res.status).toBe(200);
    if (res.data.status !== 'preparing') return res.data;
    if (Date.now() > deadline) throw new Error('export still preparing');
    await new Promise((r) => setTimeout(r, 50));
  }
}

const download = (url: string) =>
  fetch(url, {
    headers: {
      Authorization: `Bearer ${studio.appCredential}`,
      'X-Platform-Runtime-Session-Id': member.sessionId,
    },
  });

describe('a marked export past its life', () => {
  it('reads as failed export_expired without contentUrl, downloads 404, and a keyed create makes a new copy', async () => {
    const png = makePng(96, 64, [30, 90, 200]);
    const source = {
      readUrl: storage.put('expiring.png', png, 'image/png'),
      mimeType: 'image/png',
      sha256: sha256(png),
      byteSize: png.length,
    };
    const body = { source, idempotencyKey: 'export-expiry-1' };
    const created = await call('POST', '/media/exports', body);
    expect(created.status, created.text).toBe(202);
    const ready: Json = await waitReady(created.data.exportId);
    expect(ready.status).toBe('ready');
    expect((await download(ready.contentUrl)).status).toBe(200);
    // within its life the key replays the ready copy
    const replay = await call('POST', '/media/exports', body);
    expect(replay.status).toBe(200);
    expect(replay.data.exportId).toBe(created.data.exportId);

    await client.advanceClock(24 * 3600 + 60); // the copy lives 24 hours
    member = await client.openSession(studio, 'member'); // the day also ended the session

    const read = await call('GET', `/media/exports/${created.data.exportId}`);
    expect(read.status).toBe(200);
    expect(read.data).toMatchObject({
      exportId: created.data.exportId,
      status: 'failed',
      errorCode: 'export_expired',
      expiresAt: ready.expiresAt,
    });
    expect(read.data.contentUrl).toBeUndefined();
    const gone = await download(ready.contentUrl);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as Json).code).toBe('export_not_found');

    // the same key and body: a new copy, not the dead record
    const again = await call('POST', '/media/exports', body);
    expect(again.status, again.text).toBe(202);
    expect(again.data.exportId).not.toBe(created.data.exportId);
    expect(again.data.status).toBe('preparing');
    const fresh = await waitReady(again.data.exportId);
    expect(fresh.status).toBe('ready');
    expect((await download(fresh.contentUrl)).status).toBe(200);
    // and the key now replays the new copy; another body under it is still a conflict
    expect((await call('POST', '/media/exports', body)).data.exportId).toBe(again.data.exportId);
    expectPlatformError(
      await call('POST', '/media/exports', { ...body, source: { ...source, filename: 'other.png' } }),
      409,
      'idempotency_conflict',
    );
  });
});
