import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { RunningSimulator, SimulatorOptions } from '../../../../src/simulator/index.js';
import { openSimulator } from '../../../support/worlds/simulator.js';
import type { Json } from '../client.js';
import { OpenApiResponses } from '../openapi-validator.js';

export type PlatformApp = RunningSimulator['platform']['apps'][number];

export interface PlatformResponse {
  status: number;
  headers: Headers;
  data: Json;
  text: string;
}

/**
 * A plain HTTP client of the platform surfaces, as an application written only from the spec
 * would call them; every JSON answer is validated against the platform OpenAPI document.
 */
export class PlatformClient {
  constructor(
    readonly sim: RunningSimulator,
    readonly openapi: OpenApiResponses,
  ) {}

  get platform() {
    return this.sim.platform;
  }

  app(index: number): PlatformApp {
    return this.sim.platform.apps[index]!;
  }

  async request(
    method: string,
    url: string,
    options: { credential?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
  ): Promise<PlatformResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.credential !== undefined) headers.Authorization = `Bearer ${options.credential}`;
    let body = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    let data: Json = undefined;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) data = JSON.parse(text);
    if (data !== undefined) this.openapi.check(method, url, res.status, data);
    return { status: res.status, headers: res.headers, data, text };
  }

  /** A session-service call as `app` (its own credential unless another is given). */
  session(
    app: PlatformApp,
    method: string,
    suffix: string,
    options: { json?: unknown; body?: string; credential?: string; headers?: Record<string, string> } = {},
  ): Promise<PlatformResponse> {
    return this.request(method, `${this.platform.sessionBaseUrl}/apps/${app.appKey}${suffix}`, {
      credential: app.appCredential,
      ...options,
    });
  }

  /** Opens the application for a fixture person (the application center), returning the launch code. */
  async launch(app: PlatformApp, user: string): Promise<string> {
    const res = await fetch(this.platform.launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: app.appKey, user }),
    });
    const data = (await res.json()) as Json;
    expect(res.status, JSON.stringify(data)).toBe(200);
    return data.runtime.launchCode as string;
  }

  /** Opens the application and exchanges the code: a RuntimeSession of `user`. */
  async openSession(app: PlatformApp, user: string): Promise<Json> {
    const launchCode = await this.launch(app, user);
    const res = await this.session(app, 'POST', '/runtime-sessions:exchange', { json: { launchCode } });
    expect(res.status, JSON.stringify(res.data)).toBe(200);
    return res.data;
  }

  /** Moves the simulator clock forward. */
  async advanceClock(seconds: number): Promise<void> {
    const res = await fetch(this.sim.baseUrl + '/_simulator/clock', {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: seconds }),
    });
    expect(res.status).toBe(200);
  }

  /** Changes a person's access to an application (simulator switch). */
  async setAccess(
    app: PlatformApp,
    user: string,
    access: 'granted' | 'revoked' | 'renewal_blocked',
  ): Promise<void> {
    const res = await fetch(this.sim.baseUrl + '/_simulator/platform/access', {
      method: 'POST',
      headers: { Authorization: `Bearer ${this.sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: app.appKey, user, access }),
    });
    expect(res.status).toBe(200);
  }
}

/** Fetches the platform OpenAPI document the way a developer would: through the link in `/v1/openapi.json`. */
export async function platformDocument(sim: RunningSimulator): Promise<Json> {
  const main = (await (
    await fetch(sim.baseUrl + '/openapi.json', { headers: { Authorization: `Bearer ${sim.token}` } })
  ).json()) as Json;
  const res = await fetch(main['x-platform-openapi'] as string);
  expect(res.status).toBe(200);
  return res.json();
}

export async function startPlatformSimulator(
  options: SimulatorOptions = {},
): Promise<{ sim: RunningSimulator; client: PlatformClient }> {
  const sim = await openSimulator({ timeScale: 0.01, ...options });
  const openapi = new OpenApiResponses(await platformDocument(sim));
  return { sim, client: new PlatformClient(sim, openapi) };
}

/** Asserts a platform error body: code, message, request and trace ids, nothing secret. */
export function expectPlatformError(res: PlatformResponse, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.data)).toBe(status);
  expect(res.data).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
  expect(typeof res.data.traceId).toBe('string');
}

/** A runtime call as `app` for a session (or with other headers, e.g. a recovery reference). */
export function runtimeCall(
  client: PlatformClient,
  app: PlatformApp,
  method: string,
  suffix: string,
  options: { sessionId?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<PlatformResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.sessionId) headers['X-Platform-Runtime-Session-Id'] = options.sessionId;
  return client.request(method, client.platform.runtimeBaseUrl + suffix, {
    credential: app.appCredential,
    json: options.json,
    body: options.body,
    headers,
  });
}

/**
 * Reads `ids` with `POST /media/jobs:batch-get` until every one has ended (succeeded or failed)
 * and returns them; throws when they have not within `timeoutMs`.
 */
export async function settleRuntimeJobs(
  client: PlatformClient,
  app: PlatformApp,
  sessionId: string,
  ids: string[],
  timeoutMs = 90_000,
): Promise<Json[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await runtimeCall(client, app, 'POST', '/media/jobs:batch-get', {
      sessionId,
      json: { platformJobIds: ids },
    });
    expect(res.status, res.text).toBe(200);
    if (res.data.items.every((j: Json) => j.status === 'succeeded' || j.status === 'failed'))
      return res.data.items;
    if (Date.now() > deadline) throw new Error(`jobs did not settle: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Reads one job (`GET /media/jobs/{id}`) until it has ended and returns it; throws when it has not within `timeoutMs`. */
export async function pollRuntimeJob(
  client: PlatformClient,
  app: PlatformApp,
  sessionId: string,
  jobId: string,
  timeoutMs = 60_000,
): Promise<Json> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await runtimeCall(client, app, 'GET', `/media/jobs/${jobId}`, { sessionId });
    expect(res.status).toBe(200);
    if (res.data.status === 'succeeded' || res.data.status === 'failed') return res.data;
    if (Date.now() > deadline) throw new Error(`job still ${res.data.status}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/**
 * Downloads one result of a job as `app` for a session and checks it is what the job said:
 * 200, its `mimeType`, `byteSize` and `sha256`. Returns the bytes.
 */
export async function downloadVerifiedResult(
  app: PlatformApp,
  sessionId: string,
  result: { resultDownloadUrl: string; mimeType: string; byteSize: number; sha256: string },
): Promise<Buffer> {
  const download = await fetch(result.resultDownloadUrl, {
    headers: { Authorization: `Bearer ${app.appCredential}`, 'X-Platform-Runtime-Session-Id': sessionId },
  });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toBe(result.mimeType);
  const bytes = Buffer.from(await download.arrayBuffer());
  expect(bytes.length).toBe(result.byteSize);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(result.sha256);
  return bytes;
}
