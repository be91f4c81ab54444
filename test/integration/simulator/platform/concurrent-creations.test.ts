import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import { sha256, type Json } from '../client.js';
import { makePng, removeScratch } from '../fixtures.js';
import {
  expectPlatformError,
  runtimeCall,
  startPlatformSimulator,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

/**
 * The application's storage, slow: every read is held until `release()`, so a creation is
 * observably in the middle of reading its readUrl when an identical request arrives.
 */
class HeldStorage {
  private readonly files = new Map<string, Buffer>();
  private readonly held: (() => void)[] = [];
  private server?: Server;
  holding = true;
  hits = 0;
  origin = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.hits += 1;
      const answer = () => {
        const bytes = this.files.get(new URL(req.url ?? '/', 'http://x').pathname);
        if (!bytes) res.writeHead(404).end();
        else
          res
            .writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) })
            .end(bytes);
      };
      if (this.holding) this.held.push(answer);
      else answer();
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  put(name: string, bytes: Buffer): string {
    this.files.set(`/bucket/${name}`, bytes);
    return `${this.origin}/bucket/${name}?X-Signature=simulated`;
  }

  /** Answers every held read; later reads are held again. */
  release(): void {
    for (const answer of this.held.splice(0)) answer();
  }

  async stop(): Promise<void> {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

let sim: RunningSimulator;
let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
const storage = new HeldStorage();
const dataDir = tempFolder('fw-plat-concurrent-');

beforeAll(async () => {
  ({ sim, client } = await startPlatformSimulator({ dataDir }));
  studio = client.app(0);
  member = await client.openSession(studio, 'member');
  await storage.start();
});
afterAll(async () => {
  await sim.close();
  await storage.stop();
  removeScratch();
});

const call = (suffix: string, json: unknown, key: string) =>
  runtimeCall(client, studio, 'POST', suffix, {
    sessionId: member.sessionId,
    json,
    headers: { 'Idempotency-Key': key },
  });

async function until(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in 10 s');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The simulator's own records of one kind, as written to its state logs (distinct ids). */
function recorded(kind: 'runtime_job' | 'export' | 'opt'): Set<string> {
  const file = kind === 'opt' ? 'state.jsonl' : 'platform-state.jsonl';
  const ids = new Set<string>();
  for (const line of readFileSync(path.join(dataDir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const record = JSON.parse(line) as Json;
    if (record.t !== kind) continue;
    ids.add(kind === 'opt' ? record.v.optimization.optimizationId : record.id);
  }
  return ids;
}

/**
 * Two identical creations, the second sent while the first is reading its readUrl, and a third
 * with the same key and another body: one record, both answers name it, the other body conflicts.
 */
async function raceIdentical(
  suffix: string,
  body: Json,
  otherBody: Json,
  key: string,
): Promise<[Awaited<ReturnType<typeof call>>, Awaited<ReturnType<typeof call>>]> {
  const before = storage.hits;
  const first = call(suffix, body, key);
  await until(() => storage.hits === before + 1); // the first is inside its read
  const second = call(suffix, body, key);
  const conflicting = await call(suffix, otherBody, key); // answered at once, the first still held
  expectPlatformError(conflicting, 409, 'idempotency_conflict');
  await pause(200); // the second has arrived (and, without a reservation, would be reading too)
  expect(storage.hits).toBe(before + 1);
  storage.release();
  const answers = await Promise.all([first, second]);
  expect(storage.hits).toBe(before + 1); // the second never read: it replayed
  return answers;
}

const PNG = makePng(64, 48, [20, 160, 90]);

describe('concurrent identical creations hold their idempotency key', () => {
  it('make one runtime job; both answers name it', async () => {
    const input = {
      readUrl: storage.put('frame.png', PNG),
      role: 'first_frame',
      sha256: sha256(PNG),
      byteSize: PNG.length,
    };
    const body = {
      clientTaskId: 'concurrent-job',
      model: 'h3-video',
      serviceKind: 'video_generation',
      params: { prompt: 'A paper boat drifting down a rain gutter' },
      mediaSpec: { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      inputs: [input],
    };
    const jobsBefore = recorded('runtime_job').size;
    const other = { ...body, params: { prompt: 'Another prompt' } };
    const [a, b] = await raceIdentical('/media/jobs', body, other, 'concurrent-job-key');
    expect([a.status, b.status].sort()).toEqual([200, 202]);
    expect(b.data.platformJobId).toBe(a.data.platformJobId);
    expect(b.data.jobRecoveryRef).toBe(a.data.jobRecoveryRef);
    expect(recorded('runtime_job').size).toBe(jobsBefore + 1);
  });

  it('make one marked export; both answers name it', async () => {
    const source = {
      readUrl: storage.put('poster.png', PNG),
      mimeType: 'image/png',
      sha256: sha256(PNG),
      byteSize: PNG.length,
    };
    const body = { source, idempotencyKey: 'concurrent-export' };
    const other = { source: { ...source, filename: 'other.png' }, idempotencyKey: 'concurrent-export' };
    const exportsBefore = recorded('export').size;
    const [a, b] = await raceIdentical('/media/exports', body, other, 'concurrent-export');
    expect(a.status, a.text).toBe(202);
    expect(b.data.exportId).toBe(a.data.exportId);
    expect(recorded('export').size).toBe(exportsBefore + 1);
  });

  it('make one prompt optimization; both answers name it', async () => {
    const body = {
      clientRequestId: 'concurrent-opt',
      model: 'h3-video',
      generationMode: 'universal_reference_video',
      originalPrompt: 'A lighthouse at dusk, waves against the rocks',
      mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      referenceInputs: [
        {
          role: 'reference_image',
          readUrl: storage.put('look.png', PNG),
          byteSize: PNG.length,
          sha256: sha256(PNG),
        },
      ],
    };
    const other = { ...body, originalPrompt: 'Another prompt entirely' };
    const before = existingOptimizations();
    const [a, b] = await raceIdentical('/media/prompt-optimizations', body, other, 'concurrent-opt');
    expect(a.status, a.text).toBe(201);
    expect(b.status, b.text).toBe(201);
    expect(b.data.optimization.optimizationId).toBe(a.data.optimization.optimizationId);
    expect(existingOptimizations()).toBe(before + 1);
  });

  it('a first creation that fails releases the key: the waiting identical one runs, and the key takes another body', async () => {
    const url = storage.put('other-frame.png', PNG);
    const body = {
      clientTaskId: 'concurrent-failed',
      model: 'h3-video',
      serviceKind: 'video_generation',
      params: { prompt: 'A paper boat drifting down a rain gutter' },
      mediaSpec: { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      inputs: [{ readUrl: url, role: 'first_frame', sha256: 'b'.repeat(64), byteSize: PNG.length }],
    };
    const before = storage.hits;
    const first = call('/media/jobs', body, 'concurrent-failed-key');
    await until(() => storage.hits === before + 1);
    const second = call('/media/jobs', body, 'concurrent-failed-key');
    await pause(200);
    storage.release();
    const failed = await first;
    expect(failed.status).toBeGreaterThanOrEqual(400);
    // the second waited for the first, then made its own attempt (its own read)
    await until(() => storage.hits === before + 2);
    storage.release();
    const again = await second;
    expect(again.status).toBe(failed.status);
    expect(again.data.code).toBe(failed.data.code);
    // no record holds the key: the corrected body under it is a new job
    const fixedBody = { ...body, inputs: [{ ...body.inputs[0], sha256: sha256(PNG) }] };
    const fixed = call('/media/jobs', fixedBody, 'concurrent-failed-key');
    await until(() => storage.hits === before + 3);
    storage.release();
    const created = await fixed;
    expect(created.status, created.text).toBe(202);
  });
});

/** Optimizations written to the public state log (the runtime form stores its optimization there). */
function existingOptimizations(): number {
  try {
    return recorded('opt').size;
  } catch {
    return 0;
  }
}
