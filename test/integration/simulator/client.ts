import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import type { RunningSimulator, SimulatorOptions } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { PublicError } from '../../../src/shared/api/errors.js';
import { MediaJob } from '../../../src/shared/api/media-jobs.js';
import { OpenApiResponses } from './openapi-validator.js';

/** Untyped JSON as a plain HTTP client sees it; the tests assert its shape (zod and the OpenAPI document). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type Json = any;

export interface ProbeStream {
  codec_type: string;
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  nb_frames?: string;
  channels?: number;
}
export interface ProbeJson {
  streams: ProbeStream[];
  format: { duration?: string };
}

/** A plain HTTP client over fetch, as a client written only from the spec would be. */
export class TestClient {
  constructor(
    readonly sim: RunningSimulator,
    readonly token: string,
    readonly openapi?: OpenApiResponses,
  ) {}

  get baseUrl(): string {
    return this.sim.baseUrl;
  }

  as(token: string): TestClient {
    return new TestClient(this.sim, token, this.openapi);
  }

  async request(
    method: string,
    path: string,
    options: { json?: unknown; body?: RequestInit['body']; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { Authorization: `Bearer ${this.token}`, ...options.headers };
    let body: RequestInit['body'] = options.body;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const url = path.startsWith('http') ? path : this.baseUrl + path;
    const res = await fetch(url, { method, headers, body });
    const text = method === 'HEAD' ? '' : await res.text();
    let data: Json = undefined;
    if ((res.headers.get('content-type') ?? '').includes('application/json') && text) data = JSON.parse(text);
    if (this.openapi && data !== undefined) this.openapi.check(method, url, res.status, data);
    return { status: res.status, headers: res.headers, data, text };
  }

  get(path: string, headers?: Record<string, string>) {
    return this.request('GET', path, { headers });
  }

  post(path: string, json: unknown, headers?: Record<string, string>) {
    return this.request('POST', path, { json, headers });
  }

  async upload(
    model: string,
    bytes: Buffer,
    options: { field?: string; filename?: string; type?: string; headers?: Record<string, string> } = {},
  ) {
    const form = new FormData();
    form.append(
      options.field ?? 'file',
      new Blob([new Uint8Array(bytes)], { type: options.type ?? 'application/octet-stream' }),
      options.filename ?? 'upload.bin',
    );
    return this.request('POST', `/assets/input?model=${encodeURIComponent(model)}`, {
      body: form,
      headers: options.headers,
    });
  }

  /** Uploads and returns the asset id (asserting 201). */
  async uploadId(
    model: string,
    bytes: Buffer,
    options: { field?: string; filename?: string } = {},
  ): Promise<string> {
    const res = await this.upload(model, bytes, options);
    expect(res.status, JSON.stringify(res.data)).toBe(201);
    return res.data.asset.assetId as string;
  }

  /** Polls a jobUrl until terminal; returns the final job and every status seen. */
  async waitJob(jobUrl: string, timeoutMs = 60_000): Promise<{ job: MediaJob; seen: string[] }> {
    const seen: string[] = [];
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await this.get(jobUrl);
      expect(res.status).toBe(200);
      const job = MediaJob.parse(res.data);
      if (seen.at(-1) !== job.status) seen.push(job.status);
      if (job.status === 'succeeded' || job.status === 'failed') return { job, seen };
      if (Date.now() > deadline) throw new Error(`job still ${job.status} after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  async download(url: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
    const res = await fetch(url, { headers: { Authorization: `Bearer ${this.token}` } });
    return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
  }
}

export async function startTestSimulator(
  options: SimulatorOptions = {},
): Promise<{ sim: RunningSimulator; client: TestClient }> {
  const sim = await openSimulator({ timeScale: 0.01, ...options });
  const res = await fetch(sim.baseUrl + '/openapi.json', {
    headers: { Authorization: `Bearer ${sim.token}` },
  });
  const openapi = new OpenApiResponses(await res.json());
  return { sim, client: new TestClient(sim, sim.token, openapi) };
}

/** Asserts a PublicError with exactly the allowed fields and the expected status and code. */
export function expectError(res: { status: number; data: Json }, status: number, code?: string): void {
  expect(res.status, JSON.stringify(res.data)).toBe(status);
  const parsed = PublicError.safeParse(res.data);
  expect(parsed.success, JSON.stringify(res.data)).toBe(true);
  expect(
    Object.keys(res.data).every((key) =>
      ['code', 'message', 'requestId', 'retryable', 'details'].includes(key),
    ),
  ).toBe(true);
  if (code) expect(res.data.code).toBe(code);
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export function ffprobe(file: string): ProbeJson {
  const out = execFileSync(locateMediaTools().ffprobe, [
    '-v',
    'error',
    '-show_entries',
    'format=duration:stream=codec_type,codec_name,width,height,r_frame_rate,nb_frames,channels',
    '-of',
    'json',
    file,
  ]);
  return JSON.parse(out.toString('utf8')) as ProbeJson;
}

export const H3_BASE = {
  model: 'h3-video',
  prompt: 'A lighthouse at dusk, waves rolling in',
  generationMode: 't2v',
  resolutionTier: '768p',
  orientation: 'landscape',
  seconds: 5,
} as const;
