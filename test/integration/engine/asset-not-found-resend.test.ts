/**
 * A create refused `404 asset_not_found` (an input cached in the journal that the service no
 * longer has: expired, lost) is sent again after the inputs are uploaded again — as a new business
 * attempt under the key derived from the first (`<key>.r2`), recorded in the journal with its link
 * to the first. The first key never carries the second body (the spec: same key, different body
 * is a conflict), and a process stopped between the refusal and the resend, or while the resend's
 * answer is outstanding, sends that same derived key again — one job, never a third key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { jobOfDraft } from '../../../src/main/core/sequences/shot-results.js';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import type { StoredDraft } from '../../../src/main/core/creating/drafts.js';
import { credentialFingerprint } from '../../../src/main/core/secrets/credential-fingerprint.js';
import { submitVideo, type LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { FAST_ENGINE, openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { ScriptedProxy, type CreateScript } from '../../support/scripted-proxy.js';

type Probed = NonNullable<LocalVideoDraft['firstFrame']>;

const LOST = 'asset-expired-at-the-service';
const fx = mediaFixtures();
let sim: RunningSimulator;
let proxy: ScriptedProxy;
let proxyUrl: string;
let script: (n: number) => CreateScript = () => 'pass';
const store = new MemorySecretStore();
const opened: CoreParts[] = [];

beforeAll(async () => {
  sim = await openSimulator();
  proxy = new ScriptedProxy(new URL(sim.baseUrl).origin, (n) => script(n));
  proxyUrl = await proxy.start();
});
afterAll(async () => {
  for (const core of opened) await core.close().catch(() => undefined);
  await proxy.close();
  await sim.close();
});

/** A core on `dataDir` (a fresh one, or the folder a stopped core left) with one profile via the proxy. */
async function coreOn(
  dataDir: string,
  engine = FAST_ENGINE,
): Promise<{ core: CoreParts; profileId: string }> {
  const core = await openDesktopCore(sim, { dataDir, secretStore: store, engine });
  opened.push(core);
  const existing = core.journal.profiles.list().find((p) => p.name === 'Via proxy');
  const profileId =
    existing?.id ??
    (
      await core.credentials.createProfile({
        name: 'Via proxy',
        kind: 'personal',
        baseUrl: proxyUrl,
        secret: sim.token,
      })
    ).id;
  return { core, profileId };
}

/** A cached upload of the first frame whose asset the service no longer has (its 24 h are over). */
async function cacheLostFirstFrame(core: CoreParts, profileId: string): Promise<Probed> {
  const file = (await probeMedia(fx.lastPng)) as Probed;
  core.journal.uploads.record({
    sha256: file.sha256,
    byteSize: file.byteSize,
    profileId,
    credentialFingerprint: credentialFingerprint(sim.token),
    model: 'h3-video',
    uploadField: 'file',
    assetId: LOST,
    assetKind: 'image',
    mimeType: 'image/png',
    reused: false,
    expiresAt: Date.now() + 24 * 3_600_000,
  });
  return file;
}

function i2v(
  core: CoreParts,
  profileId: string,
  key: string,
  firstFrame: Probed,
  onStep?: (s: string) => void,
) {
  return submitVideo(core, {
    profileId,
    idempotencyKey: key,
    wait: { waitSeconds: 120 },
    onStep,
    draft: {
      model: 'h3-video',
      generationMode: 'i2v',
      prompt: 'A kite over a hill, Image 1 sets the look',
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed: 4,
      references: [],
      firstFrame,
    },
  });
}

/** The creates the proxy saw under `key` or a key derived from it, from `since` on. */
const createsOf = (key: string, since: number) =>
  proxy.sentCreates
    .slice(since)
    .filter((c) => c.idempotencyKey === key || c.idempotencyKey?.startsWith(`${key}.`))
    .map((c) => ({ key: c.idempotencyKey, asset: c.body.input_image_asset_id }));

