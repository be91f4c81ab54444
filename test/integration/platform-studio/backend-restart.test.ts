import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/index.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { launchCodeOf, platformJobsOfSession } from '../../support/platform-simulator.js';
import { APP_KEY, freePort } from '../platform-host/harness.js';
import { openPlatformSimulator } from '../../support/worlds/platform-simulator.js';
import { signInWithLaunchCode } from '../../support/platform-sign-in.js';
import { platformBridgeCall, type SignedInPage } from '../../support/platform-bridge-call.js';

/**
 * The platform backend as a process (`framewright serve --platform`), killed with SIGKILL right
 * after a job was accepted and started again on the same data: the job is finished, never
 * created twice — with the person's session (batch-get) while it lasts, with the job's recovery
 * reference once it is gone.
 */
const root = path.resolve(import.meta.dirname, '../../..');
let tmp: string;
let sim: RunningSimulator;
let origin: string;
let port: number;

beforeAll(async () => {
  ({ root: tmp, sim } = await openPlatformSimulator({ prefix: 'fw-platform-restart-', timeScale: 0.02 }));
  mkdirSync(path.join(tmp, 'renderer'));
  writeFileSync(path.join(tmp, 'renderer', 'index.html'), '<!doctype html><title>Framewright</title>');
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
});

const app = () => sim.platform.apps.find((a) => a.appKey === APP_KEY)!;

async function startBackend(): Promise<{
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--platform',
      '--json',
      '--port',
      String(port),
      '--data-dir',
      path.join(tmp, 'data'),
      '--renderer-dir',
      path.join(tmp, 'renderer'),
    ],
    {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? tmp,
        PLATFORM_APP_RUNTIME_BASE_URL: sim.platform.runtimeBaseUrl,
        PLATFORM_APP_SESSION_BASE_URL: sim.platform.sessionBaseUrl,
        PLATFORM_APP_KEY: APP_KEY,
        PLATFORM_APP_CREDENTIAL: app().appCredential,
        FRAMEWRIGHT_PUBLIC_URL: origin,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, exited, stderr: () => stderr };
}

async function signIn(user: string): Promise<{ cookie: string; csrf: string }> {
  const launchCode = await launchCodeOf(sim, APP_KEY, user);
  const { json, cookie } = await signInWithLaunchCode(origin, launchCode);
  if (!json.result) throw new Error(`sign-in failed for ${user}`);
  return { cookie, csrf: json.result.csrfToken };
}

const call = <T>(page: SignedInPage, method: string, params: unknown = {}) =>
  platformBridgeCall<T>({ url: origin }, page, method, params);

const T2V = {
  profileId: 'x',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'Fog rolling over a harbour at dawn',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

/** The platform's jobs of the session's person with this clientTaskId (an events snapshot). */
async function platformJobsOf(sessionId: string, clientTaskId: string): Promise<string[]> {
  return (await platformJobsOfSession(sim, APP_KEY, sessionId))
    .filter((j) => j.clientTaskId === clientTaskId)
    .map((j) => j.platformJobId);
}

/** The member's journal, read directly (the backend may not be running). */
function memberJournal() {
  const subjects = path.join(tmp, 'data', 'subjects');
  const [dir] = readdirSync(subjects);
  return openJournal({ path: path.join(subjects, dir!, 'journal.sqlite') });
}

async function until<T>(read: () => T | undefined, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A fresh session of the person (the platform's job list is per person, whichever session reads it). */
async function freshSessionId(user: string): Promise<string> {
  const launchCode = await launchCodeOf(sim, APP_KEY, user);
  const res = await fetch(`${sim.platform.sessionBaseUrl}/apps/${APP_KEY}/runtime-sessions:exchange`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${app().appCredential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ launchCode }),
  });
  return ((await res.json()) as { sessionId: string }).sessionId;
}

async function setAccess(user: string, access: 'granted' | 'revoked'): Promise<void> {
  const res = await fetch(new URL('/v1/_simulator/platform/access', sim.platform.launchUrl), {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ appKey: APP_KEY, user, access }),
  });
  expect(res.status).toBe(200);
}

/** Submits a t2v draft and kills the backend as soon as the job was accepted. */
async function acceptThenKill(prompt: string) {
  const backend = await startBackend();
  const page = await signIn('member');
  const draft = await call<{ id: string }>(page, 'drafts.create', { form: { ...T2V, prompt } });
  const submitted = await call<{ state: string; jobRowId: number }>(page, 'video.submit', {
    draftId: draft.id,
  });
  expect(submitted.state).toBe('accepted');
  backend.child.kill('SIGKILL');
  await backend.exited;
  return { page, draftId: draft.id, jobRowId: submitted.jobRowId };
}

describe('the platform backend killed mid-job', () => {
  it('restarted, it finishes the job through batch-get with the person’s session and creates nothing new', async () => {
    const { page, draftId, jobRowId } = await acceptThenKill('Fog rolling over a harbour at dawn');
    const backend = await startBackend();
    try {
      // the same cookie still works: the session was kept in the encrypted secret store
      const end = Date.now() + 60_000;
      let view: { status: string; outputs: { state: string }[]; jobId: string };
      for (;;) {
        view = await call(page, 'jobs.get', { jobRowId });
        if (view.status === 'succeeded' && view.outputs.every((o) => o.state === 'verified')) break;
        if (Date.now() > end) throw new Error(`still ${view.status}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await platformJobsOf(await freshSessionId('member'), draftId)).toEqual([view.jobId]);
    } finally {
      backend.child.kill('SIGTERM');
      expect(await backend.exited).toBe(0);
    }
  });

  it('with the person’s session gone, a restarted backend finishes the job with its recovery reference', async () => {
    const { draftId, jobRowId } = await acceptThenKill('A kite over the dunes');
    await setAccess('member', 'revoked');
    await new Promise((r) => setTimeout(r, 1_200)); // sessions stop resolving within 1 s
    const backend = await startBackend();
    try {
      const job = await until(() => {
        const journal = memberJournal();
        try {
          const found = journal.jobs.getJob(jobRowId);
          return found?.status === 'succeeded' && found.outputs.every((o) => o.downloadState === 'verified')
            ? found
            : undefined;
        } finally {
          journal.close();
        }
      });
      await setAccess('member', 'granted');
      expect(await platformJobsOf(await freshSessionId('member'), draftId)).toEqual([job.jobId]);
    } finally {
      await setAccess('member', 'granted');
      backend.child.kill('SIGTERM');
      expect(await backend.exited).toBe(0);
    }
  });
});
