import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PlatformWorkspaces } from '../../../src/main/core/platform/platform-workspaces.js';
import {
  RESOLVE_INTERVAL_SECONDS,
  ServerSessions,
} from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import { createSessionService } from '../../../src/main/core/platform/runtime-sessions/session-service.js';
import { startPlatformHost } from '../../../src/main/host/platform-host.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { APP_KEY, freePort, Page, startRig, type PlatformRig } from './harness.js';

let rig: PlatformRig;
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  await rig.close();
});

/** The RuntimeSession ids the host keeps in its secret store (to scan for them elsewhere). */
async function storedSessionIds(store: MemorySecretStore | unknown): Promise<string[]> {
  const secrets = (store as { secrets: Map<string, string> }).secrets;
  // `runtime-session:<id>` holds a record; `runtime-session-of:<subject>` only names the latest id
  return [...secrets.entries()]
    .filter(([name]) => name.startsWith('runtime-session:'))
    .map(
      ([, encoded]) =>
        (JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8')) as { sessionId: string }).sessionId,
    );
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(file).isFile());
}

describe('platform host: signing in with a launch code', () => {
  it('exchanges a member’s launch code once and sets an HttpOnly, SameSite=Strict cookie', async () => {
    const page = new Page(rig);
    const answer = await page.open(await rig.launchCode('member'));
    expect(answer.status).toBe(200);
    expect(answer.setCookie).toMatch(/^framewright_session=[A-Za-z0-9_-]{43}; /);
    const attributes = answer.setCookie!.split('; ').slice(1);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect(attributes).not.toContain('Secure'); // the public URL is http here
    expect(answer.body.result).toMatchObject({
      appRoles: ['studio_editor'],
      organizationId: expect.any(String),
    });
    expect(Object.keys(answer.body.result).sort()).toEqual(
      ['appRoles', 'csrfToken', 'expiresAt', 'organizationId', 'userId'].sort(),
    );
    // a reload asks who is signed in, from the cookie alone
    const again = await page.request('/platform/session');
    expect(again.body.result.userId).toBe(answer.body.result.userId);
    expect((await page.invoke('where')).status).toBe(200);
  });

  it('a second exchange of the same code fails and tells the page to reopen the application', async () => {
    const code = await rig.launchCode('member');
    expect((await new Page(rig).open(code)).status).toBe(200);
    const second = new Page(rig);
    const answer = await second.open(code);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('platform.session_over');
    expect(answer.body.error.message).toBe('Reopen Framewright from your application center.');
    expect(second.cookie).toBe('');
  });

  it('with an https public URL the cookie is Secure and __Host- prefixed', async () => {
    const port = await freePort();
    const app = rig.sim.platform.apps.find((a) => a.appKey === APP_KEY)!;
    const workspaces = new PlatformWorkspaces({
      dataDir: path.join(rig.dataDir, 'https'),
      workspaceDispatcher: () => ({ dispatch: async () => ({ ok: true, result: null }) }),
    });
    const host = await startPlatformHost({
      publicOrigin: 'https://studio.example.test',
      sessions: new ServerSessions({
        service: createSessionService({
          sessionBaseUrl: rig.sim.platform.sessionBaseUrl,
          appKey: APP_KEY,
          appCredential: app.appCredential,
        }),
        secrets: new MemorySecretStore(),
      }),
      workspaces,
      rendererDir: path.join(rig.dataDir, '..', 'renderer'),
      port,
    });
    try {
      const post = (json: unknown) =>
        new Promise<{ setCookie: string; text: string }>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port,
              method: 'POST',
              path: '/platform/session',
              headers: {
                Host: 'studio.example.test',
                Origin: 'https://studio.example.test',
                'Content-Type': 'application/json',
              },
            },
            (res) => {
              let text = '';
              res.on('data', (chunk: Buffer) => (text += chunk.toString()));
              res.on('end', () => resolve({ setCookie: String(res.headers['set-cookie'] ?? ''), text }));
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify(json));
        });
      const asked = await post({ launchCode: await rig.launchCode('member') });
      const { confirmToken } = (JSON.parse(asked.text) as { error: { details: { confirmToken: string } } })
        .error.details;
      const { setCookie } = await post({ confirmToken, confirm: true });
      expect(setCookie).toMatch(/^__Host-framewright_session=[A-Za-z0-9_-]{43}; /);
      expect(setCookie.split('; ')).toEqual(
        expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/', 'Secure']),
      );
    } finally {
      await host.close();
      await workspaces.close();
    }
  });
});

