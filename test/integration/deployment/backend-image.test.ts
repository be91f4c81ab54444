import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/index.js';
import { checkImageArchive } from '../../../src/main/core/platform-release/image-archive.js';
import { PLATFORM_CSRF_HEADER } from '../../../src/shared/bridge/platform-host-protocol.js';
import { runFramewright } from '../../support/cli-runner.js';
import { signInWithLaunchCode } from '../../support/platform-sign-in.js';
import { platformBridgeCall } from '../../support/platform-bridge-call.js';
import { launchCodeOf, platformJobsOfSession } from '../../support/platform-simulator.js';
import { APP_KEY, freePort } from '../../support/worlds/platform-simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { devGet, review } from '../platform-release/release-support.js';

/**
 * The backend's container image, as an orchestrator runs it: `npm run image`'s archive (built here,
 * twice), unpacked with umoci and run with bubblewrap — its root filesystem read-only, as the user
 * its configuration names, its state on the one /data volume, its entry point and command as the
 * image declares them (only the published port differs, as a runtime's `-p PORT:8080` would) —
 * against `framewright simulator` as a process. No container runtime is installed here: podman is
 * not in the project's packages, and bubblewrap runs the same root filesystem with the same user
 * and mounts (it is what rootless runtimes use underneath).
 */
const root = path.resolve(import.meta.dirname, '../../..');
const ARCHIVE = path.join(root, 'out', 'image', 'framewright-backend.oci.tar');
const PUBLIC_URL_OF = (port: number) => `https://127.0.0.1:${port}`; // the platform's TLS ingress

interface SimulatorLine {
  token: string;
  platform: {
    runtimeBaseUrl: string;
    sessionBaseUrl: string;
    launchUrl: string;
    developerBaseUrl: string;
    developerToken: string;
    reviewUrl: string;
    apps: { appKey: string; appCredential: string }[];
  };
}
interface ImageConfig {
  process: { args: string[]; env: string[]; cwd: string; user: { uid: number; gid: number } };
}

let dir: string;
let sim: { child: ChildProcess; line: SimulatorLine };
let rootfs: string;
let config: ImageConfig;

/** `npm run image`'s build (npm test built the bundles first): the manifest digest it printed. */
function buildImage(): string {
  const run = spawnSync(process.execPath, ['scripts/build-image.mjs'], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`npm run image failed:\n${(run.stdout + run.stderr).slice(-3000)}`);
  return readFileSync(path.join(root, 'out', 'image', 'digest'), 'utf8').trim();
}

