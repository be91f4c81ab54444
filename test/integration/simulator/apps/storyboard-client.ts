import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import type { Json } from '../client.js';
import { OpenApiResponses } from '../openapi-validator.js';
import type { PlatformApp, PlatformClient } from '../platform/platform-client.js';

/** The spec's recommended digest input: UTF-8 JSON, keys sorted at every level, no whitespace. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}

export const sha256Digest = (text: string | Buffer) =>
  'sha256:' + createHash('sha256').update(text).digest('hex');

/** storyboard-helper's documented digest of a body-less GET: canonical JSON of `{method, path}`. */
export const readDigest = (path: string) => sha256Digest(canonical({ method: 'GET', path }));
/** ... and of a JSON body: its canonical JSON. */
export const bodyDigest = (body: unknown) => sha256Digest(canonical(body));

export interface AppResponse {
  status: number;
  headers: Headers;
  data: Json;
  text: string;
}

/**
 * A caller of storyboard-helper written from its OpenAPI document: every JSON answer is
 * validated against that document (served by the app at `{businessBaseUrl}/openapi.json`).
 */
export class StoryboardClient {
  constructor(
    readonly sim: RunningSimulator,
    readonly platform: PlatformClient,
    readonly studio: PlatformApp,
    readonly baseUrl: string,
    readonly openapi: OpenApiResponses,
  ) {}

  static async open(sim: RunningSimulator, platform: PlatformClient): Promise<StoryboardClient> {
    const helper = sim.platform.apps.find((a) => a.appKey === 'storyboard-helper')!;
    const baseUrl = helper.businessBaseUrl!;
    const res = await fetch(`${baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as Json;
    return new StoryboardClient(sim, platform, platform.app(0), baseUrl, new OpenApiResponses(doc));
  }

  /** A production grant of the studio for storyboard-helper, for one scope and digest. */
  async grant(
    sessionId: string,
    scope: string,
    requestDigest: string,
    idempotencyKey: string,
  ): Promise<string> {
    const res = await this.platform.session(this.studio, 'POST', '/app-grants', {
      json: {
        runtimeSessionId: sessionId,
        calleeAppKey: 'storyboard-helper',
        apiVersion: '2026-01',
        scope,
        idempotencyKey,
        requestDigest,
      },
    });
    expect(res.status, res.text).toBe(200);
    return res.data.grant as string;
  }

  async call(
    method: string,
    path: string,
    options: { grant?: string; body?: string; headers?: Record<string, string> } = {},
  ): Promise<AppResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.grant !== undefined) headers['X-Platform-App-Grant'] = options.grant;
    if (options.body !== undefined) headers['Content-Type'] ??= 'application/json';
    const url = this.baseUrl + path;
    const res = await fetch(url, { method, headers, body: options.body, redirect: 'manual' });
    const text = await res.text();
    const data =
      (res.headers.get('content-type') ?? '').includes('application/json') && text
        ? JSON.parse(text)
        : undefined;
    if (data !== undefined) this.openapi.check(method, url, res.status, data);
    return { status: res.status, headers: res.headers, data, text };
  }

  /** A read with a fresh grant bound to it (`storyboard.read`, its own digest). */
  async read(sessionId: string, path: string, key: string): Promise<AppResponse> {
    const grant = await this.grant(sessionId, 'storyboard.read', readDigest(path), key);
    return this.call('GET', path, { grant });
  }

  /** The simulator-only inspection of a board (the simulator's token, no grant). */
  async inspect(boardId: string): Promise<Json> {
    const res = await this.call('GET', `/_simulator/boards/${boardId}`, {
      headers: { Authorization: `Bearer ${this.sim.token}` },
    });
    expect(res.status, res.text).toBe(200);
    return res.data;
  }
}

/** Asserts one of storyboard-helper's error bodies. */
export function expectAppError(res: AppResponse, status: number, code: string): void {
  expect(res.status, res.text).toBe(status);
  expect(res.data).toMatchObject({ code, message: expect.any(String), requestId: expect.any(String) });
}