describe('platform host: a launch link in a browser that is signed in already (login CSRF)', () => {
  it('asks first: nothing is exchanged until the person confirms, then the replaced session ends', async () => {
    const victim = new Page(rig);
    const signedIn = await victim.open(await rig.launchCode('member'));
    const victimCookie = victim.cookie;
    const exchanges = rig.exchangeCalls;
    // an attacker's fresh code, opened in the victim's browser (same cookie)
    const attackerCode = await rig.launchCode('personal');
    const asked = await victim.request('/platform/session', { body: { launchCode: attackerCode } });
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('platform.switch_confirm');
    // the page can say who is signed in now; nothing that acts for them (no CSRF token)
    expect(asked.body.error.details).toEqual({
      signedIn: { userId: signedIn.body.result.userId, organizationId: signedIn.body.result.organizationId },
    });
    expect(JSON.stringify(asked.body)).not.toContain(victim.csrf);
    expect(asked.setCookie).toBeNull();
    expect(rig.exchangeCalls).toBe(exchanges); // not exchanged, not spent
    expect(victim.cookie).toBe(victimCookie);
    expect((await victim.invoke('where')).status).toBe(200); // still the victim's own workspace
    expect(await storedSessionIds(rig.secrets)).toHaveLength(1);

    // the person confirms: the same code is exchanged now, and the replaced session ends
    const switched = await victim.request('/platform/session', {
      body: { launchCode: attackerCode, replace: true },
    });
    expect(switched.status).toBe(200);
    expect(switched.body.result.userId).not.toBe(signedIn.body.result.userId);
    expect(rig.exchangeCalls).toBe(exchanges + 1);
    expect(await storedSessionIds(rig.secrets)).toHaveLength(1);
    const stale = new Page(rig);
    stale.cookie = victimCookie;
    stale.csrf = victim.csrf;
    expect((await stale.invoke('where')).status).toBe(401);
  });
});

