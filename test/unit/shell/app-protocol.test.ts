import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  APP_INDEX_URL,
  APP_SCHEME,
  APP_SCHEME_PRIVILEGES,
  registerAppProtocol,
  rendererFileFor,
} from '../../../src/main/shell/app-protocol.js';
import { contentSecurityPolicy } from '../../../src/main/host/content-security-policy.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/** A built renderer folder with a secret file beside it. */
function layout() {
  const root = tempFolder('fw-app-scheme-');
  const rendererDir = path.join(root, 'out', 'renderer');
  mkdirSync(path.join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Framewright</title>');
  writeFileSync(path.join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'out', 'secret.txt'), 'not for the page');
  writeFileSync(path.join(root, 'journal.sqlite'), 'private');
  return { root, rendererDir };
}

/** `protocol.handle` of a fake Electron protocol module, serving files as net.fetch(file:) would. */
function serve(rendererDir: string) {
  let handler: ((request: Request) => Promise<Response>) | undefined;
  let scheme: string | undefined;
  registerAppProtocol(
    {
      handle: (name: string, h: (request: Request) => Promise<Response>) => {
        scheme = name;
        handler = h;
      },
    } as never,
    rendererDir,
    async (url) => new Response(await readFile(fileURLToPath(url))),
  );
  expect(scheme).toBe(APP_SCHEME);
  return (url: string, method = 'GET') => handler!(new Request(url, { method }));
}

describe('the renderer on framewright-app://studio', () => {
  it('is a standard, secure scheme with fetch, declared before ready', () => {
    expect(APP_SCHEME_PRIVILEGES).toEqual({
      scheme: 'framewright-app',
      privileges: { standard: true, secure: true, supportFetchAPI: true },
    });
    expect(APP_INDEX_URL).toBe('framewright-app://studio/index.html');
  });

  it('serves the files of out/renderer with the CSP and nosniff', async () => {
    const { rendererDir } = layout();
    const get = serve(rendererDir);
    const index = await get(APP_INDEX_URL);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('<title>Framewright</title>');
    expect(index.headers.get('content-security-policy')).toBe(contentSecurityPolicy());
    expect(index.headers.get('x-content-type-options')).toBe('nosniff');
    const root = await get('framewright-app://studio/');
    expect(await root.text()).toContain('<title>Framewright</title>');
    const script = await get('framewright-app://studio/assets/index-abc.js?v=1#x');
    expect(await script.text()).toBe('console.log(1)');
  });

  it('refuses every path out of out/renderer, other hosts and other methods', async () => {
    const { rendererDir, root } = layout();
    const get = serve(rendererDir);
    for (const url of [
      'framewright-app://studio/../secret.txt',
      'framewright-app://studio/%2e%2e/secret.txt',
      'framewright-app://studio/%2e%2e%2fsecret.txt',
      'framewright-app://studio/assets/%2e%2e/%2e%2e/%2e%2e/journal.sqlite',
      'framewright-app://studio/..%5c..%5cjournal.sqlite',
      'framewright-app://studio/%2fetc%2fpasswd',
      `framewright-app://studio/${encodeURIComponent(path.join(root, 'journal.sqlite'))}`,
      'framewright-app://studio/index.html%00.js',
      'framewright-app://studio/%E0%A4%A',
      'framewright-app://other/index.html',
      'framewright-app://studio/missing.js',
    ]) {
      const response = await get(url);
      expect(response.status, url).toBe(404);
      const body = await response.text();
      expect(body, url).not.toContain('not for the page');
      expect(body, url).not.toContain('private');
    }
    expect((await get(APP_INDEX_URL, 'POST')).status).toBe(404);
  });

  it('maps URLs to files inside the folder only', () => {
    const { rendererDir } = layout();
    expect(rendererFileFor(rendererDir, 'framewright-app://studio/assets/index-abc.js')).toBe(
      path.join(rendererDir, 'assets', 'index-abc.js'),
    );
    expect(
      rendererFileFor(rendererDir, 'framewright-app://studio/%2e%2e%2f%2e%2e%2fjournal.sqlite'),
    ).toBeUndefined();
    expect(rendererFileFor(rendererDir, 'file:///etc/passwd')).toBeUndefined();
    expect(rendererFileFor(rendererDir, 'not a url')).toBeUndefined();
  });
});
