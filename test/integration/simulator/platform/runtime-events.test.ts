import { beforeAll, describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import {
  expectPlatformError,
  runtimeCall,
  settleRuntimeJobs,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let manager: Json;
const jobIds: string[] = [];

interface SseEvent {
  event: string;
  id: string;
  data: Json;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const fields = Object.fromEntries(
        block
          .split('\n')
          .map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]),
      );
      return { event: fields.event ?? '', id: fields.id ?? '', data: JSON.parse(fields.data ?? 'null') };
    });
}

async function events(query: string, options: { sessionId?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(`${client.platform.runtimeBaseUrl}/media/events${query}`, {
    headers: {
      Authorization: `Bearer ${studio.appCredential}`,
      'X-Platform-Runtime-Session-Id': options.sessionId ?? member.sessionId,
      ...options.headers,
    },
  });
  const text = await res.text();
  return {
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    list: res.status === 200 ? parseSse(text) : [],
    text,
  };
}

const T2V = {
  model: 'h3-video',
  params: { prompt: 'Fireflies over a pond', seed: 3 },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
};

usePlatformWorld({ simulator: { timeScale: 0.02 }, sessions: ['member', 'manager'] }, (world) => {
  ({ client, studio } = world);
  ({ member, manager } = world.sessions);
});
beforeAll(async () => {
  for (const clientTaskId of ['ev-1', 'ev-2']) {
    const res = await runtimeCall(client, studio, 'POST', '/media/jobs', {
      sessionId: member.sessionId,
      json: { ...T2V, clientTaskId },
    });
    expect(res.status).toBe(202);
    jobIds.push(res.data.platformJobId);
  }
  const settled = await settleRuntimeJobs(client, studio, member.sessionId, jobIds);
  expect(settled.map((j) => j.status)).toEqual(['succeeded', 'succeeded']);
});

describe('GET /media/events', () => {
  it('once=true: snapshot first, job stage events with numeric ids equal to their JSON cursor, heartbeat, done', async () => {
    const all = await events('?once=true&limit=200');
    expect(all.status).toBe(200);
    expect(all.type).toMatch(/^text\/event-stream/);
    const kinds = all.list.map((e) => e.event);
    expect(kinds[0]).toBe('snapshot');
    expect(kinds.slice(-2)).toEqual(['heartbeat', 'done']);
    expect(all.list[0]!.data.jobs.map((j: Json) => j.platformJobId).sort()).toEqual([...jobIds].sort());
    const jobEvents = all.list.filter((e) => e.event === 'job');
    for (const e of all.list) {
      expect(e.id).toMatch(/^\d+$/);
      expect(e.data.cursor).toBe(Number(e.id));
    }
    const cursors = jobEvents.map((e) => e.data.cursor);
    expect(cursors).toEqual([...cursors].sort((a, b) => a - b));
    for (const id of jobIds) {
      const statuses = jobEvents.filter((e) => e.data.platformJobId === id).map((e) => e.data.status);
      expect(statuses[0]).toBe('queued');
      expect(statuses).toContain('running');
      expect(statuses.at(-1)).toBe('succeeded');
    }
    expect(all.list.at(-1)!.data.more).toBe(false);
  });

  it('resumes from a cursor (query or Last-Event-ID) with no gap and no duplicate, limit per round', async () => {
    const full = (await events('?once=true&limit=200')).list
      .filter((e) => e.event === 'job')
      .map((e) => e.data.cursor);
    const seen: number[] = [];
    let cursor = 0;
    for (let round = 0; round < 50; round += 1) {
      const res =
        round % 2
          ? await events(`?once=true&limit=3&cursor=${cursor}`)
          : await events('?once=true&limit=3', { headers: { 'Last-Event-ID': String(cursor) } });
      const jobs = res.list.filter((e) => e.event === 'job');
      expect(jobs.length).toBeLessThanOrEqual(3);
      seen.push(...jobs.map((e) => e.data.cursor));
      const done = res.list.at(-1)!;
      expect(done.event).toBe('done');
      cursor = Number(done.id);
      if (!done.data.more) break;
    }
    expect(seen).toEqual(full);
  });

  it("shows only the person's own jobs", async () => {
    const other = await events('?once=true&limit=200', { sessionId: manager.sessionId });
    expect(other.list.filter((e) => e.event === 'job')).toEqual([]);
    expect(other.list[0]!.data.jobs).toEqual([]);
  });

  it('refuses a job id as Last-Event-ID, a bad cursor and a limit outside 1..200', async () => {
    for (const res of [
      await events('?once=true', { headers: { 'Last-Event-ID': jobIds[0]! } }),
      await events('?once=true&cursor=-1'),
      await events('?once=true&limit=0'),
      await events('?once=true&limit=201'),
    ]) {
      expect(res.status, res.text).toBe(400);
      expect(JSON.parse(res.text).code).toBe('invalid_request');
    }
    expect((await events('?once=true&limit=200')).status).toBe(200);
    const noSession = await runtimeCall(client, studio, 'GET', '/media/events?once=true');
    expectPlatformError(noSession, 401, 'runtime_session_required');
  });

  it('a live stream delivers the events of a job created while it is open', async () => {
    const head = Number((await events('?once=true&limit=200')).list.at(-1)!.id);
    const controller = new AbortController();
    const res = await fetch(`${client.platform.runtimeBaseUrl}/media/events?cursor=${head}`, {
      headers: {
        Authorization: `Bearer ${studio.appCredential}`,
        'X-Platform-Runtime-Session-Id': member.sessionId,
      },
      signal: controller.signal,
    });
    expect(res.status).toBe(200);
    const created = await runtimeCall(client, studio, 'POST', '/media/jobs', {
      sessionId: member.sessionId,
      json: { ...T2V, clientTaskId: 'ev-live' },
    });
    const reader = res.body!.getReader();
    let text = '';
    const deadline = Date.now() + 60_000;
    while (!text.includes('"clientTaskId":"ev-live","status":"succeeded"') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString('utf8');
    }
    controller.abort();
    const list = parseSse(text.slice(0, text.lastIndexOf('\n\n') + 2));
    expect(list[0]!.event).toBe('snapshot');
    const live = list.filter((e) => e.event === 'job');
    expect(live.every((e) => e.data.platformJobId === created.data.platformJobId)).toBe(true);
    expect(live.map((e) => e.data.status)).toContain('succeeded');
    expect(Math.min(...live.map((e) => e.data.cursor))).toBeGreaterThan(head);
  });
});
