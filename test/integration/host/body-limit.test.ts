import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import {
  BATCH_FILE_MAX_CHARS,
  BRIDGE_MAX_BODY_BYTES,
} from '../../../src/shared/bridge/browser-host-protocol.js';

/** The host's body limit and the contract's largest batch file agree: one constant, derived. */

let dataDir: string;
let core: AppCore;
let host: RunningBrowserHost;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-host-limit-'));
  const rendererDir = path.join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  core = await createAppCore({
    dataDir,
    host: 'browser',
    launchSimulator: () => Promise.reject(new Error('no simulator in this test')),
    secretStore: new UnavailableSecretStore('not needed in this test'),
    resumeOnStart: false,
  });
  host = await startBrowserHost({ dispatcher: core.dispatcher, events: core.events, rendererDir });
});

afterAll(async () => {
  await host?.close();
  await core?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function post(body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: host.port,
        method: 'POST',
        path: '/bridge/invoke',
        headers: {
          host: `127.0.0.1:${host.port}`,
          authorization: `Bearer ${host.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    // the host may answer 413 and close before reading everything
    req.on('error', (error) => (String(error).includes('EPIPE') ? undefined : reject(error)));
    req.end(body);
  });
}

/** A batch preview call whose file has `text`. */
const batchCall = (text: string) =>
  JSON.stringify({
    method: 'studio.batch.preview',
    params: {
      file: { name: 'prompts.txt', text },
      defaults: {
        model: 'h3-video',
        generationMode: 't2v',
        seconds: 5,
        orientation: 'landscape',
        resolutionTier: '768p',
      },
    },
  });

describe('the bridge body limit', () => {
  it('is derived from the largest batch file the contract allows (12 MB + 64 KiB)', () => {
    expect(BATCH_FILE_MAX_CHARS).toBe(2_000_000);
    expect(BRIDGE_MAX_BODY_BYTES).toBe(12_000_000 + 64 * 1024);
  });

  it('reads a body of exactly the limit and refuses one byte more', async () => {
    const prefix = '{"method":"app.info","params":{},"padding":"';
    const pad = (size: number) => prefix + 'x'.repeat(size - prefix.length - 2) + '"}';
    const atLimit = await post(pad(BRIDGE_MAX_BODY_BYTES));
    expect(atLimit.status).toBe(200);
    expect(JSON.parse(atLimit.body)).toMatchObject({ ok: true, result: { name: 'Framewright' } });
    const over = await post(pad(BRIDGE_MAX_BODY_BYTES + 1));
    expect(over.status).toBe(413);
    expect(JSON.parse(over.body)).toMatchObject({ ok: false, error: { code: 'host.too_large' } });
  });

  it('lets through every batch file the contract accepts, even one JSON escapes six-fold', async () => {
    for (const [name, text] of [
      ['ASCII with quotes', `"${'a'.repeat(BATCH_FILE_MAX_CHARS - 2)}\n`],
      ['Chinese', '灯塔'.repeat(BATCH_FILE_MAX_CHARS / 2)],
      ['control characters', '\u0001'.repeat(BATCH_FILE_MAX_CHARS)],
    ] as const) {
      expect(text.length, name).toBe(BATCH_FILE_MAX_CHARS);
      const answer = await post(batchCall(text));
      // reaches the core: whatever the preview says, it is not the host refusing the size
      expect(answer.status, name).toBe(200);
      expect(answer.body, name).not.toContain('host.too_large');
      expect(answer.body, name).not.toContain('bridge.invalid_params');
    }
    // one character more is refused by the contract, with a clear error, not by the transport
    const tooLong = await post(batchCall('a'.repeat(BATCH_FILE_MAX_CHARS + 1)));
    expect(tooLong.status).toBe(200);
    expect(JSON.parse(tooLong.body)).toMatchObject({ ok: false, error: { code: 'bridge.invalid_params' } });
  });
});
