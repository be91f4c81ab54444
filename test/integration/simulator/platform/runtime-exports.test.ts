import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../../../src/shared/node/ffmpeg-locator.js';
import { ffprobe, sha256, type Json } from '../client.js';
import { makeMp4, makePng, scratchFile } from '../fixtures.js';
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
let manager: Json;
let storage: LoopbackStorage;

// slow enough that an export is observably in preparation (3 s x 0.5)
usePlatformWorld({ simulator: { timeScale: 0.5 }, sessions: ['member', 'manager'] }, (world) => {
  ({ client, studio, storage } = world);
  ({ member, manager } = world.sessions);
});

const call = (method: string, suffix: string, options: Parameters<typeof runtimeCall>[4] = {}) =>
  runtimeCall(client, studio, method, suffix, { sessionId: member.sessionId, ...options });

async function download(url: string, sessionId: string = member.sessionId) {
  const res = await fetch(url, {
    headers: { Authorization: `Bearer ${studio.appCredential}`, 'X-Platform-Runtime-Session-Id': sessionId },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function waitReady(exportId: string): Promise<Json> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await call('GET', `/media/exports/${exportId}`);
    expect(res.status).toBe(200);
    if (res.data.status !== 'preparing') return res.data;
    if (Date.now() > deadline) throw new Error('export still preparing');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The RGB of one pixel of an image file. */
function pixel(file: string, x: number, y: number): number[] {
  const raw = execFileSync(locateMediaTools().ffmpeg, [
    '-v',
    'error',
    '-i',
    file,
    '-vf',
    `crop=1:1:${x}:${y}`,
    '-frames:v',
    '1',
    '-f',
    'rawvideo',
    '-pix_fmt',
    'rgb24',
    '-',
  ]);
  return [...raw.subarray(0, 3)];
}

describe('marked exports', () => {
  it('202 in preparation, download 409 export_not_ready with Retry-After 5, then 200 with a visibly marked copy', async () => {
    const png = makePng(320, 180, [200, 60, 30]);
    const readUrl = storage.put('poster.png', png, 'image/png');
    const body = {
      source: {
        readUrl,
        mimeType: 'image/png',
        sha256: sha256(png),
        byteSize: png.length,
        filename: 'poster.png',
      },
      idempotencyKey: 'export-poster-1',
    };
    const created = await call('POST', '/media/exports', { json: body });
    expect(created.status, created.text).toBe(202);
    expect(created.data).toMatchObject({ status: 'preparing', deliveryMode: 'marked', intent: 'download' });
    expect(created.data.contentUrl).toBeUndefined();
    const early = await download(`${created.data.statusUrl}/download`);
    expect(early.res.status).toBe(409);
    expect(early.res.headers.get('retry-after')).toBe('5');
    expect(JSON.parse(early.bytes.toString()).code).toBe('export_not_ready');

    const ready = await waitReady(created.data.exportId);
    expect(ready.status).toBe('ready');
    const { res, bytes } = await download(ready.contentUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-platform-asset-variant')).toBe('marked_export');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="poster\.png"/);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(bytes.length).toBe(ready.byteSize);
    expect(sha256(bytes)).not.toBe(sha256(png));
    const source = scratchFile('source.png');
    const marked = scratchFile('marked.png');
    writeFileSync(source, png);
    writeFileSync(marked, bytes);
    expect(ffprobe(marked).streams[0]).toMatchObject({ width: 320, height: 180 });
    expect(pixel(marked, 2, 90)).toEqual(pixel(source, 2, 90)); // the picture is kept …
    const band = pixel(marked, 2, 176);
    expect(band[0]!).toBeLessThan(120); // … and a dark band is drawn into its lower sixth
    expect(pixel(source, 2, 176)[0]).toBe(200);

    // the same content again: the ready copy (200), not a new export
    const again = await call('POST', '/media/exports', {
      json: { ...body, idempotencyKey: 'export-poster-2' },
    });
    expect(again.status).toBe(200);
    expect(again.data.exportId).toBe(created.data.exportId);
    const replay = await call('POST', '/media/exports', { json: body });
    expect(replay.status).toBe(200);
    // a ready copy is reused only for a request that passes the same checks: its readUrl's address …
    expectPlatformError(
      await call('POST', '/media/exports', {
        json: {
          ...body,
          idempotencyKey: 'export-poster-3',
          source: { ...body.source, readUrl: 'http://10.0.0.7/poster.png' },
        },
      }),
      400,
      'read_url_address_not_allowed',
    );
    // … and its declared type: the PNG copy is never answered for a request declaring image/jpeg
    const asJpeg = await call('POST', '/media/exports', {
      json: {
        ...body,
        idempotencyKey: 'export-poster-4',
        source: { ...body.source, mimeType: 'image/jpeg' },
      },
    });
    expect(asJpeg.data.exportId).not.toBe(created.data.exportId);
    expectPlatformError(asJpeg, 422, 'read_url_media_mismatch');
    expectPlatformError(
      await call('POST', '/media/exports', {
        json: { ...body, source: { ...body.source, filename: 'other.png' } },
      }),
      409,
      'idempotency_conflict',
    );
  });

  it('a failed preparation is never answered as in preparation: the same request under its key prepares a new copy', async () => {
    // a PNG whose header is sound and whose pixel data cannot be inflated: accepted as image/png
    // (its type and size read), then unmarkable
    const broken = Buffer.from(makePng(64, 64, [1, 2, 3]));
    const idatLength = broken.readUInt32BE(33); // the chunk after the signature (8) and IHDR (25)
    broken.fill(0xff, 33 + 8 + 2, 33 + 8 + idatLength);
    const readUrl = storage.put('broken.png', broken, 'image/png');
    const body = {
      source: { readUrl, mimeType: 'image/png', sha256: sha256(broken), byteSize: broken.length },
      idempotencyKey: 'export-broken-1',
    };
    const created = await call('POST', '/media/exports', { json: body });
    expect(created.status, created.text).toBe(202);
    const failed = await waitReady(created.data.exportId);
    expect(failed).toMatchObject({ status: 'failed', errorCode: 'export_preparation_failed' });
    const replay = await call('POST', '/media/exports', { json: body });
    expect(replay.status, replay.text).toBe(202);
    expect(replay.data.status).toBe('preparing');
    expect(replay.data.exportId).not.toBe(created.data.exportId);
  });

  it('marks an mp4 and keeps its sound', async () => {
    const mp4 = makeMp4(1, true);
    const readUrl = storage.put('clip.mp4', mp4, 'video/mp4');
    const created = await call('POST', '/media/exports', {
      json: { source: { readUrl, mimeType: 'video/mp4', appAssetRef: 'clip-v1' } },
    });
    expect(created.status, created.text).toBe(202);
    const ready = await waitReady(created.data.exportId);
    const { res, bytes } = await download(ready.contentUrl);
    expect(res.status).toBe(200);
    expect(sha256(bytes)).not.toBe(sha256(mp4));
    const file = scratchFile('marked.mp4');
    writeFileSync(file, bytes);
    expect(
      ffprobe(file)
        .streams.map((s) => s.codec_type)
        .sort(),
    ).toEqual(['audio', 'video']);
  });

  it('refuses other types, intents and delivery modes, a source without sha256 or appAssetRef, and mismatching content', async () => {
    const png = makePng(32, 32);
    const readUrl = storage.put('small.png', png, 'image/png');
    for (const source of [
      { readUrl, mimeType: 'image/gif', sha256: sha256(png) },
      { readUrl, mimeType: 'image/png' },
    ])
      expectPlatformError(await call('POST', '/media/exports', { json: { source } }), 400, 'invalid_request');
    for (const extra of [{ intent: 'share' }, { deliveryMode: 'original' }])
      expectPlatformError(
        await call('POST', '/media/exports', {
          json: { source: { readUrl, mimeType: 'image/png', sha256: sha256(png) }, ...extra },
        }),
        400,
        'invalid_request',
      );
    expectPlatformError(
      await call('POST', '/media/exports', {
        json: { source: { readUrl, mimeType: 'image/png', sha256: 'c'.repeat(64) } },
      }),
      422,
      'read_url_checksum_mismatch',
    );
    expectPlatformError(
      await call('POST', '/media/exports', {
        json: { source: { readUrl, mimeType: 'image/jpeg', appAssetRef: 'small-v1' } },
      }),
      422,
      'read_url_media_mismatch',
    );
    expectPlatformError(
      await call('POST', '/media/exports', {
        json: {
          source: { readUrl: 'http://169.254.169.254/latest', mimeType: 'image/png', appAssetRef: 'x' },
        },
      }),
      400,
      'read_url_address_not_allowed',
    );
  });

  it("is read with the owner's session only: another person gets 404, a recovery reference 403", async () => {
    const png = makePng(40, 40, [9, 9, 200]);
    const readUrl = storage.put('owned.png', png, 'image/png');
    const created = await call('POST', '/media/exports', {
      json: { source: { readUrl, mimeType: 'image/png', sha256: sha256(png) } },
    });
    expect(created.status).toBe(202);
    expectPlatformError(
      await call('GET', `/media/exports/${created.data.exportId}`, { sessionId: manager.sessionId }),
      404,
      'export_not_found',
    );
    expectPlatformError(
      await call('GET', `/media/exports/${created.data.exportId}`, {
        sessionId: '',
        headers: { 'X-Platform-Job-Recovery-Ref': 'jrr_anything' },
      }),
      403,
      'job_recovery_ref_not_allowed',
    );
  });
});