describe('a create refused 404 asset_not_found', () => {
  it('is sent again with the new asset ids under the derived key, recorded in the journal; the first key keeps its body', async () => {
    script = () => 'pass';
    const since = proxy.sentCreates.length;
    const { core, profileId } = await coreOn(tempFolder());
    const frame = await cacheLostFirstFrame(core, profileId);
    const result = await i2v(core, profileId, 'resend-a-0001', frame);

    expect(result.state).toBe('succeeded');
    const fresh = result.uploads[0]!.assetId;
    expect(fresh).not.toBe(LOST);
    expect(createsOf('resend-a-0001', since)).toEqual([
      { key: 'resend-a-0001', asset: LOST },
      { key: 'resend-a-0001.r2', asset: fresh },
    ]);
    const created = await createdPerKey(sim.baseUrl, sim.token);
    expect(created.get('resend-a-0001')).toBeUndefined();
    expect(created.get('resend-a-0001.r2')).toBe(1);
    // the journal keeps the refusal under the first key and links the resend to it
    expect(core.journal.jobs.getIntent('resend-a-0001')).toMatchObject({
      state: 'rejected',
      statusCode: 404,
      errorCode: 'asset_not_found',
    });
    expect(JSON.parse(core.journal.jobs.getIntent('resend-a-0001')!.canonicalBodyJson)).toMatchObject({
      input_image_asset_id: LOST,
    });
    const resend = core.journal.jobs.latestResendOf('resend-a-0001')!;
    expect(resend.attempt).toBe(2);
    expect(resend.intent).toMatchObject({ idempotencyKey: 'resend-a-0001.r2', state: 'accepted' });
    expect(JSON.parse(resend.intent.canonicalBodyJson).input_image_asset_id).toBe(fresh);

    // what stands for the business key now (a draft's, a batch row's, a shot's job) is the resend
    expect(core.journal.jobs.currentIntent('resend-a-0001')!.idempotencyKey).toBe('resend-a-0001.r2');
    const draft = { jobRowId: null, idempotencyKey: 'resend-a-0001' } as unknown as StoredDraft;
    expect(jobOfDraft(core.journal.jobs, draft)?.jobId).toBe(result.job?.jobId);

    // the same submission again continues the resend: nothing new is created or sent
    const again = await i2v(core, profileId, 'resend-a-0001', frame);
    expect(again.job?.jobId).toBe(result.job?.jobId);
    expect(createsOf('resend-a-0001', since)).toHaveLength(2);
  });

  it('stopped between the refusal and the resend (the cache not yet forgotten), sends the derived key on the next run, never a third', async () => {
    script = () => 'pass';
    const since = proxy.sentCreates.length;
    const dataDir = tempFolder();
    const first = await coreOn(dataDir);
    const frame = await cacheLostFirstFrame(first.core, first.profileId);
    // the process dies the moment it decides to upload again
    await expect(
      i2v(first.core, first.profileId, 'resend-b-0001', frame, (step) => {
        if (step === 'upload again') throw new Error('killed');
      }),
    ).rejects.toThrow('killed');
    await first.core.close();

    // the next start: even the stale cached row is back (it died before forgetting it)
    const { core, profileId } = await coreOn(dataDir);
    await cacheLostFirstFrame(core, profileId);
    const result = await i2v(core, profileId, 'resend-b-0001', frame);
    expect(result.state).toBe('succeeded');
    const fresh = result.uploads[0]!.assetId;
    expect(createsOf('resend-b-0001', since)).toEqual([
      { key: 'resend-b-0001', asset: LOST },
      { key: 'resend-b-0001.r2', asset: fresh },
    ]);
    const created = await createdPerKey(sim.baseUrl, sim.token);
    expect(created.get('resend-b-0001.r2')).toBe(1);
    expect(created.get('resend-b-0001.r3')).toBeUndefined();
  });

  it('stopped while the answer to the resend is outstanding, replays the derived key and body at the next start: one job', async () => {
    const base = proxy.creates;
    // the first create reaches the simulator (404); the resend is created there, its answer lost
    script = (n) => (n === base + 2 ? 'drop' : 'pass');
    const since = proxy.sentCreates.length;
    const dataDir = tempFolder();
    // one send per run: the run ends with the resend's outcome unknown, as a process killed then
    const first = await coreOn(dataDir, {
      ...FAST_ENGINE,
      create: { ...FAST_ENGINE.create, maxAttempts: 1 },
    });
    const frame = await cacheLostFirstFrame(first.core, first.profileId);
    const stopped = await i2v(first.core, first.profileId, 'resend-c-0001', frame);
    expect(stopped.state).toBe('pending');
    expect(first.core.journal.jobs.latestResendOf('resend-c-0001')!.intent.state).toBe('unknown');
    await first.core.close();
    script = () => 'pass';

    const { core, profileId } = await coreOn(dataDir);
    const resumed = await core.engine.resume({ waitSeconds: 120 });
    expect(resumed.errors).toEqual([]);
    const again = await i2v(core, profileId, 'resend-c-0001', frame);
    expect(again.state).toBe('succeeded');
    const sent = createsOf('resend-c-0001', since);
    expect(sent.filter((c) => c.key === 'resend-c-0001')).toHaveLength(1);
    // the replay after the restart is the same derived key with the same body
    expect(sent.filter((c) => c.key === 'resend-c-0001.r2')).toEqual([sent[1], sent[1]]);
    expect(sent.map((c) => c.key)).not.toContain('resend-c-0001.r3');
    const created = await createdPerKey(sim.baseUrl, sim.token);
    expect(created.get('resend-c-0001.r2')).toBe(1);
    expect(core.journal.jobs.latestResendOf('resend-c-0001')!.intent.state).toBe('accepted');
  });
});