describe('platform host: a launch link in a browser with no session (login CSRF)', () => {
  it('holds the exchanged session without a cookie until the person confirms whom it signs in', async () => {
    const page = new Page(rig);
    page.cookie = 'framewright_session=' + 'A'.repeat(43); // unknown or ended: no live session
    const code = await rig.launchCode('member');
    const asked = await page.request('/platform/session', { body: { launchCode: code } });
    expect(asked.status).toBe(409);
    expect(asked.body.error.code).toBe('platform.signin_confirm');
    // whom the link signs in, and a token to answer with; nothing that acts for them
    expect(asked.body.error.details.signingIn.userId).toEqual(expect.any(String));
    expect(asked.body.error.details.confirmToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(asked.body)).not.toContain('csrf');
    expect(asked.setCookie).toBeNull();
    expect((await page.invoke('where')).status).toBe(401);
    // a guessed token signs nothing in
    const guessed = await page.request('/platform/session', {
      body: { confirmToken: 'B'.repeat(43), confirm: true },
    });
    expect(guessed.status).toBe(401);
    // the person confirms: now the cookie is set and the link's person is signed in
    const confirmed = await page.request('/platform/session', {
      body: { confirmToken: asked.body.error.details.confirmToken, confirm: true },
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.result.userId).toBe(asked.body.error.details.signingIn.userId);
    page.csrf = confirmed.body.result.csrfToken;
    expect((await page.invoke('where')).status).toBe(200);
    // a token is answered once; a second answer (a double click) leaves the person signed in
    const again = await page.request('/platform/session', {
      body: { confirmToken: asked.body.error.details.confirmToken, confirm: true },
    });
    expect(again.status).toBe(401);
    expect(again.setCookie).toBeNull();
    expect((await page.invoke('where')).status).toBe(200);
  });

  it('a call sent with no cookie is refused without clearing one: its answer may come after a sign-in', async () => {
    const page = new Page(rig);
    const cookieless = await page.invoke('where');
    expect(cookieless.status).toBe(401);
    expect(cookieless.body.error.code).toBe('platform.session_over');
    expect(cookieless.setCookie).toBeNull();
    // a browser whose ended session's cookie is still sent is told to forget it
    page.cookie = 'framewright_session=' + 'A'.repeat(43);
    expect((await page.invoke('where')).setCookie).toMatch(/Max-Age=0/);
  });

  it('declined, the held session ends and no cookie is ever set', async () => {
    const page = new Page(rig);
    const before = (await storedSessionIds(rig.secrets)).length;
    const asked = await page.request('/platform/session', {
      body: { launchCode: await rig.launchCode('member') },
    });
    expect(asked.status).toBe(409);
    expect(await storedSessionIds(rig.secrets)).toHaveLength(before + 1);
    const declined = await page.request('/platform/session', {
      body: { confirmToken: asked.body.error.details.confirmToken, confirm: false },
    });
    expect(declined.status).toBe(200);
    expect(declined.setCookie).toBeNull();
    expect(await storedSessionIds(rig.secrets)).toHaveLength(before);
  });
});

/**
 * A sign-in from a given loopback address (127.0.0.x are all this machine's): the launch code, then
 * (when the host holds the exchanged session for the person's word) the person's yes.
 */
async function signInFrom(
  rig: PlatformRig,
  localAddress: string,
  launchCode: unknown,
  forwardedFor?: string,
): Promise<{ status: number; retryAfter: string | undefined; code: string | undefined }> {
  const asked = await postSessionFrom(rig, localAddress, { launchCode }, forwardedFor);
  if (asked.status !== 409 || asked.code !== 'platform.signin_confirm') return asked;
  return postSessionFrom(
    rig,
    localAddress,
    { confirmToken: asked.confirmToken, confirm: true },
    forwardedFor,
  );
}

function postSessionFrom(
  rig: PlatformRig,
  localAddress: string,
  json: unknown,
  forwardedFor?: string,
): Promise<{
  status: number;
  retryAfter: string | undefined;
  code: string | undefined;
  confirmToken?: string;
}> {
  const { port } = new URL(rig.origin);
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        localAddress,
        method: 'POST',
        path: '/platform/session',
        headers: {
          Host: new URL(rig.origin).host,
          Origin: rig.origin,
          'Content-Type': 'application/json',
          Connection: 'close',
          ...(forwardedFor ? { 'X-Forwarded-For': forwardedFor } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => {
          const error = (
            JSON.parse(text) as { error?: { code?: string; details?: { confirmToken?: string } } }
          ).error;
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: res.headers['retry-after'],
            code: error?.code,
            confirmToken: error?.details?.confirmToken,
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('platform host: sign-in is not a free call out', () => {
  it('refuses a malformed launch code before calling the session service', async () => {
    for (const junk of ['', 'a b', 'code\n', 'c\u00f6de', 'x'.repeat(1025), 42, null, ['code']]) {
      const answer = await signInFrom(rig, '127.0.0.1', junk);
      expect(answer.status, JSON.stringify(junk).slice(0, 20)).toBe(400);
      expect(answer.code).toBe('host.bad_launch_code');
    }
    expect(rig.exchangeCalls).toBe(0);
    // a well-formed code is exchanged as before
    expect((await new Page(rig).open(await rig.launchCode('member'))).status).toBe(200);
    expect(rig.exchangeCalls).toBe(1);
  });

  it('limits sign-ins per client address: 429 with Retry-After, other addresses unaffected, and again later', async () => {
    await rig.close();
    rig = await startRig({
      signInLimits: {
        perClient: { capacity: 3, refillPerSecond: 0.1 },
        global: { capacity: 100, refillPerSecond: 10 },
      },
    });
    for (let i = 0; i < 3; i += 1) expect((await signInFrom(rig, '127.0.0.1', 'junk code')).status).toBe(400);
    const refused = await signInFrom(rig, '127.0.0.1', await rig.launchCode('member'));
    expect(refused.status).toBe(429);
    expect(refused.retryAfter).toBe('10');
    expect(rig.exchangeCalls).toBe(0);
    // another address is its own bucket
    expect((await signInFrom(rig, '127.0.0.2', await rig.launchCode('member'))).status).toBe(200);
    await rig.advance(10);
    expect((await signInFrom(rig, '127.0.0.1', await rig.launchCode('member'))).status).toBe(200);
  });

  it('limits exchanges globally: past the backend-wide bucket, exchanges wait their Retry-After', async () => {
    await rig.close();
    rig = await startRig({
      signInLimits: {
        perClient: { capacity: 3, refillPerSecond: 1 },
        global: { capacity: 4, refillPerSecond: 0.5 },
      },
    });
    const statuses: number[] = [];
    // genuine codes from five addresses: the fifth waits for the bucket
    for (let i = 1; i <= 5; i += 1)
      statuses.push((await signInFrom(rig, `127.0.0.${i}`, await rig.launchCode('member'))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(rig.exchangeCalls).toBe(4);
    await rig.advance(2);
    expect((await signInFrom(rig, '127.0.0.9', await rig.launchCode('member'))).status).toBe(200);
  });

  it('malformed codes never spend the backend-wide allowance: people at other addresses still sign in', async () => {
    await rig.close();
    rig = await startRig({
      signInLimits: {
        perClient: { capacity: 50, refillPerSecond: 1 },
        global: { capacity: 2, refillPerSecond: 0.01 },
      },
    });
    for (let i = 1; i <= 8; i += 1)
      for (let n = 0; n < 5; n += 1)
        expect((await signInFrom(rig, `127.0.1.${i}`, 'not a code')).status).toBe(400);
    expect(rig.exchangeCalls).toBe(0);
    expect((await signInFrom(rig, '127.0.0.9', await rig.launchCode('member'))).status).toBe(200);
  });

  it('junk from 22 addresses never keeps a genuine code out: failed clients spend only the suspects’ allowance', async () => {
    await rig.close();
    rig = await startRig({
      signInLimits: {
        perClient: { capacity: 20, refillPerSecond: 1 / 3 },
        global: { capacity: 30, refillPerSecond: 0.01 },
        suspect: { capacity: 5, refillPerSecond: 0.01 },
      },
    });
    const statuses: number[] = [];
    // each address's first made-up code is one clean exchange; every later one is a suspect's
    for (let n = 0; n < 5; n += 1)
      for (let i = 1; i <= 22; i += 1)
        statuses.push((await signInFrom(rig, `127.0.3.${i}`, `made-up-${i}-${n}`)).status);
    expect(statuses.filter((s) => s === 401).length).toBe(22 + 5);
    expect(statuses.filter((s) => s === 429).length).toBe(22 * 5 - 27);
    expect(rig.exchangeCalls).toBe(27);
    // the backend-wide allowance is still there for people, at once
    expect((await signInFrom(rig, '127.0.0.9', await rig.launchCode('member'))).status).toBe(200);
    expect((await signInFrom(rig, '127.0.0.10', await rig.launchCode('manager'))).status).toBe(200);
  });

  it('behind a trusted proxy, five junk codes from one person lock out no one else (nor, for good, that person)', async () => {
    await rig.close();
    rig = await startRig({
      trustedProxies: ['127.0.0.1'],
      signInLimits: {
        perClient: { capacity: 20, refillPerSecond: 1 / 3 },
        global: { capacity: 100, refillPerSecond: 5 },
        suspect: { capacity: 10, refillPerSecond: 1 },
      },
    });
    // everyone reaches the backend from the proxy's address; X-Forwarded-For names them
    for (let n = 0; n < 5; n += 1)
      expect((await signInFrom(rig, '127.0.0.1', `made-up-${n}`, '198.51.100.7')).status).toBe(401);
    expect((await signInFrom(rig, '127.0.0.1', await rig.launchCode('member'), '203.0.113.5')).status).toBe(
      200,
    );
    // the junk's own address is slowed, never locked out: its genuine code gets through too
    expect((await signInFrom(rig, '127.0.0.1', await rig.launchCode('manager'), '198.51.100.7')).status).toBe(
      200,
    );
    // a forwarded header from a peer that is not a trusted proxy is ignored (it could name anyone)
    for (let n = 0; n < 3; n += 1)
      expect((await signInFrom(rig, '127.0.0.2', `made-up-x-${n}`, '203.0.113.5')).status).toBe(401);
    expect((await signInFrom(rig, '127.0.0.1', await rig.launchCode('member'), '203.0.113.5')).status).toBe(
      200,
    );
  });
});

describe('platform host: an exchange whose answer is lost', () => {
  it('is not replayed: the page is told to reopen, and the code stays spent', async () => {
    await rig.close();
    rig = await startRig({ loseExchangeAnswers: true });
    const code = await rig.launchCode('member');
    const page = new Page(rig);
    const answer = await page.open(code);
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('platform.session_over');
    expect(rig.exchangeCalls).toBe(1);
    expect(page.cookie).toBe('');
  });
});

describe('platform host: signing out', () => {
  it('needs the CSRF token, then forgets the session here and in the secret store', async () => {
    const page = new Page(rig);
    await page.open(await rig.launchCode('member'));
    const cookie = page.cookie;
    expect(
      (await page.request('/platform/session', { method: 'DELETE', headers: { 'X-Framewright-CSRF': '' } }))
        .status,
    ).toBe(403);
    expect(await storedSessionIds(rig.secrets)).toHaveLength(1);
    const out = await page.request('/platform/session', { method: 'DELETE' });
    expect(out.status).toBe(200);
    expect(out.setCookie).toMatch(/Max-Age=0/);
    expect(await storedSessionIds(rig.secrets)).toEqual([]);
    page.cookie = cookie; // the old cookie, replayed, is worth nothing
    expect((await page.invoke('where')).status).toBe(401);
  });
});

describe('platform host: guards', () => {
  it('refuses a bridge call without a cookie (401), without the CSRF token (403), and a foreign Host or Origin', async () => {
    const page = new Page(rig);
    await page.open(await rig.launchCode('member'));

    const anonymous = new Page(rig);
    const noCookie = await anonymous.invoke('where');
    expect(noCookie.status).toBe(401);
    expect(noCookie.body.error.code).toBe('platform.session_over');

    const noCsrf = await page.request('/bridge/invoke', {
      body: { method: 'where' },
      headers: { 'X-Framewright-CSRF': '' },
    });
    expect(noCsrf.status).toBe(403);
    const wrongCsrf = await page.request('/bridge/invoke', {
      body: { method: 'where' },
      headers: { 'X-Framewright-CSRF': 'x'.repeat(43) },
    });
    expect(wrongCsrf.status).toBe(403);

    const foreignOrigin = await page.request('/bridge/invoke', {
      body: { method: 'where' },
      headers: { Origin: 'http://evil.example' },
    });
    expect(foreignOrigin.status).toBe(403);
    const localhostName = await fetch(`${rig.origin.replace('127.0.0.1', 'localhost')}/bridge/invoke`, {
      method: 'POST',
      headers: {
        Cookie: page.cookie,
        'X-Framewright-CSRF': page.csrf,
        Origin: rig.origin,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ method: 'where' }),
    });
    expect(localhostName.status).toBe(421); // Host is not the public URL's host
    // the right call still works
    expect((await page.invoke('where')).status).toBe(200);
  });

  it('gives two people two workspaces; identity fields and a guessed workspace key in a request change nothing', async () => {
    const member = new Page(rig);
    const personal = new Page(rig);
    await member.open(await rig.launchCode('member'));
    await personal.open(await rig.launchCode('personal'));
    const memberKey = (await member.invoke('where')).body.result as string;
    const personalKey = (await personal.invoke('where')).body.result as string;
    expect(memberKey).toMatch(/^[0-9a-f]{32}$/);
    expect(personalKey).not.toBe(memberKey);

    await member.invoke('notes.add', { text: 'member’s secret plan' });
    // personal tries to reach member's workspace by every field a browser could send
    const guess = await personal.request(`/bridge/invoke?subjectKey=${memberKey}`, {
      body: {
        method: 'notes.list',
        params: { subjectKey: memberKey },
        subjectKey: memberKey,
        userId: 'member',
        tenantId: 'x',
      },
      headers: { 'X-Subject-Key': memberKey },
    });
    expect(guess.body.result).toEqual([]);
    expect((await member.invoke('notes.list')).body.result).toEqual(['member’s secret plan']);
    expect(readdirSync(path.join(rig.dataDir, 'subjects')).sort()).toEqual([memberKey, personalKey].sort());
  });
});

/** Opens the events socket as a page would; answers the first message, or the refusal's status. */
function openEvents(rig: PlatformRig, page: Page, protocols: string[]) {
  const socket = new WebSocket(`${rig.origin.replace('http', 'ws')}/bridge/events`, protocols, {
    headers: { Origin: rig.origin, ...(page.cookie ? { Cookie: page.cookie } : {}) },
  });
  const opened = new Promise<number>((resolve) => {
    socket.once('open', () => resolve(101));
    socket.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    socket.once('error', () => resolve(0));
  });
  const messages: unknown[] = [];
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString())));
  return { socket, opened, messages };
}

describe('platform host: events socket', () => {
  it('needs the cookie and the CSRF subprotocol, and carries only the person’s own events', async () => {
    const member = new Page(rig);
    const personal = new Page(rig);
    await member.open(await rig.launchCode('member'));
    await personal.open(await rig.launchCode('personal'));
    const memberKey = (await member.invoke('where')).body.result as string;

    expect(await openEvents(rig, new Page(rig), ['framewright.events']).opened).toBe(401);
    expect(await openEvents(rig, member, ['framewright.events']).opened).toBe(403);
    const mine = openEvents(rig, member, ['framewright.events', `framewright.csrf.${member.csrf}`]);
    const theirs = openEvents(rig, personal, ['framewright.events', `framewright.csrf.${personal.csrf}`]);
    expect(await mine.opened).toBe(101);
    expect(await theirs.opened).toBe(101);
    rig.emitTo(memberKey, 'jobs.changed', { id: 'job-1' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(mine.messages).toEqual([{ event: 'jobs.changed', payload: { id: 'job-1' } }]);
    expect(theirs.messages).toEqual([]);
    mine.socket.close();
    theirs.socket.close();
  });

  it('an open socket of a person whose access was revoked closes at the next event, carrying nothing', async () => {
    const member = new Page(rig);
    await member.open(await rig.launchCode('member'));
    const memberKey = (await member.invoke('where')).body.result as string;
    const mine = openEvents(rig, member, ['framewright.events', `framewright.csrf.${member.csrf}`]);
    expect(await mine.opened).toBe(101);
    const closed = new Promise<number>((resolve) => mine.socket.once('close', (code) => resolve(code)));
    await rig.setAccess('member', 'revoked');
    try {
      await rig.advance(RESOLVE_INTERVAL_SECONDS + 1);
      rig.emitTo(memberKey, 'jobs.changed', { id: 'job-2' });
      const stillOpen = new Promise<string>((resolve) => setTimeout(() => resolve('still open'), 3_000));
      expect(await Promise.race([closed, stillOpen])).toBe(4401);
      expect(mine.messages).toEqual([]);
    } finally {
      await rig.setAccess('member', 'granted');
    }
  });
});

describe('platform host: session lifetime', () => {
  it('renews once when at most 21600 s remain, even for concurrent calls', async () => {
    const page = new Page(rig);
    await page.open(await rig.launchCode('member'));
    const [before] = await storedSessionIds(rig.secrets);
    await rig.advance(17 * 3600); // 7 h remain of the 24 h session
    expect((await page.invoke('where')).status).toBe(200);
    expect(rig.renewCalls).toBe(0);
    await rig.advance(3600); // 6 h = 21600 s remain
    const answers = await Promise.all([
      page.invoke('where'),
      page.invoke('where'),
      page.invoke('notes.list'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(rig.renewCalls).toBe(1);
    const [after] = await storedSessionIds(rig.secrets);
    expect(after).not.toBe(before);
    // the renewed session lasts: a day later (past the old session's end) the page still works
    await rig.advance(12 * 3600);
    expect((await page.invoke('where')).status).toBe(200);
  });

  it('past the 7-day window the page is told to reopen the application', async () => {
    const page = new Page(rig);
    await page.open(await rig.launchCode('member'));
    for (let day = 0; day < 6; day += 1) {
      await rig.advance(20 * 3600);
      expect((await page.invoke('where')).status).toBe(200);
    }
    await rig.advance(7 * 24 * 3600 - 6 * 20 * 3600);
    const answer = await page.invoke('where');
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('platform.session_over');
    expect(answer.setCookie).toMatch(/Max-Age=0/);
  });

  it(`revoked access is told within ${RESOLVE_INTERVAL_SECONDS} s: the session is resolved again on use, and nothing more is read`, async () => {
    const page = new Page(rig);
    const other = new Page(rig);
    await page.open(await rig.launchCode('member'));
    await other.open(await rig.launchCode('personal'));
    await page.invoke('notes.add', { text: 'mine' });
    // within the interval: no resolve at all, however many calls
    await rig.advance(RESOLVE_INTERVAL_SECONDS - 1);
    for (let i = 0; i < 5; i += 1) expect((await page.invoke('notes.list')).status).toBe(200);
    expect(rig.resolveCalls).toBe(0);
    await rig.setAccess('member', 'revoked');
    try {
      await rig.advance(2); // the interval has passed since the sign-in
      const told = await page.invoke('notes.list');
      expect(told.status).toBe(401);
      expect(told.body.error.code).toBe('platform.session_over');
      expect(told.setCookie).toMatch(/Max-Age=0/);
      expect(rig.resolveCalls).toBe(1);
      // the old cookie reads nothing any more
      expect((await page.request('/platform/session')).status).toBe(401);
      // another person is unaffected (resolved once, still granted)
      expect((await other.invoke('where')).status).toBe(200);
      expect(rig.resolveCalls).toBe(2);
    } finally {
      await rig.setAccess('member', 'granted');
    }
  });

  it('a restarted host keeps the person signed in, in the same workspace', async () => {
    const page = new Page(rig);
    await page.open(await rig.launchCode('member'));
    await page.invoke('notes.add', { text: 'before restart' });
    await rig.restartHost();
    expect((await page.invoke('notes.list')).body.result).toEqual(['before restart']);
  });
});

describe('platform host: secret confinement', () => {
  it('launch codes, session ids and the credential appear in no log line, answer, URL or data file', async () => {
    const member = new Page(rig);
    const personal = new Page(rig);
    const codes = [await rig.launchCode('member'), await rig.launchCode('personal')];
    await member.open(codes[0]!);
    await personal.open(codes[1]!);
    await new Page(rig).open(codes[0]!); // replayed code: refused
    await member.request(`/?launchCode=${codes[0]}`); // the page as the platform opens it
    await member.invoke('notes.add', { text: 'x' });
    await rig.advance(18 * 3600); // renewal: a second session id
    await member.invoke('where');
    await personal.invoke('where');
    const sessionIds = await storedSessionIds(rig.secrets);
    expect(sessionIds).toHaveLength(2);
    const credential = rig.sim.platform.apps.find((a) => a.appKey === APP_KEY)!.appCredential;
    const secrets = [...codes, ...sessionIds, credential];

    const places: [string, string][] = [
      ...rig.logLines.map((line): [string, string] => ['log', line]),
      ...[...member.answers, ...personal.answers].map((text): [string, string] => ['answer', text]),
      ...filesUnder(rig.dataDir).map((file): [string, string] => [
        file,
        readFileSync(file).toString('latin1'),
      ]),
    ];
    expect(rig.logLines.length).toBeGreaterThan(5);
    expect(filesUnder(rig.dataDir).length).toBeGreaterThan(0);
    for (const [where, text] of places)
      for (const secret of secrets) expect(text.includes(secret), `${where} holds a secret`).toBe(false);
    // …and they are where they belong: the session ids in the secret store
    expect(sessionIds.every((id) => id.length > 0)).toBe(true);
  });
});
