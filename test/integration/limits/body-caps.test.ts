import type { ServerResponse } from 'node:http';
import { createGzip, gzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { BodyTooLargeError, MAX_JSON_BODY_BYTES } from '../../../src/main/core/api-clients/capped-body.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { streamChat } from '../../../src/main/core/operations/chat.js';
import { startHostileServer } from '../../support/hostile-server.js';

/**
 * JSON, error and SSE bodies are capped after decompression: a gzip bomb is refused at the cap,
 * never inflated whole; one huge server-sent event stops the stream.
 */

/** 64 MiB of JSON white space inside a valid body, gzip-compressed to a few dozen KiB. */
let bomb: (prefix: string, suffix: string) => Buffer;
beforeAll(() => {
  const padding = Buffer.alloc(4 * MAX_JSON_BODY_BYTES, ' ');
  bomb = (prefix, suffix) => gzipSync(Buffer.concat([Buffer.from(prefix), padding, Buffer.from(suffix)]));
});

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function clientOf(handler: (res: ServerResponse) => void) {
  const server = await startHostileServer((_req, res) => handler(res));
  servers.push(server);
  const client = new PublicApiClient({
    profileId: 'p',
    kind: 'personal',
    baseUrl: server.base,
    secret: async () => 'k-caps',
  });
  return { server, client };
}

describe('body caps', () => {
  it('a gzip bomb as a JSON answer is refused at 16 MiB, not inflated', async () => {
    const payload = bomb('{"object":"list","data":[', ']}');
    expect(payload.length).toBeLessThan(1024 * 1024);
    const { client } = await clientOf((res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(payload);
    });
    const error = await client.listServices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as Error).message).toContain('larger than 16 MiB once decompressed');
  });

  it('a gzip bomb as an error body is not read past 1 MiB: the status still decides', async () => {
    const payload = bomb('{"code":"overloaded","message":"busy","requestId":"r","retryable":true', '}');
    const { client } = await clientOf((res) => {
      res.writeHead(503, {
        'content-type': 'application/json',
        'content-encoding': 'gzip',
        'retry-after': '3',
      });
      res.end(payload);
    });
    const error = (await client.listServices().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.kind, error.retryAfterSeconds]).toEqual([503, 'unavailable', 3]);
    expect(error.apiCode).toBe('unrecognised_error_body'); // the inflated body was never parsed
  });

  it('an endless error body is not read past the cap, even to scrub the key from it', async () => {
    // the server inflates to at most 256 MiB and counts what it could send before the client left
    const LIMIT = 256 * 1024 * 1024;
    let sent = 0;
    const { client } = await clientOf((res) => {
      res.writeHead(503, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      let open = true;
      res.on('close', () => {
        open = false;
        gzip.destroy();
      });
      const pump = () => {
        while (open && sent < LIMIT) {
          sent += chunk.length;
          if (!gzip.write(chunk)) return void gzip.once('drain', pump);
        }
        if (open) gzip.end();
      };
      gzip.write('{"code":"overloaded","message":"k-caps');
      pump();
    });
    const error = (await client.listServices().catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(503);
    await new Promise((r) => setTimeout(r, 200));
    expect(sent).toBeLessThan(64 * 1024 * 1024);
  });

  it('one server-sent event over 1 MiB stops the chat stream', async () => {
    let sent = 0;
    const { client } = await clientOf((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let stopped = false;
      res.on('close', () => (stopped = true));
      res.write('data: "');
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!stopped && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end('"\n\n');
      };
      pump();
    });
    const error = await streamChat(client, { model: 'chat', messages: [] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyTooLargeError);
    expect((error as Error).message).toContain('event is larger than 1 MiB');
    expect(sent).toBeLessThan(16 * 1024 * 1024);
  });
});
