import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_SESSION_OVER_CODE } from '../../../src/shared/bridge/platform-host-protocol.js';
import { secretStoreFiles } from '../../../src/main/core/platform/platform-backend.js';
import { RowEncryptedSecretStore } from '../../../src/main/core/secrets/row-encrypted-secret-store.js';
import { RecoveryRefs } from '../../../src/main/core/secrets/recovery-refs.js';
import { PlatformSecrets } from '../../../src/simulator/platform/secrets.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { startStudioRig, type Page, type StudioRig } from './rig.js';
import { PLATFORM_T2V_FORM } from '../../support/worlds/platform-world.js';

let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig();
});
afterAll(async () => {
  await rig?.close();
});

interface Draft {
  id: string;
  form: Record<string, unknown>;
}
interface Job {
  rowId: number;
  jobId: string;
  status: string;
  outputs: { state: string; mimeType: string | null; sha256: string | null; mediaUrl: string | null }[];
}

async function draftOf(page: Page, form: Record<string, unknown>): Promise<Draft> {
  return page.call<Draft>('drafts.create', { form: { profileId: 'ignored-by-the-platform', ...form } });
}

async function untilDone(page: Page, rowId: number, timeoutMs = 30_000): Promise<Job> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const job = await page.call<Job>('jobs.get', { jobRowId: rowId });
    if (job.status === 'succeeded' && job.outputs.every((o) => o.state === 'verified')) return job;
    if (job.status === 'failed' || Date.now() > end) throw new Error(`job ended ${job.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The recovery reference the simulated platform answered for a job (derived from its own key). */
function recoveryRefOf(rig: StudioRig, platformJobId: string): string {
  const simDir = path.join(path.dirname(rig.dataDir), 'sim');
  return new PlatformSecrets(simDir).derive('jrr', 'job_recovery', platformJobId);
}

/** Every file under `dir` (what the backend wrote on disk). */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('Framewright on the platform: the studio per person over the runtime', () => {
  let member: Page;
  let t2vJob: Job;

  it('answers who is signed in (never a session id) and lists the runtime services', async () => {
    member = await rig.open('member');
    const info = await member.call<{
      host: string;
      signedIn: { userId: string; appRoles: string[] };
      dataDir: string;
      capabilities: Record<string, unknown>;
    }>('app.info');
    expect(info.host).toBe('platform');
    // what the page may offer comes from the capabilities the platform declares
    expect(info.capabilities).toMatchObject({
      profiles: false,
      localFolders: false,
      markedExport: true,
      promptOptimization: true,
      batchImport: true,
      sequences: true,
      admissionGatesGenerate: true,
    });
    expect(info.capabilities.playgroundPanels).toHaveLength(8);
    expect(info.signedIn.userId).toBeTruthy();
    expect(info.signedIn.appRoles.length).toBeGreaterThan(0);
    expect(info.dataDir).toBe('');
    const services = await member.call<{
      services: { modelAlias: string; serviceKind: string; available: boolean }[];
    }>('services.list', { serviceKind: 'video_generation' });
    expect(services.services.some((s) => s.modelAlias === 'h3-video' && s.available)).toBe(true);
    // a method of a capability that is off is refused, in one place, with a clear code
    for (const [method, params] of [
      ['profiles.add', { kind: 'personal', name: 'x', baseUrl: 'https://x.test/v1', secret: 'k' }],
      ['simulator.setScenario', { name: null }],
      ['library.reveal', { jobRowId: 1 }],
    ] as const) {
      const refused = await member.invoke(method, params);
      expect(refused).toMatchObject({ ok: false, error: { code: 'platform.not_here' } });
    }
  });

  it('dry-runs a t2v draft (cost shown) and creates it once under the draft id, filed under a project', async () => {
    const project = await member.call<{ id: string }>('projects.create', { name: 'Spring campaign' });
    const draft = await draftOf(member, PLATFORM_T2V_FORM);
    await member.call('projects.fileDraft', { draftId: draft.id, projectId: project.id });
    const admission = await member.call<{
      admitted: boolean;
      admission: { estimatedCost?: { text: string } };
    }>('video.admission', { draftId: draft.id });
    expect(admission.admitted).toBe(true);
    expect(admission.admission.estimatedCost?.text).toMatch(/\d/);
    const submitted = await member.call<{ state: string; jobRowId: number }>('video.submit', {
      draftId: draft.id,
    });
    expect(submitted.state).toBe('accepted');
    // a second press joins the same job
    const again = await member.call<{ jobRowId: number }>('video.submit', { draftId: draft.id });
    expect(again.jobRowId).toBe(submitted.jobRowId);
    t2vJob = await untilDone(member, submitted.jobRowId);
    expect(t2vJob.outputs[0]!.mimeType).toBe('video/mp4');
    // the platform saw one job, with the draft id as clientTaskId; the body carried the project
    expect(await rig.platformJobsOf(member, draft.id)).toHaveLength(1);
    const session = await rig.sessionOf(member);
    const workspace = rig.backend.workspaces.workspaceOf(session.subject);
    const intent = workspace.journal.jobs.getIntentById(
      workspace.journal.jobs.getJob(submitted.jobRowId)!.intentId,
    )!;
    const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    expect(body).toMatchObject({
      clientTaskId: draft.id,
      params: { prompt: PLATFORM_T2V_FORM.prompt },
      resourceAttribution: { resourceType: 'project', resourceId: project.id },
    });
    expect(body).not.toHaveProperty('prompt');
  });

  it('serves the verified result to its owner only, through the media route with the cookie', async () => {
    const url = t2vJob.outputs[0]!.mediaUrl!;
    const own = await member.get(url);
    expect(own.status).toBe(200);
    const bytes = Buffer.from(await own.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(t2vJob.outputs[0]!.sha256);
    const stranger = await fetch(`${rig.origin}${url}`);
    expect(stranger.status).toBe(401);
  });

  it('creates an i2v video whose first frame travels as a signed readUrl', async () => {
    const staged = await member.stage(mediaFixtures().firstPng, 'first.png');
    expect(staged.ok).toBe(true);
    const firstFrame = (staged as { result: Record<string, unknown> }).result;
    const draft = await draftOf(member, {
      ...PLATFORM_T2V_FORM,
      generationMode: 'i2v',
      prompt: 'The frame comes alive',
      firstFrame,
    });
    const admission = await member.call<{ admitted: boolean }>('video.admission', { draftId: draft.id });
    expect(admission.admitted).toBe(true);
    const submitted = await member.call<{ jobRowId: number }>('video.submit', { draftId: draft.id });
    const job = await untilDone(member, submitted.jobRowId);
    expect(job.status).toBe('succeeded');
    // the readUrl named the person's own storage, and no query of it reached the log
    expect(rig.logLines.some((l) => l.startsWith('GET /objects/') && l.endsWith(' 200'))).toBe(true);
    expect(rig.logLines.join('\n')).not.toMatch(/sig=|exp=/);
  });

  it('generates speech, music, a Foley track over a video and an image through the runtime', async () => {
    type Generation = { state: string; outputs: { verified: boolean; mimeType: string | null }[] };
    const speech = await member.call<Generation>('playground.audio.generate', {
      model: 'cadence-speech',
      voiceMode: 'text',
      text: 'Welcome to the studio.',
    });
    expect(speech.state).toBe('succeeded');
    expect(speech.outputs.every((o) => o.verified)).toBe(true);
    const music = await member.call<Generation>('playground.audio.generate', {
      model: 'cadence-music',
      prompt: 'A calm piano loop',
      seconds: 5,
    });
    expect(music.state).toBe('succeeded');
    const chunk = await member.call<{ file: { fileId: string } | null }>('playground.files.put', {
      fileName: 'clip.mp4',
      offset: 0,
      dataBase64: readFileSync(mediaFixtures().refMp4).toString('base64'),
      last: true,
    });
    const foley = await member.call<Generation>('playground.audio.generate', {
      model: 'cadence-foley',
      prompt: 'Footsteps on gravel',
      seconds: 3,
      videoFileId: chunk.file!.fileId,
    });
    expect(foley.state).toBe('succeeded');
    const image = await member.call<Generation>('playground.image.generate', {
      model: 'lumen-image',
      prompt: 'A paper boat',
      inputFileIds: [],
    });
    expect(image.state).toBe('succeeded');
    expect(image.outputs[0]!.mimeType).toMatch(/^image\//);
    // the runtime lists no voice catalogue: the audio panel offers the service's own voices
    expect(await member.call('playground.voices', {})).toEqual([]);
  });

  it('exports a platform-marked copy and downloads it to the person only', async () => {
    const exported = await member.call<{ fileName: string; byteSize: number; downloadPath: string }>(
      'library.export',
      {
        jobRowId: t2vJob.rowId,
      },
    );
    const download = await member.get(exported.downloadPath);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment');
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(exported.byteSize);
    expect(createHash('sha256').update(bytes).digest('hex')).not.toBe(t2vJob.outputs[0]!.sha256);
    expect((await fetch(`${rig.origin}${exported.downloadPath}`)).status).toBe(401);
  });

  it('keeps each person to their own work: another person sees nothing, even guessing ids', async () => {
    // the member's marks are theirs (issue 41): kept in their journal, filtered in their library
    const marked = await member.call<{ marks: unknown }>('library.mark', {
      jobRowId: t2vJob.rowId,
      flag: 'pick',
      stars: 5,
    });
    expect(marked.marks).toEqual({ flag: 'pick', stars: 5, label: null });
    const picks = await member.call<{ items: { rowId: number }[] }>('library.list', { flag: 'pick' });
    expect(picks.items.map((item) => item.rowId)).toEqual([t2vJob.rowId]);
    const personal = await rig.open('personal');
    expect((await personal.invoke('library.mark', { jobRowId: t2vJob.rowId, flag: 'reject' })).ok).toBe(
      false,
    );
    const listed = await personal.call<{ items: unknown[] }>('jobs.list', {});
    expect(listed.items).toHaveLength(0);
    expect((await personal.call<{ items: unknown[] }>('library.list', {})).items).toHaveLength(0);
    expect((await personal.invoke('jobs.get', { jobRowId: t2vJob.rowId })).ok).toBe(false);
    expect((await personal.invoke('library.export', { jobRowId: t2vJob.rowId })).ok).toBe(false);
    // the member's signed media URL names a row of the member's journal: not the other person's
    expect((await personal.get(t2vJob.outputs[0]!.mediaUrl!)).status).toBe(404);
    expect((await personal.call<{ manager: boolean }>('team.access')).manager).toBe(false);
  });

  it('shows the manager the Team usage of the member’s project; a member is refused', async () => {
    const manager = await rig.open('manager');
    expect((await manager.call<{ manager: boolean }>('team.access')).manager).toBe(true);
    const usage = await manager.call<{
      rows: { projectName: string | null; credits: Record<string, string> }[];
    }>('team.usage', {});
    expect(usage.rows.some((r) => r.projectName === 'Spring campaign')).toBe(true);
    expect((await member.call<{ manager: boolean }>('team.access')).manager).toBe(false);
    expect((await member.invoke('team.usage', {})).ok).toBe(false);
  });

  it('shows the manager a member’s collection shared with a project, read-only, and nothing unshared (issue 41)', async () => {
    const { projects } = await member.call<{ projects: { id: string; name: string }[] }>('projects.list', {});
    const spring = projects.find((p) => p.name === 'Spring campaign')!;
    await member.call('library.notes.add', {
      jobRowId: t2vJob.rowId,
      atSeconds: 1,
      text: 'Hold on the kite',
    });
    const shared = await member.call<{ id: string }>('collections.create', {
      name: 'Client selects',
      jobRowIds: [t2vJob.rowId],
    });
    const own = await member.call<{ id: string }>('collections.create', {
      name: 'My rough picks',
      jobRowIds: [t2vJob.rowId],
    });
    const manager = await rig.open('manager');
    // nothing is shared yet
    expect((await manager.call<{ items: unknown[] }>('collections.shared.list')).items).toEqual([]);
    expect(
      await member.call('collections.share', { collectionId: shared.id, projectId: spring.id }),
    ).toMatchObject({ sharedProjectId: spring.id });
    const listed = await manager.call<{
      items: { ref: string; name: string; projectName: string; takeCount: number }[];
    }>('collections.shared.list');
    expect(listed.items.map((c) => [c.name, c.projectName, c.takeCount])).toEqual([
      ['Client selects', 'Spring campaign', 1],
    ]);
    const read = await manager.call<{
      takes: {
        prompt: string;
        marks: { flag: string | null };
        notes: { text: string }[];
        mediaUrl: string | null;
      }[];
    }>('collections.shared.get', { ref: listed.items[0]!.ref });
    expect(read.takes).toHaveLength(1);
    expect(read.takes[0]).toMatchObject({ marks: { flag: 'pick' }, notes: [{ text: 'Hold on the kite' }] });
    // the take plays for the manager from a signed, time-limited link
    const media = await fetch(read.takes[0]!.mediaUrl!);
    expect(media.status).toBe(200);
    expect(
      createHash('sha256')
        .update(Buffer.from(await media.arrayBuffer()))
        .digest('hex'),
    ).toBe(t2vJob.outputs[0]!.sha256);
    // read-only: the member's collection is no collection of the manager's
    expect(
      (await manager.invoke('collections.rename', { collectionId: shared.id, name: 'Mine now' })).ok,
    ).toBe(false);
    expect(
      (
        await manager.invoke('collections.shared.get', {
          ref: listed.items[0]!.ref.replace(shared.id, own.id),
        })
      ).ok,
    ).toBe(false);
    // a member is not a manager; another organization's person reads nothing
    expect(await member.invoke('collections.shared.list', {})).toMatchObject({
      ok: false,
      error: { code: 'team.not_manager' },
    });
    const personal = await rig.open('personal');
    expect((await personal.invoke('collections.shared.get', { ref: listed.items[0]!.ref })).ok).toBe(false);
    // unshared, it is gone from the manager's list
    await member.call('collections.share', { collectionId: shared.id, projectId: null });
    expect((await manager.call<{ items: unknown[] }>('collections.shared.list')).items).toEqual([]);
  });

  it('exports a collection as a review package the member downloads as one zip; nobody else can (issue 41)', async () => {
    const collection = await member.call<{ id: string }>('collections.create', {
      name: 'For the client',
      jobRowIds: [t2vJob.rowId],
    });
    const pkg = await member.call<{
      fileName: string;
      folder: string | null;
      downloadPath: string | null;
      takes: number;
    }>('collections.exportPackage', { collectionId: collection.id });
    expect(pkg).toMatchObject({
      folder: null,
      takes: 1,
      fileName: expect.stringMatching(/^review-for-the-client-[0-9-]+\.zip$/),
    });
    const download = await member.get(pkg.downloadPath!);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const zip = Buffer.from(await download.arrayBuffer());
    expect(zip.subarray(0, 4).toString('binary')).toBe('PK\x03\x04');
    expect(zip.includes(Buffer.from('index.html'))).toBe(true);
    const personal = await rig.open('personal');
    expect((await personal.get(pkg.downloadPath!)).status).toBe(404);
  });

  it('never writes a session id, launch code or recovery reference outside the secret store', async () => {
    const { dbFile, keyFile } = secretStoreFiles(rig.dataDir);
    const sessionIds = [(await rig.sessionOf(member)).sessionId];
    // the job's outputs are stored, so its recovery reference was forgotten: read it back from the platform
    const store = RowEncryptedSecretStore.open({ dbFile, keyFile });
    expect(await new RecoveryRefs(store).recall(t2vJob.jobId)).toBeUndefined();
    const ref = recoveryRefOf(rig, t2vJob.jobId);
    const signingKey = await store.get('read-url-signing-key');
    store.close();
    const secrets = [rig.settings.appCredential, ...sessionIds, ref, signingKey ?? ''].filter(
      (s) => s.length >= 8,
    );
    for (const file of filesUnder(rig.dataDir)) {
      if (file === keyFile || statSync(file).size > 64 * 1024 * 1024) continue;
      const text = readFileSync(file).toString('latin1');
      for (const secret of secrets)
        expect(text.includes(secret), `${secret.slice(0, 4)}… in ${file}`).toBe(false);
    }
    expect(rig.logLines.join('\n')).not.toContain(rig.settings.appCredential);
  });

  it('a session the runtime no longer accepts tells the page to reopen the application', async () => {
    const page = await rig.open('personal');
    await rig.setAccess('personal', 'revoked');
    try {
      await new Promise((r) => setTimeout(r, 1_200)); // sessions stop resolving within 1 s
      const answer = await page.invoke('services.list', {});
      expect(answer.ok).toBe(false);
      if (!answer.ok) expect(answer.error.code).toBe(PLATFORM_SESSION_OVER_CODE);
      // and from now on every call says so
      const next = await page.invoke('jobs.list', {});
      expect(next.ok).toBe(false);
    } finally {
      await rig.setAccess('personal', 'granted');
    }
  });
});