function must(command: string, args: string[]): void {
  const run = spawnSync(command, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${run.stderr}`);
}

async function startSimulator(): Promise<{ child: ChildProcess; line: SimulatorLine }> {
  const child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      ...['simulator', '--json', '--port', '0', '--data-dir', path.join(dir, 'sim')],
      // a video takes 16 s here: long enough to stop the backend while the job is polled
      ...['--time-scale', '2'],
    ],
    { cwd: root, env: { ...process.env, HOME: dir }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve) =>
    createInterface({ input: child.stdout! }).once('line', resolve),
  );
  return { child, line: JSON.parse(line) as SimulatorLine };
}

interface RunningImage {
  http: string;
  publicUrl: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  lines: string[];
  /** The backend's own process (bubblewrap's descendant), as the container's init signals it. */
  backendPid(): number;
}

/** Every process under `pid`, from /proc. */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all: number[] = [];
  const walk = (p: number) => (children.get(p) ?? []).forEach((c) => (all.push(c), walk(c)));
  walk(pid);
  return all;
}

/** Runs the image's entry point and command on the volume `data`, published on a free port. */
async function runImage(data: string): Promise<RunningImage> {
  const port = await freePort();
  const publicUrl = PUBLIC_URL_OF(port);
  const app = sim.line.platform.apps.find((a) => a.appKey === APP_KEY)!;
  const args = config.process.args.map((arg, i) =>
    config.process.args[i - 1] === '--port' ? String(port) : arg,
  );
  const env = [
    ...config.process.env,
    `PLATFORM_APP_RUNTIME_BASE_URL=${sim.line.platform.runtimeBaseUrl}`,
    `PLATFORM_APP_SESSION_BASE_URL=${sim.line.platform.sessionBaseUrl}`,
    `PLATFORM_APP_KEY=${APP_KEY}`,
    `PLATFORM_APP_CREDENTIAL=${app.appCredential}`,
    `FRAMEWRIGHT_PUBLIC_URL=${publicUrl}`,
  ].flatMap((pair) => {
    const at = pair.indexOf('=');
    return ['--setenv', pair.slice(0, at), pair.slice(at + 1)];
  });
  const { uid, gid } = config.process.user;
  const child = spawn(
    'bwrap',
    [
      ...['--unshare-user', '--uid', String(uid), '--gid', String(gid)],
      ...['--unshare-pid', '--unshare-ipc', '--unshare-uts', '--die-with-parent'],
      ...['--ro-bind', rootfs, '/', '--bind', data, '/data', '--proc', '/proc', '--dev', '/dev'],
      ...['--chdir', config.process.cwd, '--clearenv', ...env, '--', ...args],
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!])
    createInterface({ input: stream }).on('line', (line) => lines.push(line));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const http = `http://127.0.0.1:${port}`;
  const end = Date.now() + 120_000;
  for (;;) {
    const ready = await fetch(`${http}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (ready === 200) break;
    if (child.exitCode !== null || Date.now() > end)
      throw new Error(`the image did not become ready:\n${lines.join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    http,
    publicUrl,
    child,
    exited,
    lines,
    backendPid: () => {
      const node = descendants(child.pid!).find(
        (pid) => readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'node',
      );
      if (!node) throw new Error('no backend process under bubblewrap');
      return node;
    },
  };
}

interface Page {
  http: string;
  publicUrl: string;
  cookie: string;
  csrf: string;
}

async function signIn(image: RunningImage, user: string): Promise<Page> {
  const launchCode = await launchCodeOf(sim.line, APP_KEY, user);
  const { json, cookie } = await signInWithLaunchCode(image.http, launchCode, { Origin: image.publicUrl });
  if (!json.result) throw new Error(`sign-in failed: ${JSON.stringify(json)}`);
  return { http: image.http, publicUrl: image.publicUrl, cookie, csrf: json.result.csrfToken };
}

const call = <T>(page: Page, method: string, params: unknown = {}) =>
  platformBridgeCall<T>({ url: page.http, origin: page.publicUrl }, page, method, params);

/**
 * An upload in flight: its headers sent with `Expect: 100-continue`, so the backend's "continue"
 * says it holds the request, then the first half of its body; `finish()` sends the rest and reads
 * the answer.
 */
async function startUpload(page: Page, bytes: Buffer) {
  const req = request(`${page.http}/bridge/files?name=reference.png&for=composer`, {
    method: 'POST',
    headers: {
      Origin: page.publicUrl,
      Cookie: page.cookie,
      [PLATFORM_CSRF_HEADER]: page.csrf,
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(bytes.length),
      Expect: '100-continue',
    },
  });
  const answered = new Promise<{ status: number; retryAfter?: string; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode!, retryAfter: res.headers['retry-after'] as string, body }),
      );
    });
    req.on('error', reject);
  });
  req.flushHeaders();
  await new Promise<void>((resolve, reject) => {
    req.once('continue', resolve);
    answered.then(() => reject(new Error('answered before the body was sent')), reject);
  });
  const half = Math.floor(bytes.length / 2);
  await new Promise<void>((resolve) => req.write(bytes.subarray(0, half), () => resolve()));
  return {
    finish: () => {
      req.end(bytes.subarray(half));
      return answered;
    },
  };
}

