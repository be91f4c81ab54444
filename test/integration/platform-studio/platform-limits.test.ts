import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { PLATFORM_CSRF_HEADER } from '../../../src/shared/bridge/platform-host-protocol.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { startStudioRig, type Page, type StudioRig } from './rig.js';

/**
 * Limits per person on the platform backend (issue 27 §4): a person over their quota is told so
 * and loses nothing while the next person is unaffected; a session's concurrent uploads and calls
 * are capped and given back when a request is aborted; unnamed objects are collected; idle
 * workspaces close and open again with their data; background opens call nothing for a person.
 */

const QUOTA_BYTES = 2 * 1024 * 1024;
const QUOTA_FILES = 12;
let clock = Date.now();
let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig({
    recordRuntime: true,
    recordSessions: true,
    limits: {
      storageBytes: QUOTA_BYTES,
      storageFiles: QUOTA_FILES,
      uploadsPerSession: 2,
      callsPerSession: 2,
      socketsPerSession: 2,
    },
    now: () => clock,
  });
});
afterAll(async () => {
  await rig?.close();
});

const T2V = {
  profileId: 'ignored-by-the-platform',
  model: 'h3-video',
  generationMode: 'i2v',
  prompt: 'The frame comes alive',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

async function workspaceOf(page: Page) {
  const session = await rig.sessionOf(page);
  return rig.backend.workspaces.workspaceOf(session.subject);
}

/** What a person stores: staging (thumbnails left out), objects, exports, their library. */
function storedFiles(dir: string): string[] {
  return ['staging', 'objects', 'exports', 'library'].flatMap((folder) => filesUnder(path.join(dir, folder)));
}

function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && !e.parentPath.includes('.posters'))
      .map((e) => path.join(e.parentPath, e.name));
  } catch {
    return [];
  }
}

/** A request of `page` whose body is sent in part and then held (the client has not finished). */
function heldRequest(page: Page, pathAndQuery: string, contentType: string) {
  const url = new URL(pathAndQuery, rig.origin);
  const req = http.request(url, {
    method: 'POST',
    headers: {
      Origin: rig.origin,
      Cookie: page.cookie,
      [PLATFORM_CSRF_HEADER]: page.csrf,
      'Content-Type': contentType,
      'Content-Length': String(10 * 1024 * 1024),
    },
  });
  const answered = new Promise<number>((resolve) => {
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(-1));
  });
  req.write(randomBytes(64 * 1024));
  return { req, answered };
}

/** Opens the events socket as a page would: 101, or the refusal's status and Retry-After. */
function openEvents(page: Page) {
  const socket = new WebSocket(
    `${rig.origin.replace('http', 'ws')}/bridge/events`,
    ['framewright.events', `framewright.csrf.${page.csrf}`],
    { headers: { Origin: rig.origin, Cookie: page.cookie } },
  );
  const opened = new Promise<{ status: number; retryAfter?: string }>((resolve) => {
    socket.once('open', () => resolve({ status: 101 }));
    socket.once('unexpected-response', (_req, res) =>
      resolve({ status: res.statusCode ?? 0, retryAfter: String(res.headers['retry-after']) }),
    );
    socket.once('error', () => resolve({ status: 0 }));
  });
  return { socket, opened };
}

