/**
 * Framewright as the CALLEE of another application (issue 29): the simulator's storyboard-helper
 * sends a board to `POST /inter-app/2026-01/sequences` of a `serve --platform` host. Accepted only
 * with a grant Framewright resolves with its own credential for `sequence.create` and the digest
 * of the exact bytes received; every refusal creates nothing and reveals nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeErrorOf } from '../../../src/main/core/api-clients/runtime/runtime-errors.js';
import type { SentBoard } from '../../../src/main/core/inter-app/sequence-create-body.js';
import type { ResolvedCalleeGrant } from '../../../src/main/core/inter-app/sequence-create-callee.js';
import { subjectKeyOf } from '../../../src/main/core/platform/runtime-sessions/server-sessions.js';
import type { PlatformWorkspace } from '../../../src/main/core/platform/platform-workspaces.js';
import type { PlatformWorkspaceCore } from '../../../src/main/core/platform/platform-workspace-parts.js';
import { openPlatformWorld, type PlatformWorld } from '../../support/worlds/platform-world.js';

const PATH = '/inter-app/2026-01/sequences';
const MEMBER_BOARD = 'brd_sim_lighthouse';

let world: PlatformWorld;
/** Every board importBoard received, with the workspace it was for. */
const imported: { subjectKey: string; userId: string; board: SentBoard }[] = [];
/** Every grant Framewright resolved (to prove none of them is written anywhere). */
const seenGrants = new Set<string>();

const app = (key: string) => world.sim.platform.apps.find((a) => a.appKey === key)!;
const digestOf = (bytes: Buffer | string) => 'sha256:' + createHash('sha256').update(bytes).digest('hex');

/**
 * Framewright's resolve with its own credential. Lane I1's `SessionServiceClient.resolveGrant`
 * replaces this at merge; the errors are that client's (`runtimeErrorOf`: status, Retry-After).
 */
async function resolveGrant(use: { grant: string; scope: string; requestDigest: string }) {
  seenGrants.add(use.grant);
  const studio = app('framewright-studio');
  const res = await fetch(`${world.sim.platform.sessionBaseUrl}/apps/${studio.appKey}/app-grants:resolve`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${studio.appCredential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(use),
  });
  const text = (await res.text()).replaceAll(use.grant, '[grant]');
  if (!res.ok) throw runtimeErrorOf(res.status, res.headers.get('retry-after'), text, 'Resolve app grant');
  return JSON.parse(text) as ResolvedCalleeGrant;
}

async function importBoard(workspace: PlatformWorkspace<PlatformWorkspaceCore>, board: SentBoard) {
  imported.push({ subjectKey: workspace.subjectKey, userId: workspace.subject.userId, board });
  return { sequenceId: `seq_test_${imported.length}` };
}

beforeAll(async () => {
  world = await openPlatformWorld({ interApp: { appKey: 'framewright-studio', resolveGrant, importBoard } });
});
afterAll(async () => {
  await world?.close();
});

async function simulator(method: string, url: string, json?: unknown) {
  const res = await fetch(url, {
    method,
    headers: { Authorization: `Bearer ${world.sim.token}`, 'Content-Type': 'application/json' },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** A RuntimeSession of `appKey` for a fixture person (the application center, then the exchange). */
async function sessionOf(appKey: string, user: string): Promise<string> {
  const launched = await simulator('POST', world.sim.platform.launchUrl, { appKey, user });
  const launchCode = (JSON.parse(launched.text) as { runtime: { launchCode: string } }).runtime.launchCode;
  const a = app(appKey);
  const res = await fetch(`${world.sim.platform.sessionBaseUrl}/apps/${appKey}/runtime-sessions:exchange`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${a.appCredential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ launchCode }),
  });
  return ((await res.json()) as { sessionId: string }).sessionId;
}

async function issue(
  callerKey: string,
  sessionId: string,
  body: { calleeAppKey: string; scope: string; requestDigest: string; idempotencyKey: string },
): Promise<string> {
  const caller = app(callerKey);
  const res = await fetch(`${world.sim.platform.sessionBaseUrl}/apps/${callerKey}/app-grants`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${caller.appCredential}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ runtimeSessionId: sessionId, apiVersion: '2026-01', ...body }),
  });
  const answer = (await res.json()) as { grant?: string };
  expect(res.status, JSON.stringify(answer)).toBe(200);
  seenGrants.add(answer.grant!);
  return answer.grant!;
}

