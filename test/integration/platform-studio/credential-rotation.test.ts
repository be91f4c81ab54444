import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  legacySecretFile,
  openPlatformBackend,
  secretStoreFiles,
  type PlatformBackend,
} from '../../../src/main/core/platform/platform-backend.js';
import type { PlatformSettings } from '../../../src/main/core/platform/platform-settings.js';
import { EncryptedFileSecretStore } from '../../../src/main/core/secrets/encrypted-file-secret-store.js';
import { RecoveryRefs } from '../../../src/main/core/secrets/recovery-refs.js';
import { RowEncryptedSecretStore } from '../../../src/main/core/secrets/row-encrypted-secret-store.js';
import { SecretStoreError } from '../../../src/main/core/secrets/secret-store.js';
import type { RunningPlatformHost } from '../../../src/main/host/platform-host.js';
import { startPlatformStudio } from '../../../src/main/host/platform-studio.js';
import type { BridgeResponse } from '../../../src/shared/bridge/api.js';
import { PLATFORM_CSRF_HEADER } from '../../../src/shared/bridge/platform-host-protocol.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { PlatformSecrets } from '../../../src/simulator/platform/secrets.js';
import { launchCodeOf } from '../../support/platform-simulator.js';
import { APP_KEY, freePort } from '../platform-host/harness.js';
import { forwardingProxy } from '../../support/worlds/forwarding-proxy.js';
import { openPlatformSimulator } from '../../support/worlds/platform-simulator.js';

/**
 * Rotating PLATFORM_APP_CREDENTIAL (issue 27 §3): the backend's secret store is encrypted under its
 * own data key, so a backend restarted with another credential keeps every person signed in, every
 * recovery reference and the readUrl signing key. A secret file of the earlier version is imported
 * once, under the current credential or PLATFORM_APP_CREDENTIAL_PREVIOUS; under neither, start
 * stops with a message naming that setting and leaves the file untouched.
 *
 * The platform accepts the rotated credentials: a proxy in front of the simulator (runtime and
 * session service alike) exchanges each of them for the simulator's own before passing the call on.
 */

