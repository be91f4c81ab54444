import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import { mediaUrl } from '../../../src/main/core/library/media-resolver.js';
import { registerMediaProtocol } from '../../../src/main/shell/media-protocol.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { BROWSER_HOST, ELECTRON_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function request(
  port: number,
  options: { method?: string; path?: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path ?? '/',
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}

let core: AppCore;
let host: RunningBrowserHost;
let dataDir: string;
let png: Buffer;
let auth: Record<string, string>;

beforeAll(async () => {
  dataDir = tempFolder('fw-host-studio-');
  const rendererDir = path.join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  const pngPath = path.join(dataDir, 'frame.png');
  execFileSync(locateMediaTools().ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'color=c=red:s=64x48',
    '-frames:v',
    '1',
    pngPath,
  ]);
  png = readFileSync(pngPath);
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: () => Promise.reject(new Error('no simulator in this test')),
    secretStore: new UnavailableSecretStore('not needed in this test'),
    resumeOnStart: false,
  });
  host = await startBrowserHost({
    dispatcher: core.dispatcher,
    events: core.events,
    rendererDir,
    media: core.studio.media,
    files: { stage: (source, name) => core.studio.staged.stageStream(source, name) },
  });
  auth = { host: `127.0.0.1:${host.port}`, authorization: `Bearer ${host.token}` };
});

afterAll(async () => {
  await host?.close();
  await core?.close();
});

const stage = (headers: Record<string, string>, body: Buffer | string = png, name = 'frame.png') =>
  request(host.port, {
    method: 'POST',
    path: `/bridge/files?name=${encodeURIComponent(name)}`,
    headers: { 'content-type': 'application/octet-stream', ...headers },
    body,
  });

describe('POST /bridge/files (file staging)', () => {
  it('refuses calls without the token, from another origin or host, or with a form-able content type', async () => {
    expect((await stage({ host: auth.host! })).status).toBe(401);
    expect((await stage({ ...auth, origin: 'http://evil.example' })).status).toBe(403);
    expect((await stage({ ...auth, host: `evil.example:${host.port}` })).status).toBe(421);
    expect((await stage({ ...auth, 'content-type': 'text/plain' })).status).toBe(415);
    expect((await request(host.port, { path: '/bridge/files', headers: auth })).status).toBe(405);
    expect(
      existsSync(path.join(dataDir, 'staging')) ? readdirSync(path.join(dataDir, 'staging')) : [],
    ).toEqual([]);
  });

  it('streams the bytes into staging under a core-chosen id and answers the probed facts, never a path', async () => {
    const res = await stage({ ...auth, origin: `http://${auth.host}` }, png, '../../etc/evil name.png');
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body.toString()) as { ok: boolean; result: Record<string, unknown> };
    expect(body.ok).toBe(true);
    expect(body.result).toMatchObject({
      kind: 'image',
      mimeType: 'image/png',
      width: 64,
      height: 48,
      fileName: 'evil name.png',
    });
    expect(String(body.result.id)).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.toString()).not.toContain(dataDir);
    expect(readdirSync(path.join(dataDir, 'staging'))).toContain(body.result.id);
  });

  it('a file that is not media is refused and removed', async () => {
    const res = await stage(auth, 'just some text', 'notes.txt');
    const body = JSON.parse(res.body.toString()) as { ok: boolean; error: { code: string; message: string } };
    expect(body.ok).toBe(false);
    expect(body.error.message).toContain('notes.txt');
    expect(body.error.message).not.toContain(dataDir);
  });
});