describe('limits per person on the platform backend', () => {
  let member: Page;
  let personal: Page;
  const kept: string[] = [];

  it('a person over their quota gets quota.exceeded with their use and the limit; their files stay, the next person stages', async () => {
    member = await rig.open('member');
    personal = await rig.open('personal');
    const fixtures = mediaFixtures();
    for (const file of [fixtures.firstPng, fixtures.lastPng, fixtures.refJpg]) {
      const staged = await member.stage(file);
      expect(staged.ok).toBe(true);
      kept.push((staged as { result: { id: string } }).result.id);
    }
    const stagingDir = path.join((await workspaceOf(member)).dir, 'staging');
    const before = filesUnder(stagingDir).sort();
    expect(before).toHaveLength(3);

    // a file bigger than what is left: refused while it streams, the partial file removed
    const big = path.join(os.tmpdir(), `fw-quota-${process.pid}.bin`);
    writeFileSync(big, randomBytes(QUOTA_BYTES));
    const refused = await member.stage(big, 'big.mp4');
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.code).toBe('quota.exceeded');
    expect(refused.error.message).toMatch(/storage here is full: you use [\d.]+ (KiB|MiB) of 2 MiB/);
    expect(refused.error.details).toMatchObject({ maxBytes: QUOTA_BYTES, maxFiles: QUOTA_FILES });
    expect(filesUnder(stagingDir).sort()).toEqual(before);

    // the file count: Playground files fill it up to the limit, then every kind of file is refused
    const putSmall = () =>
      member.invoke('playground.files.put', {
        fileName: 'notes.txt',
        offset: 0,
        dataBase64: Buffer.from('hello').toString('base64'),
        last: true,
      });
    for (let i = 3; i < QUOTA_FILES; i += 1) expect((await putSmall()).ok).toBe(true);
    const chunk = await putSmall();
    expect(chunk.ok ? 'ok' : chunk.error.code).toBe('quota.exceeded');
    const overFiles = await member.stage(fixtures.shortWav);
    expect(overFiles.ok).toBe(false);
    if (!overFiles.ok) {
      expect(overFiles.error.code).toBe('quota.exceeded');
      expect(overFiles.error.message).toContain(`you use ${QUOTA_FILES} of ${QUOTA_FILES} files`);
    }
    // the count kept in memory is what the folders hold
    const workspace = await workspaceOf(member);
    expect(workspace.core.usage().usedFiles).toBe(storedFiles(workspace.dir).length);

    // their earlier files are intact and still theirs
    for (const id of kept)
      expect((await member.call<{ id: string }>('files.get', { fileId: id })).id).toBe(id);
    // the next person is unaffected
    const other = await personal.stage(fixtures.firstPng);
    expect(other.ok).toBe(true);
  });

  it('caps a session’s concurrent uploads and calls with 429 + Retry-After, given back when a request is aborted', async () => {
    const uploads = [1, 2].map(() =>
      heldRequest(personal, '/bridge/files?name=held.mp4', 'application/octet-stream'),
    );
    await new Promise((r) => setTimeout(r, 200));
    const third = await fetch(`${rig.origin}/bridge/files?name=x.png`, {
      method: 'POST',
      headers: {
        Origin: rig.origin,
        Cookie: personal.cookie,
        [PLATFORM_CSRF_HEADER]: personal.csrf,
        'Content-Type': 'application/octet-stream',
      },
      body: readFileSync(mediaFixtures().lastPng),
    });
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe('host.too_many_uploads');
    // another person's uploads are not counted against this session
    expect((await member.invoke('drafts.list')).ok).toBe(true);

    // the client goes away: its upload's count is given back and its partial file removed
    uploads[0]!.req.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect((await personal.stage(mediaFixtures().lastPng)).ok).toBe(true);
    uploads[1]!.req.destroy();

    const calls = [1, 2].map(() => heldRequest(personal, '/bridge/invoke', 'application/json'));
    await new Promise((r) => setTimeout(r, 200));
    const refused = await fetch(`${rig.origin}/bridge/invoke`, {
      method: 'POST',
      headers: {
        Origin: rig.origin,
        Cookie: personal.cookie,
        [PLATFORM_CSRF_HEADER]: personal.csrf,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({ method: 'drafts.list', params: {} }),
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('host.too_many_calls');
    for (const call of calls) call.req.destroy();
    await new Promise((r) => setTimeout(r, 300));
    expect((await personal.invoke('drafts.list')).ok).toBe(true);
    // event sockets: two at once, the third refused until one closes
    const sockets = [openEvents(personal), openEvents(personal)];
    for (const socket of sockets) expect((await socket.opened).status).toBe(101);
    const thirdSocket = openEvents(personal);
    expect(await thirdSocket.opened).toEqual({ status: 429, retryAfter: expect.stringMatching(/^\d+$/) });
    sockets[0]!.socket.terminate();
    await new Promise((r) => setTimeout(r, 200));
    const again = openEvents(personal);
    expect((await again.opened).status).toBe(101);
    for (const socket of [sockets[1]!, again]) socket.socket.close();

    // no partial upload was left in staging: the two staged files only
    const stagingDir = path.join((await workspaceOf(personal)).dir, 'staging');
    expect(filesUnder(stagingDir).filter((f) => !f.includes(`${path.sep}chunks${path.sep}`))).toHaveLength(2);
  });

  it('collects an old object nothing names, keeps one a live draft names and a young one', async () => {
    const fixtures = mediaFixtures();
    const workspace = await workspaceOf(personal);
    const stageDraft = async (file: string) => {
      const staged = await personal.stage(file);
      expect(staged.ok).toBe(true);
      const firstFrame = (staged as { result: Record<string, unknown> }).result;
      const draft = await personal.call<{ id: string }>('drafts.create', { form: { ...T2V, firstFrame } });
      // the dry-run stores the frame as an object the platform reads by a signed URL
      expect(
        (await personal.call<{ admitted: boolean }>('video.admission', { draftId: draft.id })).admitted,
      ).toBe(true);
      return { draft, sha256: firstFrame.sha256 as string };
    };
    const named = await stageDraft(fixtures.firstPng);
    const unnamed = await stageDraft(fixtures.refJpg);
    const young = await stageDraft(fixtures.refWebp);
    // two drafts stop naming their frame
    for (const { draft } of [unnamed, young])
      await personal.call('drafts.save', { draftId: draft.id, form: { ...T2V, generationMode: 't2v' } });
    const objectPath = (sha256: string) => workspace.core.storage.pathOf(sha256);
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const { sha256 } of [named, unnamed]) utimesSync(objectPath(sha256), twoHoursAgo, twoHoursAgo);
    const usedBefore = workspace.core.usage().usedFiles;

    await rig.backend.housekeeping();

    const exists = (sha256: string) =>
      filesUnder(path.dirname(objectPath(sha256))).includes(objectPath(sha256));
    expect(exists(unnamed.sha256)).toBe(false);
    expect(exists(named.sha256)).toBe(true);
    expect(exists(young.sha256)).toBe(true);
    // the quota counts the collected object no more
    expect(workspace.core.usage().usedFiles).toBe(usedBefore - 1);
  });

  it('closes an idle workspace and opens it again on the next request, with its data', async () => {
    const key = (await workspaceOf(member)).subjectKey;
    const drafts = await member.call<unknown[]>('drafts.list');
    clock += 10 * 60_000;
    // not idle long enough: kept
    await rig.backend.closeIdleWorkspaces();
    expect(rig.backend.workspaces.openWorkspaces().map((w) => w.subjectKey)).toContain(key);
    clock += 6 * 60_000;
    await rig.backend.closeIdleWorkspaces();
    expect(rig.backend.workspaces.openWorkspaces().map((w) => w.subjectKey)).not.toContain(key);

    // the next request opens it again: drafts, staged files and the quota's count are as they were
    expect(await member.call<unknown[]>('drafts.list')).toEqual(drafts);
    for (const id of kept)
      expect((await member.call<{ id: string }>('files.get', { fileId: id })).id).toBe(id);
    expect(rig.backend.workspaces.openWorkspaces().map((w) => w.subjectKey)).toContain(key);
    // counted again from the folders (the closed store's Playground files went with it)
    const reopened = await workspaceOf(member);
    await reopened.core.housekeeping();
    const files = storedFiles(reopened.dir);
    expect(files.some((f) => f.includes(`${path.sep}chunks${path.sep}`))).toBe(false);
    expect(reopened.core.usage().usedFiles).toBe(files.length);
    expect((await member.stage(mediaFixtures().refWebp)).ok).toBe(true);
  });

  it('resumes at start without calling the platform for a person with nothing unfinished, nor when Team opens their workspace', async () => {
    const memberSession = (await rig.sessionOf(member)).sessionId;
    const memberKey = (await workspaceOf(member)).subjectKey;
    const manager = await rig.open('manager');
    // the manager's sign-in starts their events consumer: its first call is theirs, made before the
    // restart (wait for it, so that it is not taken for a call of the restarted backend)
    const managerSession = (await rig.sessionOf(manager)).sessionId;
    await vi.waitFor(() =>
      expect(
        rig.runtimeCalls.some((c) => c.path.endsWith('/media/events') && c.sessionId === managerSession),
      ).toBe(true),
    );
    rig.sessionCalls.length = 0;
    rig.runtimeCalls.length = 0;
    await rig.restart();
    await new Promise((r) => setTimeout(r, 500));
    // every known person's workspace was opened by the resume; nobody's session was used or resolved
    expect(rig.backend.workspaces.openWorkspaces().length).toBeGreaterThanOrEqual(3);
    expect(rig.sessionCalls).toEqual([]);
    expect(rig.runtimeCalls).toEqual([]);

    // closed as idle, then Team lists the organization's projects from its people's workspaces:
    // opening the member's is a background open, made with no call for the member
    clock += 20 * 60_000;
    expect(await rig.backend.closeIdleWorkspaces()).toBeGreaterThanOrEqual(3);
    const usage = await manager.invoke('team.usage', {});
    expect(usage.ok).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(rig.backend.workspaces.openWorkspaces().map((w) => w.subjectKey)).toContain(memberKey);
    expect(rig.runtimeCalls.filter((c) => c.sessionId === memberSession)).toEqual([]);

    // the person's own next request does use their session
    expect((await member.invoke('connection.get')).ok).toBe(true);
    expect(rig.runtimeCalls.some((c) => c.sessionId === memberSession)).toBe(true);
  });
});