describe('a create refused because its cached inputs expired at the service (its clock ran past their 24 h)', () => {
  it('uploads them again and creates the job once, under the derived key (real simulator: 422 asset_expired)', async () => {
    const own = await openSimulator();
    try {
      const core = await openDesktopCore(own, {
        dataDir: tempFolder(),
        secretStore: new MemorySecretStore(),
      });
      opened.push(core);
      const { id: profileId } = await core.credentials.createProfile({
        name: 'Expiry',
        kind: 'personal',
        baseUrl: own.baseUrl,
        secret: own.token,
      });
      const frame = (await probeMedia(fx.lastPng)) as Probed;
      const first = await i2v(core, profileId, 'expiry-0001', frame);
      expect(first.state).toBe('succeeded');
      const stale = first.uploads[0]!.assetId;
      // a day and an hour later at the service; this machine's clock still holds the asset valid
      const answer = await fetch(`${own.baseUrl}/_simulator/clock`, {
        method: 'POST',
        headers: { authorization: `Bearer ${own.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ advanceSeconds: 25 * 3600 }),
      });
      expect(answer.ok).toBe(true);

      const steps: string[] = [];
      const again = await i2v(core, profileId, 'expiry-0002', frame, (s) => steps.push(s));
      expect(again.state).toBe('succeeded');
      expect(steps).toContain('upload again');
      expect(again.uploads[0]!.assetId).not.toBe(stale);
      expect(core.journal.jobs.getIntent('expiry-0002')).toMatchObject({
        state: 'rejected',
        statusCode: 422,
        errorCode: 'asset_expired',
      });
      expect(core.journal.jobs.latestResendOf('expiry-0002')!.intent.state).toBe('accepted');
      const created = await createdPerKey(own.baseUrl, own.token);
      expect(created.get('expiry-0002')).toBeUndefined();
      expect(created.get('expiry-0002.r2')).toBe(1);
    } finally {
      await own.close();
    }
  });
});
