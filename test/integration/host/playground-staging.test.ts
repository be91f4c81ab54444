import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { makePng, makeWav } from '../simulator/fixtures.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let dir: string;
let sim: RunningSimulator;
let core: AppCore;
let host: RunningBrowserHost;
let origin: string;

beforeAll(async () => {
  dir = tempFolder('fw-playground-staging-');
  const rendererDir = path.join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  sim = await openSimulator({ timeScale: 0.05 });
  core = await createAppCore({
    dataDir: dir,
    host: BROWSER_HOST,
    launchSimulator: async () => ({ ...sim, close: async () => undefined }),
    secretStore: new UnavailableSecretStore('tests'),
    resumeOnStart: false,
  });
  // the same wiring as `framewright serve` (src/main/host/opening-core.ts)
  host = await startBrowserHost({
    dispatcher: core.dispatcher,
    events: core.events,
    rendererDir,
    media: core.studio.media,
    files: { stage: (source, name, purpose) => core.studio.staged.stageStream(source, name, purpose) },
  });
  origin = `http://127.0.0.1:${host.port}`;
});
afterAll(async () => {
  await host?.close();
  await core?.close();
  await sim?.close();
});

interface Envelope {
  ok: boolean;
  result: { id?: string; fileId?: string; fileName?: string; byteSize?: number };
  error?: { code: string; message: string };
}

/** What the renderer's `bridge.stageFile(file, purpose)` sends in the browser host. */
async function stage(name: string, body: Buffer | string, purpose?: string, token = host.token) {
  const query = new URLSearchParams({ name, ...(purpose ? { for: purpose } : {}) });
  const response = await fetch(`${origin}/bridge/files?${query.toString()}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${token}` },
    body,
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

async function call<T = Record<string, unknown>>(method: string, params: unknown): Promise<T> {
  const answer = await core.dispatcher.dispatch(method, params);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.result as T;
}

const chunkFiles = () => {
  const root = path.join(dir, 'staging', 'chunks');
  return existsSync(root)
    ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    : [];
};

describe('Playground files through the one staging route', () => {
  it('streams a Playground file into the store; its id works in the Playground and nowhere else', async () => {
    const staged = await stage('speech.wav', makeWav(75), 'playground');
    expect(staged.status).toBe(200);
    expect(staged.body.ok).toBe(true);
    expect(staged.body.result).toEqual({
      fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      fileName: 'speech.wav',
      byteSize: makeWav(75).length,
    });
    expect(JSON.stringify(staged.body)).not.toContain(dir);
    const fileId = staged.body.result.fileId!;
    const t = await call<{ segments: unknown[] }>('playground.transcribe', {
      model: 'echo-transcribe',
      fileId,
      language: 'en',
    });
    expect(t.segments.length).toBe(15);
    // a Playground file is not a composer file (no probe, no draft may name it)
    await expect(call('files.get', { fileId })).rejects.toMatchObject({ code: 'file.not_found' });
    // and a composer file (the default purpose) is not a Playground file
    const frame = await stage('frame.png', makePng(64, 48));
    expect(frame.body).toMatchObject({ ok: true, result: { kind: 'image', fileName: 'frame.png' } });
    await expect(
      call('playground.ocr', { model: 'glyph-ocr', fileId: frame.body.result.id! }),
    ).rejects.toMatchObject({ code: 'file.not_found' });
    const png = await stage('page.png', makePng(100, 60), 'playground');
    const ocr = await call<{ boxes: unknown[] }>('playground.ocr', {
      model: 'glyph-ocr',
      fileId: png.body.result.fileId!,
    });
    expect(ocr.boxes.length).toBeGreaterThan(0);
  });

  it('takes any type for the Playground (a CSV to rerank), under a name that never leaves the store', async () => {
    const csv = await stage('../../docs.csv', 'text\nalpha\nbeta\n', 'playground');
    // separators become '_' (the same cleaning as the chunked path): one name inside its own folder
    expect(csv.body).toMatchObject({ ok: true, result: { fileName: '_.._docs.csv', byteSize: 16 } });
    expect(chunkFiles().map((f) => f.name)).toContain('_.._docs.csv');
    expect(existsSync(path.join(dir, 'docs.csv'))).toBe(false);
    const empty = await stage('empty.txt', '', 'playground');
    expect(empty.body).toMatchObject({ ok: false, error: { code: 'usage.file' } });
  });

  it('refuses an unknown purpose and a call without the token, before reading the body', async () => {
    expect((await stage('a.txt', 'x', 'elsewhere')).status).toBe(400);
    expect((await stage('a.txt', 'x', 'playground', 'wrong-token')).status).toBe(401);
  });
});
