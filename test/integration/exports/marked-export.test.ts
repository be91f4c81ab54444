import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_SOURCE_URL_SECONDS,
  MarkedExports,
  markedExportKey,
} from '../../../src/main/core/exports/marked-export.js';
import type { ExportSource, RuntimeExportCalls } from '../../../src/main/core/exports/marked-export.js';
import { systemClock } from '../../../src/main/core/api-clients/retry/retry-after.js';
import type { RetryClock } from '../../../src/main/core/api-clients/retry/retry-after.js';
import { makePng } from '../simulator/fixtures.js';
import type { PlatformApp, PlatformClient } from '../simulator/platform/platform-client.js';
import { usePlatformWorld } from '../simulator/platform/platform-fixture.js';
import type { LoopbackStorage } from '../simulator/platform/storage-server.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let client: PlatformClient;
let studio: PlatformApp;
let sessionId: string;
let storage: LoopbackStorage;
let downloads: string;

usePlatformWorld({ sessions: ['member'] }, (world) => {
  ({ client, studio, storage } = world);
  sessionId = world.sessions.member!.sessionId as string;
});
beforeAll(() => {
  downloads = tempFolder('fw-exports-');
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The runtime's export calls with the credential and session header, recording every answer. */
function runtimeExports(
  log: { call: string; status: number; variant: string | null; key?: string; body?: string }[],
) {
  const base = () => client.platform.runtimeBaseUrl;
  const headers = () => ({
    Authorization: `Bearer ${studio.appCredential}`,
    'X-Platform-Runtime-Session-Id': sessionId,
  });
  const logged = async (call: string, response: Promise<Response>, key?: string, body?: string) => {
    const res = await response;
    log.push({ call, status: res.status, variant: res.headers.get('x-platform-asset-variant'), key, body });
    return res;
  };
  const calls: RuntimeExportCalls = {
    createExport: (body, key, signal) =>
      logged(
        'create',
        fetch(`${base()}/media/exports`, {
          method: 'POST',
          headers: { ...headers(), 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: JSON.stringify(body),
          signal,
        }),
        key,
        JSON.stringify(body),
      ),
    readExport: (id, signal) =>
      logged('read', fetch(`${base()}/media/exports/${id}`, { headers: headers(), signal })),
    downloadExport: (id, signal) =>
      logged('download', fetch(`${base()}/media/exports/${id}/download`, { headers: headers(), signal })),
  };
  return calls;
}

/** Real time, with every wait recorded. */
function recordingClock(waits: number[]): RetryClock {
  return {
    now: () => systemClock.now(),
    sleep: (ms, signal) => {
      waits.push(ms);
      return systemClock.sleep(ms, signal);
    },
  };
}

/** A library result served from the application's own storage (a tiny loopback server). */
function libraryResult(
  name: string,
  rgb: [number, number, number],
  now: () => number = Date.now,
): {
  source: ExportSource;
  bytes: Buffer;
  urls: { readUrlFor(h: string, expiresAt?: Date): string };
} {
  const bytes = makePng(96, 72, rgb);
  const url = storage.put(name, bytes, 'image/png');
  const hash = sha256(bytes);
  return {
    bytes,
    source: { sha256: hash, mimeType: 'image/png', byteSize: bytes.length, filename: name },
    urls: {
      // signed like the application's storage does: the expiry is part of the URL
      readUrlFor: (h, expiresAt) => {
        expect(h).toBe(hash);
        return `${url}?exp=${Math.floor((expiresAt?.getTime() ?? now() + 3_600_000) / 1000)}`;
      },
    },
  };
}

describe('marked exports against the simulated platform', () => {
  it('creates (202), waits the Retry-After, downloads the marked copy; a second export of the same result is the ready one (200)', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const waits: number[] = [];
    const { source, bytes, urls } = libraryResult('sunset.png', [220, 120, 40]);
    const exports = new MarkedExports({ calls: runtimeExports(log), urls, clock: recordingClock(waits) });
    const destination = path.join(downloads, 'sunset-marked.png');

    const result = await exports.exportTo(source, destination);
    const saved = readFileSync(destination);
    expect(result).toMatchObject({ path: destination, mimeType: 'image/png', byteSize: saved.length });
    expect(result.sha256).toBe(sha256(saved));
    expect(saved.subarray(1, 4).toString()).toBe('PNG');
    expect(sha256(saved)).not.toBe(source.sha256); // the mark is drawn: it is not the original
    expect(saved.equals(bytes)).toBe(false);
    expect(log[0]).toMatchObject({ call: 'create', status: 202 });
    expect(log[0]!.key).toMatch(/^framewright-export-[0-9a-f]{64}$/);
    expect(waits[0]).toBe(5_000); // the 202's Retry-After
    expect(log.at(-1)).toMatchObject({ call: 'download', status: 200, variant: 'marked_export' });
    expect(readdirSync(downloads).filter((f) => f.includes('.part-'))).toEqual([]);

    const again = await exports.exportTo(source, path.join(downloads, 'sunset-again.png'));
    const creates = log.filter((l) => l.call === 'create');
    expect(creates.map((c) => c.status)).toEqual([202, 200]);
    expect(creates[1]!.key).toBe(creates[0]!.key); // the same key, with the same body
    expect(again.exportId).toBe(result.exportId); // never re-created
    expect(again.sha256).toBe(result.sha256);
  });

  it('honours export_not_ready: waits its Retry-After before downloading again', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const waits: number[] = [];
    const { source, urls } = libraryResult('forest.png', [30, 140, 60]);
    const calls = runtimeExports(log);
    const exports = new MarkedExports({ calls, urls, clock: recordingClock(waits) });
    const business = {
      source: {
        readUrl: urls.readUrlFor(source.sha256),
        mimeType: 'image/png' as const,
        sha256: source.sha256,
        byteSize: source.byteSize,
      },
      intent: 'download' as const,
      deliveryMode: 'marked' as const,
    };
    const key = markedExportKey(business);
    const created = await calls.createExport({ ...business, idempotencyKey: key }, key);
    const { exportId } = (await created.json()) as { exportId: string };
    const destination = path.join(downloads, 'forest-marked.png');
    // downloading at once: the copy is still in preparation
    const result = await exports.download({ exportId }, 'image/png', destination, Date.now() + 60_000);
    expect(log.filter((l) => l.call === 'download').map((l) => l.status)).toEqual([409, 200]);
    expect(waits).toEqual([5_000]);
    expect(result.sha256).toBe(sha256(readFileSync(destination)));
  });

  it('waits only within its bound: a Retry-After past it stops with a clear error, nothing re-created', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const waits: number[] = [];
    const { source, urls } = libraryResult('dunes.png', [200, 180, 90]);
    const exports = new MarkedExports({
      calls: runtimeExports(log),
      urls,
      clock: recordingClock(waits),
      maxWaitMs: 2_000,
    });
    const destination = path.join(downloads, 'dunes.png');
    await expect(exports.exportTo(source, destination)).rejects.toMatchObject({
      code: 'export.not_ready_in_time',
    });
    expect(log.map((l) => `${l.call} ${l.status}`)).toEqual(['create 202']);
    expect(waits).toEqual([]);
    expect(existsSync(destination)).toBe(false);
  });

  it('refuses a download that is not the marked variant and keeps no file', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const { source, urls } = libraryResult('lake.png', [40, 80, 200]);
    const real = runtimeExports(log);
    const calls: RuntimeExportCalls = {
      ...real,
      downloadExport: async (id, signal) => {
        const res = await real.downloadExport(id, signal);
        const headers = new Headers(res.headers);
        headers.delete('x-platform-asset-variant');
        return new Response(res.body, { status: res.status, headers });
      },
    };
    const exports = new MarkedExports({ calls, urls });
    const destination = path.join(downloads, 'lake.png');
    await expect(exports.exportTo(source, destination)).rejects.toMatchObject({ code: 'export.not_marked' });
    expect(existsSync(destination)).toBe(false);
  });

  it('refuses a source it cannot export before calling the platform', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const exports = new MarkedExports({
      calls: runtimeExports(log),
      urls: { readUrlFor: () => 'http://127.0.0.1:1/x' },
    });
    await expect(
      exports.exportTo(
        { sha256: 'a'.repeat(64), mimeType: 'image/gif', byteSize: 10 },
        path.join(downloads, 'x.gif'),
      ),
    ).rejects.toMatchObject({ code: 'export.invalid_source' });
    await expect(
      exports.exportTo(
        { sha256: 'not-a-hash', mimeType: 'image/png', byteSize: 10 },
        path.join(downloads, 'x.png'),
      ),
    ).rejects.toMatchObject({ code: 'export.invalid_source' });
    expect(log).toEqual([]);
  });

  it('exports the same result twice, 2 s apart, under one key and one body (one export at the platform); once the copy has expired a new one is made', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    // the test clock: waits advance it (the simulator prepares at time scale 0.01 meanwhile). It
    // starts in the middle of a signing window: presses in one window sign one URL, and a run at
    // the turn of an hour (CI15 at midnight) put the third press in the next window, with a new body
    const window = EXPORT_SOURCE_URL_SECONDS * 1000;
    let offset = window / 2 - (Date.now() % window);
    const clock: RetryClock = {
      now: () => Date.now() + offset,
      sleep: async (ms, signal) => {
        offset += ms;
        await systemClock.sleep(Math.min(ms, 100), signal);
      },
    };
    const { source, urls } = libraryResult('harbour.png', [10, 90, 160], clock.now);
    const exports = new MarkedExports({ calls: runtimeExports(log), urls, clock });
    const creates = () => log.filter((l) => l.call === 'create');

    const first = await exports.exportTo(source, path.join(downloads, 'harbour-1.png'));
    offset += 2_000; // the second press, 2 s later
    const second = await exports.exportTo(source, path.join(downloads, 'harbour-2.png'));
    expect(creates().map((c) => c.status)).toEqual([202, 200]);
    expect(second.exportId).toBe(first.exportId);
    expect(creates()[1]!.key).toBe(creates()[0]!.key);
    expect(creates()[1]!.body).toBe(creates()[0]!.body);

    // Framewright started again (nothing remembered): the same body is derived, so the same key
    const restarted = new MarkedExports({ calls: runtimeExports(log), urls, clock });
    offset += 2_000;
    const third = await restarted.exportTo(source, path.join(downloads, 'harbour-3.png'));
    expect(third.exportId).toBe(first.exportId);
    expect(creates()[2]).toMatchObject({ status: 200, key: creates()[0]!.key, body: creates()[0]!.body });

    // past the copy's life on the platform (24 h): a new copy is asked for and downloaded
    await client.advanceClock(25 * 3600);
    offset += 25 * 3600_000;
    sessionId = (await client.openSession(studio, 'member')).sessionId as string; // the old one expired too
    const renewed = await exports.exportTo(source, path.join(downloads, 'harbour-4.png'));
    expect(renewed.exportId).not.toBe(first.exportId);
    expect(renewed.sha256).toBe(sha256(readFileSync(renewed.path)));
    expect(creates().at(-1)!.status).toBe(202);
    expect(log.at(-1)).toMatchObject({ call: 'download', status: 200, variant: 'marked_export' });

    // one key never carried two bodies
    const bodiesOfKey = new Map<string, Set<string>>();
    for (const c of creates()) bodiesOfKey.set(c.key!, (bodiesOfKey.get(c.key!) ?? new Set()).add(c.body!));
    expect([...bodiesOfKey.values()].every((bodies) => bodies.size === 1)).toBe(true);
    expect(bodiesOfKey.size).toBeGreaterThan(1);
  });
});
