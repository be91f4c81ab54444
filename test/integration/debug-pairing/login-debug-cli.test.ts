/**
 * `framewright login --debug` end to end with the real CLI against the simulator's developer
 * portal (application-platform-api.md section E "CLI pairing", B "online debugging"): the test plays
 * the developer approving in the portal page, then the debug profile creates a video through the
 * online debugging runtime, and nothing is sent once the session's hour is over. Needs a keychain:
 * the suite runs it under scripts/with-keyring.sh (FRAMEWRIGHT_KEYRING_TESTS=1).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { runFramewright, type CliRun } from '../../support/cli-runner.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const APP = 'app_sim_framewright_studio';
const DRAFT = 'appver_sim_framewright_studio_2';
const keyring = process.env.FRAMEWRIGHT_KEYRING_TESTS === '1';

interface Pairing {
  child: ChildProcessWithoutNullStreams;
  portalUrl: Promise<string>;
  done: Promise<CliRun>;
}

/** Starts `login --debug` and resolves the portal address it prints on stderr. */
function startLogin(args: string[], env: Record<string, string> = {}): Pairing {
  const child = spawn(process.execPath, [path.join(ROOT, 'bin/framewright.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, FRAMEWRIGHT_API_KEY: '', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let found: (url: string) => void = () => undefined;
  const portalUrl = new Promise<string>((resolve) => (found = resolve));
  child.stdout.on('data', (d: Buffer) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    const m = /^\s+(http:\/\/\S+\/platform\/developer-portal\?\S+)$/m.exec(stderr);
    if (m) found(m[1]!);
  });
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => {
      found('');
      resolve({ code, stdout, stderr });
    }),
  );
  return { child, portalUrl, done };
}

/** The developer in the portal page: opens it, signs in with the token and approves; the 303's target. */
async function approveInPortal(
  sim: RunningSimulator,
  portalUrl: string,
  developerToken: string,
): Promise<string> {
  const page = await fetch(portalUrl);
  const html = await page.text();
  expect(page.status).toBe(200);
  expect(html).toContain('Approve a CLI pairing');
  const form = new URLSearchParams();
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    form.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  form.set('developerToken', developerToken);
  const action = /<form method="post" action="([^"]+)"/.exec(html)![1]!;
  const approve = await fetch(new URL(action, sim.platform.developerPortalUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(approve.status).toBe(303);
  return approve.headers.get('location')!;
}

async function exchange(sim: RunningSimulator, authorizationCode: string, codeVerifier: string) {
  const res = await fetch(`${sim.platform.developerBaseUrl}/cli-sessions:exchange`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationCode, codeVerifier }),
  });
  return { status: res.status, body: (await res.json()) as { code?: string } };
}

/** Every file of a folder, as text (binary files too: a secret in a SQLite page is still found). */
function filesText(dir: string): string {
  let all = '';
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    all += statSync(full).isDirectory() ? filesText(full) : readFileSync(full).toString('latin1');
  }
  return all;
}

/** Whether any base64url word of the text is a PKCE verifier of this challenge. */
function containsVerifierOf(text: string, challenge: string): boolean {
  for (const m of text.matchAll(/[A-Za-z0-9\-._~]{43,128}/g)) {
    for (let len = 43; len <= m[0].length; len++) {
      for (let i = 0; i + len <= m[0].length; i++) {
        const word = m[0].slice(i, i + len);
        if (createHash('sha256').update(word).digest('base64url') === challenge) return true;
      }
      if (len > 43) break; // the CLI's verifiers are 43 characters; longer words are checked whole
    }
  }
  return false;
}

