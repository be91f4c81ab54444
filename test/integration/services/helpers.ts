import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import type { RetryClock } from '../../../src/main/core/api-clients/retry/retry-after.js';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

export interface Call {
  method: string;
  path: string;
}

/**
 * Every request this process sends to the service, recorded by wrapping the global fetch (the
 * client looks it up at each call) and `http.request`/`https.request` (streamed uploads may use
 * them), so a test can prove that a refused input sent nothing at all.
 */
export class FetchRecorder {
  readonly calls: Call[] = [];
  private readonly original = globalThis.fetch;
  private readonly originalHttp = http.request;
  private readonly originalHttps = https.request;

  private record(method: string | undefined, url: URL): void {
    if (!url.pathname.includes('/_simulator/'))
      this.calls.push({ method: (method ?? 'GET').toUpperCase(), path: url.pathname.replace(/^\/v1/, '') });
  }

  install(): void {
    const original = this.original;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      this.record(init?.method ?? (input instanceof Request ? input.method : 'GET'), url);
      return original(input, init);
    }) as typeof fetch;
    const wrap = (request: typeof http.request, protocol: string) =>
      ((...args: unknown[]) => {
        const [first, second] = args as [unknown, unknown];
        if (first instanceof URL || typeof first === 'string') {
          this.record((second as { method?: string } | undefined)?.method, new URL(first));
        } else if (first && typeof first === 'object') {
          const o = first as {
            method?: string;
            host?: string;
            hostname?: string;
            port?: number;
            path?: string;
          };
          this.record(
            o.method,
            new URL(o.path ?? '/', `${protocol}//${o.hostname ?? o.host ?? 'localhost'}`),
          );
        }
        return (request as (...a: unknown[]) => http.ClientRequest)(...args);
      }) as typeof http.request;
    http.request = wrap(this.originalHttp, 'http:');
    https.request = wrap(this.originalHttps, 'https:');
  }
  uninstall(): void {
    globalThis.fetch = this.original;
    http.request = this.originalHttp;
    https.request = this.originalHttps;
  }
  reset(): void {
    this.calls.length = 0;
  }
  /** Requests other than discovery reads. */
  get sent(): Call[] {
    return this.calls.filter((c) => !(c.method === 'GET' && c.path === '/services'));
  }
}

export interface ServicesWorld {
  sim: RunningSimulator;
  core: CoreParts;
  profileId: string;
  client: PublicApiClient;
  services: ServiceEntry[];
  service(alias: string): ServiceEntry;
  dir: string;
  file(name: string, content: Buffer | string): string;
  close(): Promise<void>;
}

export async function openWorld(): Promise<ServicesWorld> {
  const dir = tempFolder('fw-services-');
  const sim = await openSimulator({ tokens: ['other-identity'] });
  const core = await openDesktopCore(sim, {
    dataDir: path.join(dir, 'data'),
    engine: {
      pollBackoff: { initialMs: 50, maxMs: 200, factor: 1.5, jitter: 0.1 },
      create: { backoff: { initialMs: 50, maxMs: 300, factor: 2, jitter: 0.1 }, maxAttempts: 2 },
      download: { retryDelayMs: 20 },
    },
  });
  const profileId = core.profiles.activeId();
  const client = await core.profiles.clientFor(profileId);
  const services = (await client.listServices()).data;
  return {
    sim,
    core,
    profileId,
    client,
    services,
    service(alias) {
      const found = services.find((s) => s.modelAlias === alias);
      if (!found) throw new Error(`no service ${alias}`);
      return found;
    },
    dir,
    file(name, content) {
      const target = path.join(dir, name);
      writeFileSync(target, content);
      return target;
    },
    async close() {
      await core.close();
      await sim.close();
    },
  };
}

/** The service lost `assetId`; the journal keeps it, still valid for this credential, as `lostId`. */
export function loseCachedAsset(world: ServicesWorld, model: string, assetId: string, lostId: string): void {
  const row = world.core.journal.uploads.get(world.client.profileId, model, assetId)!;
  world.core.journal.uploads.forget(row.id);
  const { id: _id, ...kept } = row;
  world.core.journal.uploads.record({
    ...kept,
    credentialFingerprint: row.credentialFingerprint!,
    assetId: lostId,
  });
}

/** A client of another identity (or a wrong key) on the same simulator. */
export function clientWithToken(
  sim: RunningSimulator,
  token: string,
  profileId = 'simulator',
  options: ConstructorParameters<typeof PublicApiClient>[1] = {},
): PublicApiClient {
  return new PublicApiClient(
    {
      profileId,
      kind: 'simulator',
      baseUrl: sim.baseUrl,
      secret: async () => token,
    },
    options,
  );
}

/** A clock whose waits return at once and are recorded: Retry-After is checked without waiting. */
export function instantClock(): RetryClock & { waits: number[] } {
  const waits: number[] = [];
  return {
    waits,
    now: () => Date.now() + waits.reduce((a, b) => a + b, 0),
    sleep: async (ms: number) => {
      waits.push(ms);
    },
  };
}

/** A string of exactly `n` code points, 2 UTF-16 units each (so code points, not units, are counted). */
export function astral(n: number): string {
  return '𝒜'.repeat(n);
}

/**
 * One simulator world per test file with every outgoing request recorded, and `refusedLocally`,
 * which proves a call was refused by a local limit check with nothing sent.
 */
export function useServicesWorld(onOpen: (world: ServicesWorld) => void) {
  const recorder = new FetchRecorder();
  let world: ServicesWorld | undefined;
  beforeAll(async () => {
    world = await openWorld();
    onOpen(world);
    recorder.install();
  });
  afterAll(async () => {
    recorder.uninstall();
    await world?.close();
  });
  afterEach(() => recorder.reset());
  async function refusedLocally(run: () => Promise<unknown>, message: RegExp): Promise<void> {
    recorder.reset();
    const error = await run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputLimitError);
    expect((error as Error).message).toMatch(message);
    expect(recorder.calls).toEqual([]);
  }
  return { recorder, refusedLocally };
}
