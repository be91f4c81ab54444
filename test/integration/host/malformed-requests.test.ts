import { randomBytes } from 'node:crypto';
import { unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import { openHostTestWorld, type HostTestWorld } from '../../support/worlds/browser-host.js';

/**
 * The raw-socket malformed-request test: requests no browser would send, written byte for byte over
 * node:net, each answered with a 4xx/5xx (or a closed socket) — and afterwards the host still serves
 * the page, the bridge and the events socket. The host runs in this process, so any crash (an
 * uncaught exception or an unhandled rejection in a handler) fails this file.
 */

interface RawAnswer {
  status: number | 'closed';
  text: string;
}

/** Writes `bytes`, optionally half-closes, and reads until the server closes (or `waitMs` passes). */
function raw(
  port: number,
  bytes: string | Buffer,
  options: { halfClose?: boolean; waitMs?: number } = {},
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      resolve({ status: match ? Number(match[1]) : 'closed', text });
    };
    const timer = setTimeout(finish, options.waitMs ?? 3000);
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      // one answer is enough: keep-alive connections would otherwise wait for the timer
      if (/\r\n\r\n/.test(Buffer.concat(chunks).toString('latin1'))) setTimeout(finish, 50);
    });
    socket.on('error', finish);
    socket.on('close', finish);
    socket.write(bytes, () => {
      if (options.halfClose) socket.end();
    });
  });
}

let world: HostTestWorld;
let host: RunningBrowserHost;
let ownHost: string;
let bigFile: string;
let vanishing: string;

beforeAll(async () => {
  world = await openHostTestWorld('fw-host-raw-');
  const { core } = world;
  bigFile = path.join(world.dataDir, 'big.bin');
  writeFileSync(bigFile, randomBytes(16 * 1024 * 1024));
  vanishing = path.join(world.dataDir, 'vanishing.bin');
  host = await startBrowserHost({
    dispatcher: core.dispatcher,
    events: core.events,
    rendererDir: world.rendererDir,
    // the real resolver, plus two files that disappear: one before it is opened, one mid-stream
    media: {
      resolve: async (route, signature) => {
        if (route === 'test/vanishing') {
          writeFileSync(vanishing, 'gone before it is read');
          unlinkSync(vanishing);
          return { path: vanishing, mimeType: 'video/mp4', disposition: 'inline' };
        }
        if (route === 'test/big') return { path: bigFile, mimeType: 'video/mp4', disposition: 'inline' };
        return core.studio.media.resolve(route, signature);
      },
    },
    files: { stage: (source, name) => core.studio.staged.stageStream(source, name) },
  });
  ownHost = `127.0.0.1:${host.port}`;
});

afterAll(async () => {
  await host?.close();
  await world?.close();
});

const upgrade = (target: string, hostHeader: string | undefined, extra = '') =>
  `GET ${target} HTTP/1.1\r\n` +
  (hostHeader === undefined ? '' : `Host: ${hostHeader}\r\n`) +
  'Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
  `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\n${extra}\r\n`;

async function stillServes(): Promise<void> {
  const page = await raw(port(), `GET / HTTP/1.1\r\nHost: ${ownHost}\r\nConnection: close\r\n\r\n`);
  expect(page.status).toBe(200);
  expect(page.text).toContain('<title>studio</title>');
  const call = JSON.stringify({ method: 'app.info', params: {} });
  const answer = await raw(
    port(),
    `POST /bridge/invoke HTTP/1.1\r\nHost: ${ownHost}\r\nAuthorization: Bearer ${host.token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${call.length}\r\nConnection: close\r\n\r\n${call}`,
  );
  expect(answer.status).toBe(200);
  expect(answer.text).toContain('"ok":true');
  const events = new WebSocket(`ws://${ownHost}/bridge/events`, {
    headers: { authorization: `Bearer ${host.token}` },
  });
  await new Promise((resolve, reject) => {
    events.on('open', resolve);
    events.on('error', reject);
  });
  events.close();
}

const port = () => host.port;

