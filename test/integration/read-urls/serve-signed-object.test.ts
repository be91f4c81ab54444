import { createHash, randomBytes } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObjectStorage } from '../../../src/main/core/storage/object-storage.js';
import { serveSignedObject } from '../../../src/main/core/storage/serve-signed-object.js';
import { signReadUrl } from '../../../src/main/core/storage/signed-read-url.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const key = randomBytes(32);
const subjectKeyOf = (user: string) =>
  createHash('sha256').update(`t\0a\0${user}`).digest('hex').slice(0, 32);
const alice = subjectKeyOf('alice');
const bob = subjectKeyOf('bob');

let dir: string;
let server: Server;
let origin: string;
let clock = new Date('2026-11-23T12:00:00Z');
const storages = new Map<string, ObjectStorage>();
let pngSha: string;
let bobOnlySha: string;

beforeAll(async () => {
  dir = tempFolder('fw-serve-objects-');
  storages.set(alice, new ObjectStorage(path.join(dir, alice)));
  storages.set(bob, new ObjectStorage(path.join(dir, bob)));
  pngSha = (await storages.get(alice)!.putFile(Readable.from([PNG]))).sha256;
  bobOnlySha = (await storages.get(bob)!.putFile(Readable.from([Buffer.from('bob private notes')]))).sha256;
  server = http.createServer((req, res) => {
    if (!req.url?.startsWith('/objects/')) {
      res.writeHead(404).end();
      return;
    }
    void serveSignedObject(req, res, {
      signingKey: key,
      storageFor: (subjectKey) => storages.get(subjectKey),
      now: () => clock,
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const signed = (subjectKey: string, sha256: string, hours = 1) =>
  signReadUrl(key, {
    publicOrigin: origin,
    subjectKey,
    sha256,
    expiresAt: new Date(clock.getTime() + hours * 3_600_000),
  });

/** A raw request (fetch would normalise dot segments and slashes before sending). */
function raw(target: string, method = 'GET', headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const u = new URL(origin);
      const req = http.request({ host: u.hostname, port: u.port, method, path: target, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      });
      req.on('error', reject);
      req.end();
    },
  );
}
const target = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('serveSignedObject', () => {
  it('serves the object with its stored type, nosniff and no-store, without any cookie', async () => {
    const res = await fetch(signed(alice, pngSha));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.headers.get('content-length')).toBe(String(PNG.length));
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);
  });

  it('answers HEAD without a body and one byte range with 206', async () => {
    const head = await raw(target(signed(alice, pngSha)), 'HEAD');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(PNG.length));
    expect(head.body).toHaveLength(0);
    const part = await raw(target(signed(alice, pngSha)), 'GET', { Range: 'bytes=1-3' });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 1-3/${PNG.length}`);
    expect(part.body).toEqual(PNG.subarray(1, 4));
    const beyond = await raw(target(signed(alice, pngSha)), 'GET', { Range: `bytes=${PNG.length}-` });
    expect(beyond.status).toBe(416);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])(
    'refuses %s (read-only) and changes nothing',
    async (method) => {
      const res = await raw(target(signed(alice, pngSha)), method);
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD');
      expect((await fetch(signed(alice, pngSha))).status).toBe(200);
    },
  );

  it('refuses a wrong signature with 403 and never echoes the URL', async () => {
    const u = new URL(signed(alice, pngSha));
    u.searchParams.set('sig', '0'.repeat(64));
    const res = await fetch(u);
    expect(res.status).toBe(403);
    const text = await res.text();
    expect(text).not.toContain(pngSha);
    expect(text).not.toContain(alice);
  });

  it('refuses an expired URL with 403', async () => {
    const url = signed(alice, pngSha, 1);
    const before = clock;
    clock = new Date(before.getTime() + 2 * 3_600_000);
    try {
      expect((await fetch(url)).status).toBe(403);
    } finally {
      clock = before;
    }
  });

  it("never opens another subject's object, even with a valid signature for that object under its own subject", async () => {
    // Signed for alice, naming bob's object: alice's storage has no such object.
    expect((await fetch(signed(alice, bobOnlySha))).status).toBe(404);
    // alice's signature moved onto bob's subject key: refused.
    const moved = signed(alice, pngSha).replace(alice, bob);
    expect((await fetch(moved)).status).toBe(403);
    // A subject the backend does not know.
    expect((await fetch(signed(subjectKeyOf('nobody'), pngSha))).status).toBe(404);
  });

  it.each([
    ['dot segments', (p: string) => p.replace(`/objects/${alice}/`, `/objects/${bob}/../${alice}/`)],
    ['encoded slashes', (p: string) => p.replace(`${alice}/`, `${alice}%2F`)],
    ['repeated slashes', (p: string) => p.replace('/objects/', '/objects//')],
    ['a trailing slash', (p: string) => p.replace(pngSha, `${pngSha}/`)],
  ])('refuses a path with %s as not found', async (_name, change) => {
    const res = await raw(change(target(signed(alice, pngSha))));
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain(pngSha);
  });
});