describe.runIf(keyring)('framewright login --debug (PKCE pairing, real CLI, real keychain)', () => {
  let sim: RunningSimulator;
  let dataDir: string;
  let tokenFile: string;
  const outputs: string[] = [];
  let code = '';
  let challenge = '';
  const run = async (args: string[], env: Record<string, string> = {}) => {
    const result = await runFramewright(['--data-dir', dataDir, ...args], env);
    outputs.push(result.stdout, result.stderr);
    return result;
  };

  beforeAll(async () => {
    sim = await openSimulator({ timeScale: 0.02, dataDir: tempFolder('fw-pair-sim-') });
    dataDir = tempFolder('fw-pair-');
    tokenFile = path.join(tempFolder('fw-pair-token-'), 'developer-token');
    writeFileSync(tokenFile, sim.platform.developerToken + '\n', { mode: 0o600 });
  });
  afterAll(async () => {
    await sim?.close();
  });

  const loginArgs = (profile: string, extra: string[] = []) => [
    '--data-dir',
    dataDir,
    '--profile',
    profile,
    '--json',
    'login',
    '--debug',
    '--developer-url',
    sim.platform.developerBaseUrl,
    '--app',
    APP,
    '--app-version',
    DRAFT,
    ...extra,
  ];

  it('refuses a test account not on the list, by name, before any pairing', async () => {
    const result = await run([
      ...loginArgs('Nope').slice(2),
      '--test-account',
      'Nobody Here',
      '--developer-token-file',
      tokenFile,
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('No test account named "Nobody Here"');
    expect(result.stderr).toContain('"Morgan Reyes" (Northwind Pictures)');
    expect(result.stderr).not.toContain('developer-portal?');
    // a user id is not a test account
    const byUserId = await run([
      ...loginArgs('Nope').slice(2),
      '--test-account',
      'acc_sim_manager',
      '--developer-token-file',
      tokenFile,
    ]);
    expect(byUserId.code).toBe(2);
    const profiles = JSON.parse((await run(['--json', 'profiles'])).stdout) as { data: { name: string }[] };
    expect(profiles.data.map((p) => p.name)).not.toContain('Nope');
  });

  it('pairs as the chosen test account through the portal page; a replayed code and a wrong verifier are refused', async () => {
    const login = startLogin(
      loginArgs('Debug', ['--test-account', 'morgan reyes', '--developer-token-file', tokenFile]),
    );
    const portalUrl = await login.portalUrl;
    expect(portalUrl, (await Promise.race([login.done, Promise.resolve(undefined)]))?.stderr).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/platform\/developer-portal\?/,
    );
    const params = new URL(portalUrl).searchParams;
    challenge = params.get('codeChallenge')!;
    expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(params.get('testAccountId')).toBe('ta_sim_framewright_studio_manager');
    expect(params.get('versionId')).toBe(DRAFT);
    expect(new URL(params.get('redirectUri')!).hostname).toBe('127.0.0.1');

    const location = await approveInPortal(sim, portalUrl, sim.platform.developerToken);
    const target = new URL(location);
    code = target.searchParams.get('code')!;
    expect(target.searchParams.get('state')).toBe(params.get('state'));
    // a wrong verifier is refused and does not consume the code
    const wrong = await exchange(sim, code, 'x'.repeat(43));
    expect(wrong).toMatchObject({ status: 401, body: { code: 'CLI_AUTHORIZATION_INVALID' } });
    // another state is not this pairing's: refused, and the listener keeps waiting
    const forged = new URL(location);
    forged.searchParams.set('state', 'forged');
    expect((await fetch(forged)).status).toBe(400);
    // the browser follows the redirect to the CLI's loopback listener
    const landing = await fetch(location);
    expect(landing.status).toBe(200);
    const result = await login.done;
    outputs.push(result.stdout, result.stderr);
    expect(result.code, result.stderr).toBe(0);
    const paired = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(paired).toMatchObject({
      name: 'Debug',
      kind: 'debug',
      baseUrl: sim.platform.debugBaseUrl,
      hasSecret: true,
      appId: APP,
      appKey: 'framewright-studio',
      appVersionId: DRAFT,
      testAccount: { id: 'ta_sim_framewright_studio_manager', displayName: 'Morgan Reyes' },
      billed: true,
    });
    const left = Date.parse(paired.expiresAt as string) - Date.now();
    expect(left).toBeGreaterThan(59 * 60_000);
    expect(left).toBeLessThanOrEqual(60 * 60_000);
    // the listener accepted one code and closed
    await expect(fetch(location)).rejects.toThrow();
    // the code was used once: a replay is refused
    const replay = await exchange(sim, code, 'y'.repeat(43));
    expect(replay).toMatchObject({ status: 401, body: { code: 'CLI_AUTHORIZATION_INVALID' } });
  });

  it('creates a video through the online debugging runtime with the debug profile', async () => {
    const result = await run([
      '--profile',
      'Debug',
      '--json',
      'video',
      '--model',
      'h3-video',
      '--mode',
      't2v',
      '--prompt',
      'A paper boat on a debug stream',
      '--seconds',
      '5',
      '--orientation',
      'landscape',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const job = JSON.parse(result.stdout) as {
      status: string;
      jobUrl: string;
      outputs: { verified: boolean }[];
    };
    expect(job.status).toBe('succeeded');
    // the command says whom it acts as, that it is billed, and how long the session has left
    expect(result.stderr).toMatch(
      /Online debugging of framewright-studio as test account "Morgan Reyes" \(Northwind Pictures\), billed to that account; the session ends in (60|59) min\./,
    );
    const listing = await run(['profiles']);
    expect(listing.stdout).toMatch(
      /Debug\s+debug\s+\S+\/platform\/debug\/v1\s+key stored.*ends in (1 h 0|59) min/,
    );
    // the job lives on the online debugging runtime, not the public interface
    expect(job.jobUrl.startsWith(sim.platform.debugBaseUrl + '/')).toBe(true);
    expect(job.outputs.length).toBeGreaterThan(0);
    expect(job.outputs.every((o) => o.verified)).toBe(true);
  });

  it('after the session’s hour the platform refuses it, and the client sends nothing once its own clock says so', async () => {
    const clock = await fetch(`${sim.baseUrl}/_simulator/clock`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sim.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ advanceSeconds: 3601 }),
    });
    expect(clock.status).toBe(200);
    // this machine's clock still has time left: the call is made and the platform refuses the token
    const refused = await run(['--profile', 'Debug', '--json', 'services']);
    expect(refused.code).toBe(3);

    // the client's own clock past the expiry (the journal's record of it, moved back)
    const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
    const profile = journal.profiles.getByName('Debug')!;
    journal.profiles.update(profile.id, { debugTokenExpiresAt: Date.now() - 1000 });
    journal.close();
    await sim.close(); // nothing listens any more: any attempt to send would be a network error (6)
    const local = await run([
      '--profile',
      'Debug',
      'video',
      '--model',
      'h3-video',
      '--mode',
      't2v',
      '--prompt',
      'Never sent',
      '--seconds',
      '5',
      '--orientation',
      'landscape',
    ]);
    expect(local.code).toBe(3);
    expect(local.stderr).toContain('framewright login --debug');
    expect(local.stderr).toContain('Nothing was sent');
  });

  it('keeps the token, the code and the verifier out of the journal, logs and output', async () => {
    const { default: keytar } = await import('keytar');
    const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
    const profile = journal.profiles.getByName('Debug')!;
    journal.close();
    const token = await keytar.getPassword('Framewright', profile.id);
    expect(token).toBeTruthy();
    const everything = filesText(dataDir) + outputs.join('\n');
    expect(code).not.toBe('');
    for (const secret of [token!, code, sim.platform.developerToken])
      expect(everything).not.toContain(secret);
    expect(containsVerifierOf(everything, challenge)).toBe(false);
  });
});