const T2V = {
  profileId: 'x',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'A lighthouse beam sweeping over a night sea',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

beforeAll(async () => {
  dir = tempFolder('fw-image-');
  sim = await startSimulator();
});

afterAll(async () => {
  if (sim?.child.exitCode === null) {
    const exited = new Promise((resolve) => sim.child.once('exit', resolve));
    sim.child.kill('SIGTERM');
    await exited;
  }
});

describe('the backend image (npm run image)', () => {
  it('is the same image, digest for digest, when built twice from the same commit', async () => {
    const first = buildImage();
    const second = buildImage();
    expect(first).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(second).toBe(first);
    // the archive is what `platform release --image` sends as an oci-archive
    await expect(checkImageArchive(ARCHIVE, 'oci-archive')).resolves.toBeUndefined();
    // unpacked as a runtime would: the layers into one root filesystem, and the configuration
    const layout = path.join(dir, 'layout');
    mkdirSync(layout);
    must('tar', ['-xf', ARCHIVE, '-C', layout]);
    must('umoci', ['unpack', '--image', `${layout}:framewright`, path.join(dir, 'bundle')]);
    rootfs = path.join(dir, 'bundle', 'rootfs');
    config = JSON.parse(readFileSync(path.join(dir, 'bundle', 'config.json'), 'utf8')) as ImageConfig;
    expect(config.process.user).toMatchObject({ uid: 10001, gid: 10001 });
    expect(config.process.args).toEqual([
      '/usr/local/bin/node',
      '/opt/framewright/framewright.mjs',
      ...['serve', '--platform', '--host', '0.0.0.0', '--port', '8080', '--data-dir', '/data'],
      ...['--renderer-dir', '/opt/framewright/out/renderer'],
    ]);
  });

  it('runs read-only as its user: probes, a sign-in and a video; SIGTERM mid-job drains to exit 0, and the restarted image finishes the job once', async () => {
    const data = path.join(dir, 'data');
    mkdirSync(data, { mode: 0o700 });
    let image = await runImage(data);
    const appCredential = sim.line.platform.apps.find((a) => a.appKey === APP_KEY)!.appCredential;
    const secrets = new Set<string>([appCredential]);
    let restarted: RunningImage | undefined;
    try {
      expect((await fetch(`${image.http}/healthz`)).status).toBe(200);
      expect((await fetch(`${image.http}/readyz`)).status).toBe(200);
      const page = await signIn(image, 'member');
      secrets.add(page.csrf).add(page.cookie.split('=')[1]!);
      const draft = await call<{ id: string }>(page, 'drafts.create', { form: T2V });
      const submitted = await call<{ state: string; jobRowId: number }>(page, 'video.submit', {
        draftId: draft.id,
      });
      expect(submitted.state).toBe('accepted');
      // the job is at the platform and being polled
      for (;;) {
        const view = await call<{ status: string; jobId: string | null }>(page, 'jobs.get', {
          jobRowId: submitted.jobRowId,
        });
        if (view.jobId && (view.status === 'queued' || view.status === 'running')) break;
        expect(view.status).not.toBe('succeeded');
        await new Promise((r) => setTimeout(r, 100));
      }

      // an upload in flight, then SIGTERM (what an orchestrator sends before replacing a container)
      const upload = await startUpload(page, readFileSync(path.join(root, 'resources', 'icon.png')));
      const stopping = Date.now();
      process.kill(image.backendPid(), 'SIGTERM');
      const answer = await upload.finish().catch((error: Error) => {
        throw new Error(`the upload: ${error.message}; the backend printed:\n${image.lines.join('\n')}`);
      });
      if (answer.status === 503) {
        expect(JSON.parse(answer.body).error.code).toBe('host.draining');
        expect(answer.retryAfter).toBe('5');
      } else expect(answer).toMatchObject({ status: 200, body: expect.stringContaining('"ok":true') });
      expect(await image.exited).toBe(0);
      expect(Date.now() - stopping).toBeLessThan(25_000); // FRAMEWRIGHT_DRAIN_SECONDS' default
      expect(image.lines.join('\n')).toMatch(/SIGTERM: draining[\s\S]*stopped/);

      // stopped mid-job: the journal on the volume still waits for the result
      const subjects = path.join(data, 'subjects');
      const journalPath = path.join(subjects, readdirSync(subjects)[0]!, 'journal.sqlite');
      let journal = openJournal({ path: journalPath });
      expect(journal.jobs.getJob(submitted.jobRowId)!.status).not.toBe('succeeded');
      journal.close();

      // the same image on the same volume: the same session, the job finished, verified
      restarted = await runImage(data);
      image = restarted;
      const again = { ...page, http: restarted.http, publicUrl: restarted.publicUrl };
      let view: { status: string; jobId: string; outputs: { state: string }[] };
      for (;;) {
        view = await call(again, 'jobs.get', { jobRowId: submitted.jobRowId });
        if (view.status === 'succeeded' && view.outputs.every((o) => o.state === 'verified')) break;
        expect(['queued', 'running', 'succeeded']).toContain(view.status);
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(JSON.stringify(await call(again, 'library.list', {}))).toContain(view.jobId);
      // exactly one job at the platform for this draft
      const exchange = await fetch(
        `${sim.line.platform.sessionBaseUrl}/apps/${APP_KEY}/runtime-sessions:exchange`,
        {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${appCredential}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ launchCode: await launchCodeOf(sim.line, APP_KEY, 'member') }),
        },
      );
      const { sessionId } = (await exchange.json()) as { sessionId: string };
      const jobs = await platformJobsOfSession(sim.line, APP_KEY, sessionId);
      expect(jobs.filter((j) => j.clientTaskId === draft.id).map((j) => j.platformJobId)).toEqual([
        view.jobId,
      ]);

      // the backend wrote only to its volume (the root filesystem is read-only): its journal and
      // the downloaded video are there
      journal = openJournal({ path: journalPath });
      const output = journal.jobs.getJob(submitted.jobRowId)!.outputs[0]!;
      journal.close();
      expect(output.downloadState).toBe('verified');
    } finally {
      if (image.child.exitCode === null) {
        process.kill(image.backendPid(), 'SIGTERM');
        expect(await image.exited).toBe(0);
      }
    }
    // nothing secret in anything either run printed
    const printed = image.lines.join('\n');
    for (const secret of secrets) expect(printed.includes(secret)).toBe(false);
  });

  it('is published by `platform release --image` as it is', async () => {
    const { developerBaseUrl, developerToken, reviewUrl, launchUrl } = sim.line.platform;
    const APP_ID = 'app_sim_framewright_studio';
    const tokenFile = path.join(dir, 'developer-token');
    writeFileSync(tokenFile, developerToken + '\n', { mode: 0o600 });
    const before = await devGet<{ items: { versionId: string }[] }>(
      developerBaseUrl,
      developerToken,
      `/apps/${APP_ID}/versions`,
    );
    const release = runFramewright([
      ...[
        '--data-dir',
        path.join(dir, 'cli'),
        '--json',
        'platform',
        '--developer-base-url',
        developerBaseUrl,
      ],
      ...['--developer-token-file', tokenFile, 'release', '--image', ARCHIVE],
      ...['--release-notes', 'the built image', '--timeout', '300'],
    ]);
    // the platform's reviewer approves the publish request, then applies it
    let requestId: string | undefined;
    while (!requestId) {
      const versions = await devGet<{ items: { versionId: string }[] }>(
        developerBaseUrl,
        developerToken,
        `/apps/${APP_ID}/versions`,
      );
      for (const v of versions.items.filter((v) => !before.items.some((b) => b.versionId === v.versionId))) {
        const requests = await devGet<{ items: { requestId: string; kind: string; status: string }[] }>(
          developerBaseUrl,
          developerToken,
          `/apps/${APP_ID}/versions/${v.versionId}/requests`,
        );
        requestId = requests.items.find((r) => r.kind === 'publish' && r.status === 'pending')?.requestId;
      }
      if (!requestId) await new Promise((r) => setTimeout(r, 200));
    }
    await review(reviewUrl, sim.line.token, requestId, 'approve');
    await review(reviewUrl, sim.line.token, requestId, 'apply');
    const run = await release;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
      versionId: string;
      decision: string;
      image: { imageAssetId: string };
    };
    expect(result.decision).toBe('applied');
    const detail = await devGet<{ recognized: { images: { imageAssetId: string }[] } }>(
      developerBaseUrl,
      developerToken,
      `/apps/${APP_ID}/versions/${result.versionId}`,
    );
    expect(detail.recognized.images.map((i) => i.imageAssetId)).toEqual([result.image.imageAssetId]);
    // people who open Framewright now get the new version
    const launch = await fetch(launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.line.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: APP_KEY, user: 'member' }),
    });
    expect(((await launch.json()) as { runtime: { appVersionId: string } }).runtime.appVersionId).toBe(
      result.versionId,
    );
  });
});