describe('GET /media/... (library-only media route)', () => {
  it('serves a staged file by its random id, with byte ranges and a poster, sandboxed', async () => {
    const staged = JSON.parse((await stage(auth)).body.toString()) as { result: { id: string } };
    const url = `/media/staged/${staged.result.id}`;
    const full = await request(host.port, { path: url, headers: auth });
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('image/png');
    expect(full.body.equals(png)).toBe(true);
    const part = await request(host.port, { path: url, headers: { ...auth, range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.body.length).toBe(10);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${png.length}`);
    const poster = await request(host.port, { path: `${url}/poster`, headers: auth });
    expect(poster.status).toBe(200);
    expect(poster.headers['content-type']).toBe('image/png');
    // the random staging id is the capability: <img> cannot send a token, and none is needed
    const anonymous = await request(host.port, { path: url, headers: { host: auth.host! } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(anonymous.headers['x-content-type-options']).toBe('nosniff');
    expect(anonymous.headers['content-disposition']).toBe('inline');
    // but never from a rebound host name
    expect(
      (await request(host.port, { path: url, headers: { host: `evil.example:${host.port}` } })).status,
    ).toBe(421);
  });

  /** A verified output row whose file (in the library) holds `bytes`, as a server declared it. */
  const libraryOutput = (name: string, bytes: Buffer | string, declaredMime: string) => {
    const { journal } = core.services;
    const key = `media-types-${name}`;
    journal.jobs.recordIntent({
      idempotencyKey: key,
      profileId: 'simulator',
      model: 'test-model',
      serviceKind: 'image_generation',
      body: { prompt: name },
    });
    const job = journal.jobs.markAccepted(key, {
      jobId: `job_${name}`,
      requestId: `req_${name}`,
      status: 'succeeded',
    });
    const [output] = journal.outputs.recordAnnounced(
      job.id,
      [{ assetId: `asset_${name}`, mimeType: declaredMime }],
      'outputs',
    );
    const folder = path.join(core.services.libraryDir, 'test', name);
    mkdirSync(folder, { recursive: true });
    const file = path.join(folder, name);
    writeFileSync(file, bytes);
    journal.outputs.markDownloading(output!.id, `${file}.part`);
    journal.outputs.markVerified(output!.id, {
      localPath: file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      byteSize: Buffer.byteLength(bytes),
      mimeType: declaredMime,
    });
    return `library/${job.id}/${output!.id}`;
  };
  const HOSTILE_SVG =
    '<svg xmlns="http://www.w3.org/2000/svg"><script>fetch("/bridge/invoke")</script><rect width="9" height="9"/></svg>';
  const HOSTILE_HTML = '<!doctype html><html><body><script>alert(document.cookie)</script></body></html>';

  it('serves a hostile SVG or HTML from the library only as a sandboxed download, whatever was declared', async () => {
    for (const [name, bytes, declared] of [
      ['hostile.svg', HOSTILE_SVG, 'image/svg+xml'],
      ['hostile.html', HOSTILE_HTML, 'text/html'],
      ['lying.mp4', HOSTILE_HTML, 'video/mp4'],
    ] as const) {
      const route = libraryOutput(name, bytes, declared);
      const res = await request(host.port, {
        path: mediaUrl(BROWSER_HOST, route),
        headers: { host: auth.host! },
      });
      expect(res.status, name).toBe(200);
      expect(res.headers['content-type'], name).toBe('application/octet-stream');
      expect(res.headers['content-disposition'], name).toBe('attachment');
      expect(res.headers['content-security-policy'], name).toBe("sandbox; default-src 'none'");
      expect(res.headers['x-content-type-options'], name).toBe('nosniff');
      // ffmpeg is never run on it: no poster
      const poster = await request(host.port, {
        path: mediaUrl(BROWSER_HOST, `${route}/poster`),
        headers: auth,
      });
      expect(poster.status, name).toBe(404);
    }
    // a real image is served as what its bytes are, not as what the server declared
    const route = libraryOutput('real.png', png, 'text/html');
    const res = await request(host.port, {
      path: mediaUrl(BROWSER_HOST, route),
      headers: { host: auth.host! },
    });
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toBe('inline');
    expect(res.headers['content-security-policy']).toBe("sandbox; default-src 'none'");
    expect(res.body.equals(png)).toBe(true);
  });

  it('serves a library route only with the signature the core gave it', async () => {
    const route = libraryOutput('signed.png', png, 'image/png');
    const other = libraryOutput('other.png', png, 'image/png');
    const signed = mediaUrl(BROWSER_HOST, route);
    expect(signed).toMatch(/\?s=[\w-]{32}$/);
    expect((await request(host.port, { path: signed, headers: { host: auth.host! } })).status).toBe(200);
    const signature = new URL(signed, 'http://x').searchParams.get('s');
    for (const p of [
      `/media/${route}`,
      `/media/${route}?s=`,
      `/media/${route}?s=${'A'.repeat(32)}`,
      `/media/${other}?s=${signature}`,
      `/media/${route}/poster?s=${signature}`,
    ]) {
      // even with the host token: the signature is what names a library file
      const res = await request(host.port, { path: p, headers: auth });
      expect(res.status, p).toBe(404);
    }
  });

  it('never resolves a path: traversal, unknown ids and other files are 404', async () => {
    writeFileSync(path.join(dataDir, 'secret.txt'), 'not for the page');
    for (const p of [
      '/media/../journal.sqlite',
      '/media/%2e%2e/secret.txt',
      '/media/staged/..%2f..%2fsecret.txt',
      '/media/library/1/1',
      '/media/library/1/1/../../../secret.txt',
      '/media/staged/00000000-0000-0000-0000-000000000000',
      `/media/${encodeURIComponent(path.join(dataDir, 'secret.txt'))}`,
    ]) {
      const res = await request(host.port, { path: p, headers: auth });
      expect(res.body.toString(), p).not.toContain('not for the page');
      expect([404], p).toContain(res.status);
    }
  });

  it('the Electron protocol handler resolves through the same resolver (tested without Electron)', async () => {
    const staged = JSON.parse((await stage(auth)).body.toString()) as { result: { id: string } };
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const fetched: string[] = [];
    registerMediaProtocol(
      { handle: (_scheme: string, h: (request: Request) => Promise<Response>) => (handler = h) } as never,
      async (url) => {
        fetched.push(url);
        return new Response(readFileSync(new URL(url)), { status: 200 });
      },
      core.studio,
    );
    const ok = await handler!(new Request(`framewright-media://media/staged/${staged.result.id}`));
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    const svg = await handler!(
      new Request(mediaUrl(ELECTRON_HOST, libraryOutput('shell.svg', HOSTILE_SVG, 'image/svg+xml'))),
    );
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('application/octet-stream');
    expect(svg.headers.get('content-disposition')).toBe('attachment');
    expect(svg.headers.get('x-content-type-options')).toBe('nosniff');
    expect(svg.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    for (const bad of [
      'framewright-media://media/library/9/9',
      `framewright-media://other/staged/${staged.result.id}`,
      'framewright-media://media/..%2f..%2fsecret.txt',
      'framewright-media://media/%E0%A4%A',
    ])
      expect([400, 404], bad).toContain((await handler!(new Request(bad))).status);
    expect(fetched).toHaveLength(2);
  });
});
