import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import type { DraftForm, DraftMedia, ServicesList } from '../../../src/shared/bridge/contract.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { mediaSignatureOf } from '../../../src/main/core/library/media-resolver.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let core: AppCore;
let dataDir: string;
let work: string;
const events: { event: string; payload: unknown }[] = [];

async function call<T = unknown>(method: string, params: unknown): Promise<T> {
  const response = await core.dispatcher.dispatch(method, params);
  if (!response.ok) throw Object.assign(new Error(response.error.message), response.error);
  return response.result as T;
}

async function waitFor<T>(read: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function baseForm(mode = 't2v'): Promise<DraftForm> {
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  const service = list.services.find((s) => s.available)!;
  return {
    profileId: 'simulator',
    model: service.modelAlias,
    generationMode: mode,
    prompt: 'A lighthouse at dusk, waves below',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: 7,
    references: [],
  };
}

function stage(file: string): Promise<DraftMedia> {
  return core.studio.staged.stageStream(createReadStream(file), path.basename(file)) as Promise<DraftMedia>;
}

beforeAll(async () => {
  dataDir = tempFolder('fw-studio-');
  work = tempFolder('fw-studio-files-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  core.events.subscribe((event, payload) => events.push({ event, payload }));
  const { ffmpeg } = locateMediaTools();
  execFileSync(ffmpeg, [
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc=size=640x360',
    '-frames:v',
    '1',
    path.join(work, 'a.png'),
  ]);
  writeFileSync(path.join(work, 'notes.txt'), 'not media');
});

afterAll(async () => {
  await core?.close();
});

describe('studio handlers over a real core and simulator', () => {
  it('lists video services from discovery, unavailable ones included and marked', async () => {
    const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
    expect(list.services.length).toBeGreaterThanOrEqual(2);
    expect(list.services.some((s) => !s.available)).toBe(true);
    expect(list.services.every((s) => s.serviceKind === 'video_generation')).toBe(true);
  });

  it('a draft keeps its idempotency key; submitting it twice (even concurrently) makes one job', async () => {
    const draft = await call<{ id: string; idempotencyKey: string }>('drafts.create', {
      form: await baseForm(),
    });
    const project = await call<{ id: string }>('projects.create', { name: 'Submitted under a project' });
    await call('projects.fileDraft', { draftId: draft.id, projectId: project.id });
    const [a, b] = await Promise.all([
      call<{ jobRowId: number | null; idempotencyKey: string }>('video.submit', { draftId: draft.id }),
      call<{ jobRowId: number | null; idempotencyKey: string }>('video.submit', { draftId: draft.id }),
    ]);
    const again = await call<{ jobRowId: number | null; idempotencyKey: string }>('video.submit', {
      draftId: draft.id,
    });
    expect(a.idempotencyKey).toBe(draft.idempotencyKey);
    expect(b.jobRowId).toBe(a.jobRowId);
    expect(again.jobRowId).toBe(a.jobRowId);
    const jobs = await call<{ items: { rowId: number }[] }>('jobs.list', { limit: 50 });
    expect(jobs.items.filter((j) => j.rowId === a.jobRowId)).toHaveLength(1);
    // the job carries its draft's project
    const intent = core.services.journal.jobs.getIntent(draft.idempotencyKey)!;
    expect(core.services.journal.projects.jobProject(intent.id)).toBe(project.id);
    // the simulator saw the key created once
    const running = await core.services.simulator.get();
    const res = await fetch(`${running.baseUrl}/_simulator/idempotency`, {
      headers: { authorization: `Bearer ${running.token}` },
    });
    const seen = (await res.json()) as { data: { idempotencyKey: string; created: number }[] };
    expect(seen.data.filter((d) => d.idempotencyKey === draft.idempotencyKey)).toEqual([
      expect.objectContaining({ created: 1 }),
    ]);
    // a submitted draft is read-only
    await expect(call('drafts.save', { draftId: draft.id, form: await baseForm() })).rejects.toMatchObject({
      code: 'draft.submitted',
    });
    // the job finishes, is verified, and its media resolve only through the journal
    const done = await waitFor(async () => {
      const job = await call<{
        status: string;
        outputs: { verified: boolean; mediaUrl: string | null; posterUrl: string | null }[];
      }>('jobs.get', { jobRowId: a.jobRowId });
      return job.outputs.some((o) => o.verified) ? job : undefined;
    });
    expect(done.status).toBe('succeeded');
    const url = done.outputs[0]!.mediaUrl!;
    expect(url).toMatch(/^\/media\/library\/\d+\/\d+\?s=[\w-]+$/);
    const route = new URL(url, 'http://host.invalid');
    const media = await core.studio.media.resolve(
      route.pathname.slice('/media/'.length),
      mediaSignatureOf(route),
    );
    expect(media?.mimeType).toBe('video/mp4');
    expect(media?.path.startsWith(core.services.libraryDir)).toBe(true);
    const posterUrl = new URL(done.outputs[0]!.posterUrl!, 'http://host.invalid');
    const poster = await core.studio.media.resolve(
      posterUrl.pathname.slice('/media/'.length),
      mediaSignatureOf(posterUrl),
    );
    expect(poster?.mimeType).toBe('image/png');
    expect(events.some((e) => e.event === 'jobs.changed')).toBe(true);
    // the library lists it and finds it by prompt
    const found = await call<{ items: { rowId: number }[] }>('library.list', { query: 'lighthouse' });
    expect(found.items.map((j) => j.rowId)).toContain(a.jobRowId);
    // Copy to Create: a new draft with a new key and the same settings
    const copy = await call<{ id: string; idempotencyKey: string; form: DraftForm }>('drafts.create', {
      fromJobRowId: a.jobRowId,
    });
    expect(copy.idempotencyKey).not.toBe(draft.idempotencyKey);
    expect(copy.form.seed).toBe(7);
    expect(copy.form.prompt).toBe('A lighthouse at dusk, waves below');
    // delete: rows and files go, and the media route no longer resolves
    const deleted = await call<{ deleted: boolean; filesRemoved: number }>('library.delete', {
      jobRowId: a.jobRowId,
    });
    expect(deleted.deleted).toBe(true);
    expect(deleted.filesRemoved).toBeGreaterThanOrEqual(2);
    expect(existsSync(media!.path)).toBe(false);
    expect(await core.studio.media.resolve(url.slice('/media/'.length))).toBeUndefined();
    const after = await call<{ items: { rowId: number }[] }>('library.list', {});
    expect(after.items.map((j) => j.rowId)).not.toContain(a.jobRowId);
    await expect(call('jobs.get', { jobRowId: a.jobRowId })).rejects.toMatchObject({ code: 'job.not_found' });
  });

  it('the media resolver refuses anything that is not a verified library output or a staged file', async () => {
    for (const route of [
      '../journal.sqlite',
      'library/1/999999',
      'library/999/1',
      'staged/../../journal.sqlite',
      'staged/00000000-0000-0000-0000-000000000000',
      '/etc/passwd',
    ])
      expect(await core.studio.media.resolve(route)).toBeUndefined();
  });

  it('stages files by content, refuses non-media, and an invalid draft is refused with violations', async () => {
    const image = await stage(path.join(work, 'a.png'));
    expect(image).toMatchObject({ kind: 'image', mimeType: 'image/png', width: 640, height: 360 });
    await expect(stage(path.join(work, 'notes.txt'))).rejects.toMatchObject({
      code: 'file.unknown_type',
      message: expect.stringContaining('notes.txt'),
    });
    const form = { ...(await baseForm('first_last_frame_video')), firstFrame: image };
    const draft = await call<{ id: string }>('drafts.create', { form });
    await expect(call('video.submit', { draftId: draft.id })).rejects.toMatchObject({
      code: 'h3.draft_invalid',
      details: expect.arrayContaining([expect.objectContaining({ code: 'mode.last_frame_required' })]),
    });
    // nothing was committed: the draft is still editable
    const saved = await call<{ submittedAt: number | null }>('drafts.save', { draftId: draft.id, form });
    expect(saved.submittedAt).toBeNull();
  });

  it('a refused creation (insufficient balance) commits no job and leaves the draft editable with a new key', async () => {
    await call('simulator.setScenario', { name: 'insufficient_balance' });
    try {
      const draft = await call<{ id: string; idempotencyKey: string }>('drafts.create', {
        form: await baseForm(),
      });
      await expect(call('video.submit', { draftId: draft.id })).rejects.toMatchObject({
        code: 'api.balance',
      });
      const after = await call<{ submittedAt: number | null; idempotencyKey: string }>('drafts.get', {
        draftId: draft.id,
      });
      expect(after.submittedAt).toBeNull();
      expect(after.idempotencyKey).not.toBe(draft.idempotencyKey);
    } finally {
      await call('simulator.setScenario', { name: null });
    }
  });

  it('profiles.add stores the key in the keychain and never returns it', async () => {
    const secret = 'sk-test-never-shown-0123456789';
    const summary = await call<Record<string, unknown>>('profiles.add', {
      kind: 'personal',
      name: 'Work key',
      baseUrl: 'https://api.example.invalid/v1',
      secret,
    });
    expect(summary).toMatchObject({ kind: 'personal', hasSecret: true });
    expect(JSON.stringify(summary)).not.toContain(secret);
    expect(JSON.stringify(events)).not.toContain(secret);
    // a taken name is refused with a reason that never carries the key
    const again = call('profiles.add', {
      kind: 'personal',
      name: 'work KEY',
      baseUrl: 'https://api.example.invalid/v1',
      secret,
    });
    await expect(again).rejects.toMatchObject({ code: 'profile.invalid' });
    await expect(again).rejects.not.toMatchObject({ message: expect.stringContaining(secret) });
    const removed = await call<{ removed: boolean }>('profiles.remove', { profileId: summary.id });
    expect(removed.removed).toBe(true);
  });

  it('profiles.add refuses plain http to another machine, and a debug token without its expiry', async () => {
    const before = await call<{ profiles: unknown[] }>('profiles.list', {});
    await expect(
      call('profiles.add', {
        kind: 'personal',
        name: 'Clear text',
        baseUrl: 'http://api.example.invalid/v1',
        secret: 'sk-test-http-0123456789',
      }),
    ).rejects.toMatchObject({
      code: 'profile.invalid',
      message: expect.stringMatching(/must use https for api\.example\.invalid/),
    });
    await expect(
      call('profiles.add', {
        kind: 'debug',
        name: 'Runtime',
        baseUrl: 'https://rt.example.invalid/v1',
        secret: 'dbg-test-token-0123456789',
      }),
    ).rejects.toMatchObject({ code: 'profile.invalid', message: expect.stringMatching(/needs its expiry/) });
    expect((await call<{ profiles: unknown[] }>('profiles.list', {})).profiles).toHaveLength(
      before.profiles.length,
    );
    const local = await call<{ id: string; baseUrl: string }>('profiles.add', {
      kind: 'personal',
      name: 'This machine',
      baseUrl: 'http://127.0.0.1:9/v1',
      secret: 'sk-test-local-0123456789',
    });
    expect(local.baseUrl).toBe('http://127.0.0.1:9/v1');
    await call('profiles.remove', { profileId: local.id });
  });
});