describe('the browser host survives any request', () => {
  it('answers every malformed request with 4xx/5xx or a closed socket, and keeps serving', async () => {
    const auth = `Authorization: Bearer ${host.token}\r\n`;
    const cases: { name: string; bytes: string | Buffer; expect: number | number[]; halfClose?: boolean }[] =
      [
        { name: 'GET //[', bytes: `GET //[ HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`, expect: [400, 404] },
        {
          name: 'bad percent-encoding',
          bytes: `GET /%E0%A4%A HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: 400,
        },
        {
          name: 'bad percent-encoding in a media route',
          bytes: `GET /media/%E0%A4%A HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: 400,
        },
        {
          name: 'a NUL byte in the path',
          bytes: `GET /assets/%00.js HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: [400, 404],
        },
        {
          name: 'a NUL byte in a media route',
          bytes: `GET /media/staged/%00 HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: [400, 404],
        },
        {
          name: 'bad signature encoding in a media route',
          bytes: `GET /media/library/1/1?s=%ZZ HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: 404,
        },
        {
          name: 'absolute-form target',
          bytes: `GET http://evil.example/ HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: 400,
        },
        { name: 'upgrade to //[ with our Host', bytes: upgrade('//[', ownHost, auth), expect: [400, 404] },
        { name: 'upgrade to //[ with a foreign Host', bytes: upgrade('//[', 'evil.example'), expect: 421 },
        { name: 'upgrade with no Host', bytes: upgrade('/bridge/events', undefined), expect: [400, 421] },
        {
          name: 'upgrade with a rebound Host and the token',
          bytes: upgrade('/bridge/events', `evil.example:${host.port}`, auth),
          expect: 421,
        },
        {
          name: 'upgrade with a foreign Origin',
          bytes: upgrade('/bridge/events', ownHost, `${auth}Origin: http://127.0.0.1:1\r\n`),
          expect: 403,
        },
        { name: 'upgrade to another path', bytes: upgrade('/bridge/other', ownHost, auth), expect: 404 },
        { name: 'upgrade without the token', bytes: upgrade('/bridge/events', ownHost), expect: 401 },
        {
          name: 'oversized headers',
          bytes: `GET / HTTP/1.1\r\nHost: ${ownHost}\r\nX-Big: ${'a'.repeat(128 * 1024)}\r\n\r\n`,
          expect: 431,
        },
        { name: 'unknown method', bytes: `BREW / HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`, expect: [400, 405] },
        { name: 'method not allowed', bytes: `DELETE / HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`, expect: 405 },
        { name: 'no HTTP version', bytes: `GET /\r\n\r\n`, expect: [400, 421] },
        { name: 'binary garbage', bytes: Buffer.from([0, 1, 2, 255, 13, 10, 13, 10]), expect: 400 },
        {
          name: 'half-closed mid-headers',
          bytes: `GET / HTTP/1.1\r\nHost: ${ownHost}\r\nX-Half`,
          expect: [400],
          halfClose: true,
        },
        {
          name: 'huge Content-Length, no body',
          bytes:
            `POST /bridge/invoke HTTP/1.1\r\nHost: ${ownHost}\r\n${auth}` +
            'Content-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n',
          expect: 413,
        },
        {
          name: 'huge Content-Length on the code exchange',
          bytes:
            `POST /bridge/session HTTP/1.1\r\nHost: ${ownHost}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 99999999999\r\n\r\n',
          expect: 413,
        },
        {
          name: 'a body shorter than announced, then half-closed',
          bytes:
            `POST /bridge/invoke HTTP/1.1\r\nHost: ${ownHost}\r\n${auth}` +
            'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"method":',
          expect: [400],
          halfClose: true,
        },
        {
          name: 'a broken chunked body',
          bytes:
            `POST /bridge/invoke HTTP/1.1\r\nHost: ${ownHost}\r\n${auth}` +
            'Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n',
          expect: 400,
        },
        {
          name: 'invalid JSON',
          bytes:
            `POST /bridge/invoke HTTP/1.1\r\nHost: ${ownHost}\r\n${auth}` +
            'Content-Type: application/json\r\nContent-Length: 3\r\n\r\n{{{',
          expect: 400,
        },
        {
          name: 'a media file deleted before it is read',
          bytes: `GET /media/test/vanishing HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`,
          expect: 404,
        },
      ];
    for (const c of cases) {
      const answer = await raw(port(), c.bytes, { halfClose: c.halfClose });
      const allowed = Array.isArray(c.expect) ? c.expect : [c.expect];
      // a half-closed request may also just be closed: nothing is owed to it
      if (c.halfClose && answer.status === 'closed') continue;
      expect(allowed, `${c.name}: ${answer.text.slice(0, 80)}`).toContain(answer.status);
    }
    await stillServes();
  });

  it('survives a media file deleted while it streams, and a reader that goes away', async () => {
    const socket = net.connect(host.port, '127.0.0.1');
    const firstBytes = new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.write(`GET /media/test/big HTTP/1.1\r\nHost: ${ownHost}\r\n\r\n`);
    await firstBytes;
    socket.pause();
    unlinkSync(bigFile);
    await new Promise((resolve) => setTimeout(resolve, 200));
    socket.destroy();
    await stillServes();
  });

  it('survives a broken WebSocket frame on the events channel', async () => {
    const socket = new WebSocket(`ws://${ownHost}/bridge/events`, {
      headers: { authorization: `Bearer ${host.token}` },
    });
    await new Promise((resolve, reject) => {
      socket.on('open', resolve);
      socket.on('error', reject);
    });
    const closed = new Promise((resolve) => socket.on('close', resolve));
    socket.on('error', () => undefined);
    // an unmasked frame with a reserved opcode: a protocol error on the server's side
    (socket as unknown as { _socket: net.Socket })._socket.write(Buffer.from([0x8f, 0x00]));
    await closed;
    await stillServes();
  });
});
