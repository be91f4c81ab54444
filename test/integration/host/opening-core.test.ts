/**
 * `framewright serve` listens while its core is still opening (the page loads meanwhile): the host
 * keeps every guard from its first moment, bridge calls wait for the core, pushed events start once
 * it is open, and a core that cannot open answers every call with the reason.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { startBrowserHost, type RunningBrowserHost } from '../../../src/main/host/browser-host.js';
import { openingCoreParts } from '../../../src/main/host/opening-core.js';
import {
  HOST_EVENTS_PROTOCOL,
  HOST_TOKEN_PROTOCOL_PREFIX,
} from '../../../src/shared/bridge/browser-host-protocol.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A core that opens only when `open()` is called (or fails when `fail()` is). */
function gatedCore() {
  const dataDir = tempFolder('fw-opening-');
  const rendererDir = path.join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  let release!: () => void;
  let refuse!: (error: Error) => void;
  const gate = new Promise<void>((resolve, reject) => {
    release = resolve;
    refuse = reject;
  });
  const core: Promise<AppCore> = gate.then(() =>
    createAppCore({
      dataDir,
      host: BROWSER_HOST,
      launchSimulator: () => Promise.reject(new Error('no simulator in this test')),
      secretStore: new UnavailableSecretStore('not needed in this test'),
    }),
  );
  cleanups.push(async () => {
    refuse(new Error('the test is over')); // a core never opened stays closed
    await core.then((opened) => opened.close()).catch(() => undefined);
  });
  return { dataDir, rendererDir, core, open: release, fail: refuse };
}

async function hostOn(rendererDir: string, core: Promise<AppCore>): Promise<RunningBrowserHost> {
  const host = await startBrowserHost({ ...openingCoreParts(core), rendererDir });
  cleanups.push(() => host.close());
  return host;
}

const invoke = (
  host: RunningBrowserHost,
  method: string,
  params: unknown = {},
  token: string | null = host.token,
) =>
  fetch(`${host.origin}/bridge/invoke`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify({ method, params }),
  });

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the browser host while its core is opening', () => {
  it('serves the page at once and answers a bridge call once the core has opened', async () => {
    const gated = gatedCore();
    const host = await hostOn(gated.rendererDir, gated.core);

    const page = await fetch(`${host.origin}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>studio</title>');

    let answered = false;
    const call = invoke(host, 'app.info').then((response) => {
      answered = true;
      return response;
    });
    await settle(100);
    expect(answered).toBe(false);

    gated.open();
    const response = await call;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      ok: true,
      result: { name: 'Framewright', host: 'browser', dataDir: gated.dataDir },
    });
  });

  it('refuses a call without the token or with a wrong one before the core has opened', async () => {
    const gated = gatedCore();
    const host = await hostOn(gated.rendererDir, gated.core);
    const none = await invoke(host, 'app.info', {}, null);
    expect(none.status).toBe(401);
    const wrong = await invoke(host, 'app.info', {}, 'nope');
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).not.toContain(host.token);
  });

  it("forwards the core's events to a socket that connected before the core opened", async () => {
    const gated = gatedCore();
    const host = await hostOn(gated.rendererDir, gated.core);
    const socket = new WebSocket(host.origin.replace(/^http/, 'ws') + '/bridge/events', [
      HOST_EVENTS_PROTOCOL,
      `${HOST_TOKEN_PROTOCOL_PREFIX}${host.token}`,
    ]);
    cleanups.push(() => socket.close());
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const received = new Promise<unknown>((resolve) =>
      socket.on('message', (data) => {
        const message = JSON.parse(String(data)) as { event: string };
        if (message.event === 'settings.changed') resolve(message);
      }),
    );

    gated.open();
    const changed = await invoke(host, 'settings.update', { theme: 'dark' });
    expect(changed.status).toBe(200);
    expect(await received).toEqual({
      event: 'settings.changed',
      payload: { theme: 'dark', locale: 'system' },
    });
  });

  it('answers every call with the reason when the core cannot open, and serves no media', async () => {
    const gated = gatedCore();
    const host = await hostOn(gated.rendererDir, gated.core);
    const call = invoke(host, 'app.info');
    gated.fail(new Error('The journal at /tmp/x/journal.sqlite is damaged.'));

    const response = await call;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: false,
      error: {
        code: 'host.core_unavailable',
        message: 'The studio could not start: The journal at /tmp/x/journal.sqlite is damaged.',
      },
    });
    const later = await invoke(host, 'drafts.list');
    expect(((await later.json()) as { error: { code: string } }).error.code).toBe('host.core_unavailable');
    const media = await fetch(`${host.origin}/media/library/1/1?sig=abc`);
    expect(media.status).toBe(404);
  });
});

describe('framewright serve when its core cannot open', () => {
  it('says why and exits with code 6, the host closed', async () => {
    const dataDir = tempFolder('fw-opening-serve-');
    // a folder where the journal's file should be: SQLite cannot open it
    mkdirSync(path.join(dataDir, 'journal.sqlite'));
    const root = path.resolve(import.meta.dirname, '../../..');
    const child = spawn(
      process.execPath,
      [path.join(root, 'bin/framewright.js'), 'serve', '--json', '--port', '0', '--data-dir', dataDir],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(6);
    expect(stderr).toContain('unable to open database file');
    // the link it printed (if the host listened first) no longer answers
    const printed = stdout.trim() ? (JSON.parse(stdout.trim().split('\n')[0]!) as { origin: string }) : null;
    if (printed) await expect(fetch(`${printed.origin}/`)).rejects.toThrow();
  });
});