const ROTATED = ['fw-rotated-credential-one-111111', 'fw-rotated-credential-two-222222'];
const T2V = {
  profileId: 'x',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'Snow falling on a quiet railway platform',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

const repoRoot = path.resolve(import.meta.dirname, '../../..');
let root: string;
let simDir: string;
let sim: RunningSimulator;
let proxy: { base: string; close(): Promise<void> };
let origin: string;
let port: number;
let rendererDir: string;

/** Passes every request on to the simulator with a rotated credential exchanged for its own. */
function credentialProxy(upstreamOrigin: string, accepted: readonly string[], real: string) {
  return forwardingProxy(upstreamOrigin, {
    onRequest: (request) => {
      const auth = request.headers.authorization;
      if (auth && accepted.some((c) => auth === `Bearer ${c}`))
        request.headers.authorization = `Bearer ${real}`;
    },
  });
}

beforeAll(async () => {
  // slow enough that a video job is still running across the restarts below
  ({ root, sim } = await openPlatformSimulator({ prefix: 'fw-credential-rotation-', timeScale: 1 }));
  simDir = path.join(root, 'sim');
  rendererDir = path.join(root, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Framewright</title>');
  const real = sim.platform.apps.find((a) => a.appKey === APP_KEY)!.appCredential;
  proxy = await credentialProxy(new URL(sim.platform.runtimeBaseUrl).origin, ROTATED, real);
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await proxy?.close();
});

const realCredential = () => sim.platform.apps.find((a) => a.appKey === APP_KEY)!.appCredential;

function settingsWith(appCredential: string, previousAppCredential?: string): PlatformSettings {
  const through = (url: string) => proxy.base + new URL(url).pathname.replace(/\/$/, '');
  return {
    runtimeBaseUrl: through(sim.platform.runtimeBaseUrl),
    sessionBaseUrl: through(sim.platform.sessionBaseUrl),
    appKey: APP_KEY,
    appCredential,
    ...(previousAppCredential ? { previousAppCredential } : {}),
    publicOrigin: origin,
    secureCookies: false,
  };
}

interface Running {
  backend: PlatformBackend;
  host: RunningPlatformHost;
}
const running: Running[] = [];
afterEach(async () => {
  for (const { backend, host } of running.splice(0)) {
    await host.close().catch(() => undefined);
    await backend.close().catch(() => undefined);
  }
});

/** Opens the backend on `dataDir` and its host (resume is the caller's: after what it checks). */
async function start(dataDir: string, settings: PlatformSettings): Promise<Running> {
  const backend = await openPlatformBackend({ dataDir, settings });
  const host = await startPlatformStudio(backend, { publicOrigin: origin, rendererDir, port, log: () => {} });
  const started = { backend, host };
  running.push(started);
  return started;
}
async function stop(started: Running) {
  running.splice(running.indexOf(started), 1);
  await started.host.close();
  await started.backend.close();
}

interface Page {
  cookie: string;
  csrf: string;
}
/**
 * A POST to the host on a connection of its own (a kept-alive one could be the previous host's,
 * closed by its restart).
 */
function post(
  pathname: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; setCookie: string; json: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${origin}${pathname}`,
      {
        method: 'POST',
        agent: false,
        headers: { Origin: origin, 'Content-Type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            setCookie: String(res.headers['set-cookie']?.[0] ?? ''),
            json: JSON.parse(text) as unknown,
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

async function signIn(user: string): Promise<Page> {
  const launchCode = await launchCodeOf(sim, APP_KEY, user);
  let res = await post('/platform/session', {}, { launchCode });
  // the person confirms whom the link signs in (login CSRF), as the page asks them to
  const held = (res.json as { error?: { code?: string; details?: { confirmToken?: string } } }).error;
  if (held?.code === 'platform.signin_confirm')
    res = await post('/platform/session', {}, { confirmToken: held.details?.confirmToken, confirm: true });
  const answer = res.json as { ok: boolean; result: { csrfToken: string } };
  if (!answer.ok) throw new Error(`sign-in failed for ${user}`);
  return { cookie: res.setCookie.split(';')[0]!, csrf: answer.result.csrfToken };
}
async function invoke<T>(page: Page, method: string, params: unknown = {}): Promise<BridgeResponse<T>> {
  const res = await post(
    '/bridge/invoke',
    { Cookie: page.cookie, [PLATFORM_CSRF_HEADER]: page.csrf },
    { method, params },
  );
  return res.json as BridgeResponse<T>;
}
async function call<T>(page: Page, method: string, params: unknown = {}): Promise<T> {
  const answer = await invoke<T>(page, method, params);
  if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result;
}

/** A signed-in member with a running job: their page and the job's platform id. */
async function memberWithJob(): Promise<{ page: Page; platformJobId: string }> {
  const page = await signIn('member');
  const draft = await call<{ id: string }>(page, 'drafts.create', { form: T2V });
  const submitted = await call<{ state: string; jobRowId: number }>(page, 'video.submit', {
    draftId: draft.id,
  });
  expect(submitted.state).toBe('accepted');
  const job = await call<{ jobId: string; status: string }>(page, 'jobs.get', {
    jobRowId: submitted.jobRowId,
  });
  expect(['queued', 'running']).toContain(job.status);
  return { page, platformJobId: job.jobId };
}

/** The reference the platform gave for a job (the simulator derives it from its own key). */
const platformRefOf = (platformJobId: string) =>
  new PlatformSecrets(simDir).derive('jrr', 'job_recovery', platformJobId);

/** What the store holds for a job, read from its files (the backend is stopped or reading too). */
async function storedRefOf(dataDir: string, platformJobId: string): Promise<string | undefined> {
  const store = RowEncryptedSecretStore.open(secretStoreFiles(dataDir));
  try {
    return await new RecoveryRefs(store).recall(platformJobId);
  } finally {
    store.close();
  }
}

async function signedInAs(page: Page): Promise<string | undefined> {
  const answer = await invoke<{ signedIn: { userId: string } }>(page, 'app.info');
  return answer.ok ? answer.result.signedIn.userId : undefined;
}

/**
 * Turns a data folder into what the earlier version left: the store's entries in one file keyed by
 * `credential`, and no row store nor data key.
 */
async function asLegacyDataFolder(dataDir: string, credential: string): Promise<Buffer> {
  const files = secretStoreFiles(dataDir);
  const store = RowEncryptedSecretStore.open(files);
  const entries: Record<string, string> = {};
  for (const prefix of ['runtime-session:', 'runtime-session-of:', 'job-recovery-ref:'])
    for (const name of await store.namesWithPrefix(prefix)) entries[name] = (await store.get(name))!;
  // the earlier version kept one signing key (this version takes it over: read-url-keys.ts)
  const keys = JSON.parse((await store.get('read-url-signing-keys'))!) as { current: { key: string } };
  entries['read-url-signing-key'] = keys.current.key;
  store.close();
  expect(Object.keys(entries).some((name) => name.startsWith('job-recovery-ref:'))).toBe(true);
  rmSync(path.dirname(files.keyFile), { recursive: true });
  rmSync(path.dirname(files.dbFile), { recursive: true });
  const legacy = new EncryptedFileSecretStore(legacySecretFile(dataDir), credential);
  for (const [name, value] of Object.entries(entries)) await legacy.set(name, value);
  return readFileSync(legacySecretFile(dataDir));
}

describe('rotating the application credential', () => {
  it('keeps every session, recovery reference and the signing key across a restart with another credential', async () => {
    const dataDir = path.join(root, 'rotated');
    const first = await start(dataDir, settingsWith(realCredential()));
    await first.backend.resumeAll();
    const { page, platformJobId } = await memberWithJob();
    const signingKey = Buffer.from(first.backend.signingKey.signing);
    await stop(first);
    expect(await storedRefOf(dataDir, platformJobId)).toBe(platformRefOf(platformJobId));

    // the platform rotated the credential: the backend starts with the new one only
    const second = await start(dataDir, settingsWith(ROTATED[0]!));
    expect(await storedRefOf(dataDir, platformJobId)).toBe(platformRefOf(platformJobId));
    expect(second.backend.signingKey.signing.equals(signingKey)).toBe(true);
    await second.backend.resumeAll();
    // the same cookie still works: the person is still signed in
    expect(await signedInAs(page)).toBe('usr_sim_member');
    const jobs = await call<{ items: { jobId: string }[] }>(page, 'jobs.list', {});
    expect(jobs.items.map((j) => j.jobId)).toContain(platformJobId);
    await stop(second);

    // and again, with a third credential: nothing depends on any of them
    const third = await start(dataDir, settingsWith(ROTATED[1]!));
    expect(await signedInAs(page)).toBe('usr_sim_member');
    await stop(third);
    // no file of the data folder holds a credential or the reference outside the store
    for (const file of readdirFiles(dataDir)) {
      if (file === secretStoreFiles(dataDir).keyFile) continue;
      const text = readFileSync(file).toString('latin1');
      for (const secret of [realCredential(), ...ROTATED, platformRefOf(platformJobId)])
        expect(text.includes(secret), `${file}`).toBe(false);
    }
  });
});

describe('importing the secret file of the earlier version', () => {
  for (const [label, written, settings] of [
    ['with the current credential', ROTATED[0]!, () => settingsWith(ROTATED[0]!)],
    [
      'with PLATFORM_APP_CREDENTIAL_PREVIOUS after a rotation',
      ROTATED[0]!,
      () => settingsWith(ROTATED[1]!, ROTATED[0]!),
    ],
  ] as const) {
    it(`imports it once ${label}, then removes it`, async () => {
      const dataDir = path.join(root, `legacy-${label.length}`);
      const first = await start(dataDir, settingsWith(realCredential()));
      const { page, platformJobId } = await memberWithJob();
      const signingKey = Buffer.from(first.backend.signingKey.signing);
      await stop(first);
      await asLegacyDataFolder(dataDir, written);
      expect(existsSync(secretStoreFiles(dataDir).keyFile)).toBe(false);

      const second = await start(dataDir, settings());
      expect(existsSync(legacySecretFile(dataDir))).toBe(false);
      expect(second.backend.signingKey.signing.equals(signingKey)).toBe(true);
      expect(await storedRefOf(dataDir, platformJobId)).toBe(platformRefOf(platformJobId));
      expect(await signedInAs(page)).toBe('usr_sim_member');
      await stop(second);
    });
  }

  it('stops at start when neither credential opens it, naming the setting, and leaves the file untouched', async () => {
    const dataDir = path.join(root, 'legacy-neither');
    const first = await start(dataDir, settingsWith(realCredential()));
    await memberWithJob();
    await stop(first);
    const before = await asLegacyDataFolder(dataDir, ROTATED[0]!);

    for (const settings of [
      settingsWith(ROTATED[1]!),
      settingsWith(ROTATED[1]!, 'not-the-one-it-was-written-under'),
    ]) {
      const error = await openPlatformBackend({ dataDir, settings }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SecretStoreError);
      const message = (error as Error).message;
      expect(message).toContain('PLATFORM_APP_CREDENTIAL_PREVIOUS');
      for (const secret of [...ROTATED, realCredential(), 'not-the-one-it-was-written-under'])
        expect(message).not.toContain(secret);
      expect(readFileSync(legacySecretFile(dataDir)).equals(before)).toBe(true);
      // nothing was made in its place
      expect(existsSync(secretStoreFiles(dataDir).keyFile)).toBe(false);
      expect(existsSync(secretStoreFiles(dataDir).dbFile)).toBe(false);
    }

    // `serve --platform` says so in one line and exits 2, naming the setting and no secret
    const cli = spawnSync(
      process.execPath,
      [
        path.join(repoRoot, 'bin/framewright.js'),
        'serve',
        '--platform',
        '--port',
        '0',
        '--data-dir',
        dataDir,
      ],
      {
        cwd: repoRoot,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? root,
          PLATFORM_APP_RUNTIME_BASE_URL: settingsWith(ROTATED[1]!).runtimeBaseUrl,
          PLATFORM_APP_SESSION_BASE_URL: settingsWith(ROTATED[1]!).sessionBaseUrl,
          PLATFORM_APP_KEY: APP_KEY,
          PLATFORM_APP_CREDENTIAL: ROTATED[1]!,
          FRAMEWRIGHT_PUBLIC_URL: origin,
        },
      },
    );
    expect(cli.status).toBe(2);
    expect(cli.stderr).toMatch(/^framewright: The earlier secret file .* PLATFORM_APP_CREDENTIAL_PREVIOUS/);
    for (const secret of [...ROTATED, realCredential()]) expect(cli.stderr).not.toContain(secret);
    expect(readFileSync(legacySecretFile(dataDir)).equals(before)).toBe(true);
  });
});

function readdirFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}
