import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import {
  BATCH_FILE_MAX_CHARS,
  BRIDGE_MAX_BODY_BYTES,
} from '../../../src/shared/bridge/browser-host-protocol.js';
import { openHostTestWorld, type HostTestWorld } from '../../support/worlds/browser-host.js';

/** The host's body limit and the contract's largest batch file agree: one constant, derived. */

let world: HostTestWorld;
let host: RunningBrowserHost;

beforeAll(async () => {
  world = await openHostTestWorld('fw-host-limit-');
  host = await startBrowserHost({
    dispatcher: world.core.dispatcher,
    events: world.core.events,
    rendererDir: world.rendererDir,
  });
});

afterAll(async () => {
  await host?.close();
  await world?.close();
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
