import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStudioHost, type StartedStudioHost } from '../../support/studio-host-process.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * `framewright serve`: the page keeps the host token in its own tab, so a new tab needs a new
 * one-time link; each line typed in the terminal prints one, and each link signs in once.
 */

let rendererDir: string;
let serve: StartedStudioHost;

const exchange = (launchUrl: string) =>
  fetch(`${serve.host.origin}/bridge/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: new URL(launchUrl).searchParams.get('code') }),
  });

beforeAll(async () => {
  rendererDir = tempFolder('fw-serve-links-');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  serve = await startStudioHost({ rendererDir });
});

afterAll(async () => {
  await serve?.stop();
  if (serve) rmSync(serve.host.dataDir, { recursive: true, force: true });
});

describe('framewright serve', () => {
  it('prints a new one-time link for each line typed, each valid once', async () => {
    const first = serve.host;
    expect((await exchange(first.launchUrl)).status).toBe(200);
    expect((await exchange(first.launchUrl)).status).toBe(401);
    serve.type('\n');
    const another = JSON.parse(await serve.nextLine()) as { launchUrl: string; token?: string };
    expect(another.token).toBeUndefined();
    expect(another.launchUrl).not.toBe(first.launchUrl);
    expect(another.launchUrl.startsWith(`${first.origin}/?code=`)).toBe(true);
    const signedIn = await exchange(another.launchUrl);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { result: { token: string } }).result.token).toBe(first.token);
    expect((await exchange(another.launchUrl)).status).toBe(401);
  });
});