/** A call to Framewright as another application's backend makes it: the grant header, JSON, no cookie. */
async function callFramewright(body: Buffer, grant?: string) {
  const res = await fetch(world.origin + PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(grant ? { 'X-Platform-App-Grant': grant } : {}) },
    body,
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const BOARD: SentBoard = {
  boardId: 'brd_test_1',
  title: 'A test board',
  revision: 1,
  panels: [
    {
      panelId: 'pnl_test_1',
      position: 1,
      prompt: 'A lighthouse at dusk.',
      image: {
        url: 'http://127.0.0.1:9/p1.png',
        mimeType: 'image/png',
        sha256: 'a'.repeat(64),
        byteSize: 100,
      },
    },
  ],
};
const BOARD_BYTES = Buffer.from(JSON.stringify(BOARD));

/** The member's workspace folder (named by the same key their cookie reaches). */
const MEMBER_SUBJECT = {
  tenantId: 'tnt_sim_northwind',
  accountId: 'acc_sim_member',
  userId: 'usr_sim_member',
  organizationId: 'org_sim_northwind',
};
const memberFolder = () => path.join(world.dataDir, 'subjects', subjectKeyOf(MEMBER_SUBJECT));

function expectUniformNotFound(answer: { status: number; text: string }) {
  expect(answer.status, answer.text).toBe(404);
  const body = JSON.parse(answer.text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId']);
  expect(body).toMatchObject({
    code: 'APP_GRANT_NOT_FOUND',
    message: 'No valid grant for this callee, scope and request digest.',
  });
}

describe('Framewright as the callee of sequence.create', () => {
  it('refuses, creating nothing and revealing nothing: no header, another body, an expired grant, a grant for another application or scope', async () => {
    const helperMember = await sessionOf('storyboard-helper', 'member');
    const studioMember = await sessionOf('framewright-studio', 'member');
    // no header at all
    const missing = await callFramewright(BOARD_BYTES);
    expect(missing.status).toBe(401);
    expect(JSON.parse(missing.text)).toMatchObject({ code: 'APP_GRANT_MISSING' });

    // a grant for exactly BOARD_BYTES, sent with one byte changed
    const good = await issue('storyboard-helper', helperMember, {
      calleeAppKey: 'framewright-studio',
      scope: 'sequence.create',
      requestDigest: digestOf(BOARD_BYTES),
      idempotencyKey: 'callee-test-1',
    });
    const changed = Buffer.from(BOARD_BYTES.toString('utf8').replace('A test board', 'A test boare'));
    expect(changed.length).toBe(BOARD_BYTES.length);
    expectUniformNotFound(await callFramewright(changed, good));
    // (a malformed body under a grant is refused after the grant, here by the digest already)
    expectUniformNotFound(await callFramewright(Buffer.from('{"not":"a board"}'), good));

    // a grant for another application (the studio's grant to storyboard-helper), another scope
    for (const scope of ['storyboard.read', 'storyboard.write']) {
      const other = await issue('framewright-studio', studioMember, {
        calleeAppKey: 'storyboard-helper',
        scope,
        requestDigest: digestOf(BOARD_BYTES),
        idempotencyKey: `callee-test-other-${scope}`,
      });
      expectUniformNotFound(await callFramewright(BOARD_BYTES, other));
    }
    // an unknown grant
    expectUniformNotFound(await callFramewright(BOARD_BYTES, 'agr_not_a_grant'));

    // an expired grant (the simulator clock moves past its 2 minutes)
    const expiring = await issue('storyboard-helper', helperMember, {
      calleeAppKey: 'framewright-studio',
      scope: 'sequence.create',
      requestDigest: digestOf(BOARD_BYTES),
      idempotencyKey: 'callee-test-expiring',
    });
    expect(
      (await simulator('POST', `${world.sim.baseUrl}/_simulator/clock`, { advanceSeconds: 121 })).status,
    ).toBe(200);
    expectUniformNotFound(await callFramewright(BOARD_BYTES, expiring));

    // nothing created: no import, and the member's workspace was not even opened
    expect(imported).toHaveLength(0);
    expect(existsSync(memberFolder())).toBe(false);
  });

  it("accepts the board storyboard-helper sends through its inspection route, in the owner's workspace, once", async () => {
    const sendUrl = `${app('storyboard-helper').businessBaseUrl}/_simulator/boards/${MEMBER_BOARD}/send-to-framewright`;
    /** storyboard-helper sends the board; it is answered `status` and the one sequence. */
    const sendAnswered = async (status: number, replayed: boolean) => {
      const sent = await simulator('POST', sendUrl, { targetBaseUrl: world.origin });
      expect(sent.status, sent.text).toBe(status);
      expect(JSON.parse(sent.text)).toEqual({ sequenceId: 'seq_test_1', boardId: MEMBER_BOARD, replayed });
    };
    await sendAnswered(201, false);
    expect(imported).toHaveLength(1);
    const call = imported[0]!;
    expect(call.userId).toBe('usr_sim_member');
    // the workspace the member's own cookie reaches
    const page = await world.open('member');
    expect(call.subjectKey).toBe(subjectKeyOf((await world.sessionOf(page)).subject));
    expect(call.subjectKey).toBe(path.basename(memberFolder()));
    expect(call.board).toMatchObject({ boardId: MEMBER_BOARD, title: 'The lighthouse keeper', revision: 1 });
    expect(call.board.panels.map((p) => p.position)).toEqual([1, 2, 3]);
    expect(call.board.panels[0]!.image.mimeType).toBe('image/png');

    // the same revision again: the same grant and bytes, the same sequence, nothing imported again
    await sendAnswered(200, true);
    expect(imported).toHaveLength(1);
  });

  it("never takes a person from a cookie: the member's signed-in browser without a grant is refused", async () => {
    const page = await world.open('member');
    const before = imported.length;
    const res = await fetch(world.origin + PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: page.cookie, Origin: world.origin },
      body: BOARD_BYTES,
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe('APP_GRANT_MISSING');
    expect(imported).toHaveLength(before);
  });

  it("keeps every grant out of the logs, the backend's and the simulator's data folders", async () => {
    expect(seenGrants.size).toBeGreaterThan(4);
    const lines = world.logLines.join('\n');
    expect(lines).toContain(`POST ${PATH} 201`);
    expect(lines).toContain(`POST ${PATH} 404`);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else files.push(full);
      }
    };
    // the world's folder: the backend's data and the simulator's (its platform state included)
    walk(path.dirname(world.dataDir));
    expect(files.some((f) => f.endsWith('platform-state.jsonl'))).toBe(true);
    expect(files.some((f) => f.endsWith('sequence-creates.jsonl'))).toBe(true);
    for (const grant of seenGrants) {
      expect(lines).not.toContain(grant);
      for (const file of files) expect(readFileSync(file).includes(grant), file).toBe(false);
    }
  });
});
