import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MarkedExports, markedExportKey } from '../../../src/main/core/features/exports/marked-export.js';
import type {
  ExportSource,
  RuntimeExportCalls,
} from '../../../src/main/core/features/exports/marked-export.js';
import { systemClock } from '../../../src/main/core/platform/retry/retry-after.js';
import type { RetryClock } from '../../../src/main/core/platform/retry/retry-after.js';
import { makePng } from '../simulator/fixtures.js';
import type { PlatformApp, PlatformClient } from '../simulator/platform/platform-client.js';
import { usePlatformWorld } from '../simulator/platform/platform-fixture.js';
import type { LoopbackStorage } from '../simulator/platform/storage-server.js';

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
  downloads = mkdtempSync(path.join(tmpdir(), 'fw-exports-'));
});
afterAll(() => rmSync(downloads, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The runtime's export calls with the credential and session header, recording every answer. */
function runtimeExports(log: { call: string; status: number; variant: string | null; key?: string }[]) {
  const base = () => client.platform.runtimeBaseUrl;
  const headers = () => ({
    Authorization: `Bearer ${studio.appCredential}`,
    'X-Platform-Runtime-Session-Id': sessionId,
  });
  const logged = async (call: string, response: Promise<Response>, key?: string) => {
    const res = await response;
    log.push({ call, status: res.status, variant: res.headers.get('x-platform-asset-variant'), key });
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
): { source: ExportSource; bytes: Buffer; urls: { readUrlFor(h: string): string } } {
  const bytes = makePng(96, 72, rgb);
  const url = storage.put(name, bytes, 'image/png');
  const hash = sha256(bytes);
  return {
    bytes,
    source: { sha256: hash, mimeType: 'image/png', byteSize: bytes.length, filename: name },
    urls: {
      readUrlFor: (h) => {
        expect(h).toBe(hash);
        return url;
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
    expect(log[0]).toMatchObject({ call: 'create', status: 202, key: markedExportKey(source.sha256) });
    expect(waits[0]).toBe(5_000); // the 202's Retry-After
    expect(log.at(-1)).toMatchObject({ call: 'download', status: 200, variant: 'marked_export' });
    expect(readdirSync(downloads).filter((f) => f.includes('.part-'))).toEqual([]);

    const again = await exports.exportTo(source, path.join(downloads, 'sunset-again.png'));
    const creates = log.filter((l) => l.call === 'create');
    expect(creates.map((c) => c.status)).toEqual([202, 200]);
    expect(creates.every((c) => c.key === markedExportKey(source.sha256))).toBe(true);
    expect(again.exportId).toBe(result.exportId); // never re-created
    expect(again.sha256).toBe(result.sha256);
  }, 60_000);

  it('honours export_not_ready: waits its Retry-After before downloading again', async () => {
    const log: Parameters<typeof runtimeExports>[0] = [];
    const waits: number[] = [];
    const { source, urls } = libraryResult('forest.png', [30, 140, 60]);
    const calls = runtimeExports(log);
    const exports = new MarkedExports({ calls, urls, clock: recordingClock(waits) });
    const created = await calls.createExport(
      {
        source: {
          readUrl: urls.readUrlFor(source.sha256),
          mimeType: 'image/png',
          sha256: source.sha256,
          byteSize: source.byteSize,
        },
        idempotencyKey: markedExportKey(source.sha256),
        intent: 'download',
        deliveryMode: 'marked',
      },
      markedExportKey(source.sha256),
    );
    const { exportId } = (await created.json()) as { exportId: string };
    const destination = path.join(downloads, 'forest-marked.png');
    // downloading at once: the copy is still in preparation
    const result = await exports.download({ exportId }, 'image/png', destination, Date.now() + 60_000);
    expect(log.filter((l) => l.call === 'download').map((l) => l.status)).toEqual([409, 200]);
    expect(waits).toEqual([5_000]);
    expect(result.sha256).toBe(sha256(readFileSync(destination)));
  }, 60_000);

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
  }, 60_000);

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
});
