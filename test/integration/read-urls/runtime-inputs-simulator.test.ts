import { randomBytes, createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EffectiveLimits } from '../../../src/shared/h3/effective-limits.js';
import { ObjectStorage } from '../../../src/main/core/storage/object-storage.js';
import {
  INPUT_READ_URL_LIFETIME_SECONDS,
  runtimeInputsOf,
  type RuntimeInput,
} from '../../../src/main/core/backends/platform-runtime/runtime-inputs.js';
import { serveSignedObject } from '../../../src/main/core/storage/serve-signed-object.js';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import { dryRunAdmission } from '../../../src/main/core/backends/platform-runtime/dry-run-admission.js';
import { limitsFor, type LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { openPlatformSimulator } from '../../support/worlds/platform-simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let sim: RunningSimulator;
let dir: string;
let server: Server;
let origin: string;
let storage: ObjectStorage;
let limits: EffectiveLimits;
let sessionId: string;
let subjectKey: string;
/** The storage server's clock (moved forward to expire URLs). */
let clock: () => Date = () => new Date();
const signingKey = randomBytes(32);

/** A small runtime call of this test's own: credential + the person's session. */
async function runtime(
  method: string,
  suffix: string,
  json?: unknown,
): Promise<{ status: number; data: Json }> {
  const app = sim.platform.apps.find((a) => a.appKey === 'framewright-studio')!;
  const res = await fetch(sim.platform.runtimeBaseUrl + suffix, {
    method,
    headers: {
      Authorization: `Bearer ${app.appCredential}`,
      'X-Platform-Runtime-Session-Id': sessionId,
      ...(json ? { 'Content-Type': 'application/json' } : {}),
      ...(method === 'POST' && suffix === '/media/jobs'
        ? { 'Idempotency-Key': `key-${(json as Json).clientTaskId}` }
        : {}),
    },
    body: json ? JSON.stringify(json) : undefined,
  });
  return { status: res.status, data: (await res.json()) as Json };
}

const dryRun = {
  dryRun: async (body: Record<string, unknown>) => (await runtime('POST', '/media/jobs:dry-run', body)).data,
};

beforeAll(async () => {
  const platform = await openPlatformSimulator({ prefix: 'fw-sim-' });
  sim = platform.sim;
  const app = platform.app;
  // The person opens the application: launch code, then the session service's exchange.
  const launchCode = await platform.launchCode('member');
  const exchanged = await fetch(
    `${sim.platform.sessionBaseUrl}/apps/${app.appKey}/runtime-sessions:exchange`,
    {
      method: 'POST',
      headers: { Authorization: `Bearer ${app.appCredential}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ launchCode }),
    },
  );
  expect(exchanged.status).toBe(200);
  const session = (await exchanged.json()) as Json;
  sessionId = session.sessionId;
  const s = session.subject;
  expect([s.tenantId, s.accountId, s.userId]).toEqual([
    expect.any(String),
    expect.any(String),
    expect.any(String),
  ]);
  subjectKey = createHash('sha256')
    .update(`${s.tenantId}\0${s.accountId}\0${s.userId}`)
    .digest('hex')
    .slice(0, 32);

  dir = tempFolder('fw-readurls-');
  storage = new ObjectStorage(path.join(dir, 'subjects', subjectKey, 'objects'));
  server = http.createServer((req, res) => {
    void serveSignedObject(req, res, {
      signingKey,
      storageFor: (key) => (key === subjectKey ? storage : undefined),
      now: () => clock(),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const services = await runtime('GET', '/available-services?serviceKind=video_generation');
  const h3 = (services.data.items as Json[]).find((i) => i.model === 'h3-video')!;
  limits = limitsFor(h3 as ServiceEntry);
});

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
});

async function i2vDraft(framePath: string, extra: Partial<LocalVideoDraft> = {}): Promise<LocalVideoDraft> {
  const firstFrame = await probeMedia(framePath);
  return {
    model: 'h3-video',
    generationMode: 'i2v',
    prompt: 'A paper boat drifting down a rain gutter',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    firstFrame: firstFrame as LocalVideoDraft['firstFrame'],
    references: [],
    ...extra,
  };
}

const jobBody = (clientTaskId: string, inputs: RuntimeInput[]) => ({
  clientTaskId,
  model: 'h3-video',
  serviceKind: 'video_generation',
  params: { prompt: 'A paper boat drifting down a rain gutter' },
  mediaSpec: { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
  inputs,
});

const inputsDeps = () => ({ storage, signingKey, publicOrigin: origin, subjectKey });

describe('signed readUrls read by the platform runtime (simulator)', () => {
  it('an i2v job whose first frame is a signed readUrl of the storage: dry-run admits with a cost, creation is accepted', async () => {
    const before = Date.now();
    const inputs = await runtimeInputsOf(await i2vDraft(mediaFixtures().firstPng), limits, inputsDeps());
    expect(inputs).toHaveLength(1);
    const [frame] = inputs;
    expect(frame).toMatchObject({ role: 'first_frame', mimeType: 'image/png', byteSize: expect.any(Number) });
    expect(frame!.readUrl.startsWith(`${origin}/objects/${subjectKey}/${frame!.sha256}?exp=`)).toBe(true);
    const expiresMs = Date.parse(frame!.expiresAt);
    expect(expiresMs).toBeGreaterThanOrEqual(before + (INPUT_READ_URL_LIFETIME_SECONDS - 1) * 1000);

    const view = await dryRunAdmission(dryRun, jobBody('readurls-i2v', inputs));
    expect(view.admitted).toBe(true);
    expect(view.admission.blockers).toEqual([]);
    expect(view.admission.readUrlChecks).toEqual([
      expect.objectContaining({ role: 'first_frame', ok: true, sha256: frame!.sha256 }),
    ]);
    expect(view.admission.estimatedCost).toMatchObject({
      estimatedAmount: 750,
      text: '7.50 CREDIT for 5 seconds',
    });

    const created = await runtime('POST', '/media/jobs', jobBody('readurls-i2v', inputs));
    expect(created.status, JSON.stringify(created.data)).toBe(202);
    expect(created.data.platformJobId).toEqual(expect.any(String));
  });

  it('the same URL with a wrong signature is refused by the storage, so the job is refused', async () => {
    const [frame] = await runtimeInputsOf(await i2vDraft(mediaFixtures().lastPng), limits, inputsDeps());
    const forged = new URL(frame!.readUrl);
    forged.searchParams.set('sig', 'f'.repeat(64));
    expect((await fetch(forged)).status).toBe(403);
    const created = await runtime(
      'POST',
      '/media/jobs',
      jobBody('readurls-forged', [{ ...frame!, readUrl: forged.toString() }]),
    );
    expect(created.status).toBe(422);
    expect(created.data).toMatchObject({ code: 'read_url_unreadable', phase: 'input_fetch' });
    expect(created.data.message).toContain('403');
  });

  it('after expiry the storage refuses the URL and the job is refused; the dry-run shows it as a blocker on the admission view', async () => {
    const inputs = await runtimeInputsOf(await i2vDraft(mediaFixtures().refJpg), limits, inputsDeps());
    clock = () => new Date(Date.now() + (INPUT_READ_URL_LIFETIME_SECONDS + 60) * 1000);
    try {
      expect((await fetch(inputs[0]!.readUrl)).status).toBe(403);
      const created = await runtime('POST', '/media/jobs', jobBody('readurls-expired', inputs));
      expect(created.status).toBe(422);
      expect(created.data.code).toBe('read_url_unreadable');

      const view = await dryRunAdmission(dryRun, jobBody('readurls-expired-dry', inputs));
      expect(view.admitted).toBe(false);
      expect(view.admission.blockers).toEqual([
        expect.objectContaining({ code: 'read_url_unreadable', phase: 'input_fetch', retryable: true }),
      ]);
      const reason = view.admission.reason as string;
      expect(reason).toContain('could not be read');
      expect(reason).toContain('(input fetch)');
      expect(view.admission.readUrlChecks).toEqual([expect.objectContaining({ index: 0, ok: false })]);
    } finally {
      clock = () => new Date();
    }
  });

  it('the H3 rules check the draft before anything is stored: a missing first frame, a too-short reference audio', async () => {
    const empty = new ObjectStorage(path.join(dir, 'other-objects'));
    const deps = { ...inputsDeps(), storage: empty };
    const noFrame = { ...(await i2vDraft(mediaFixtures().firstPng)), firstFrame: undefined };
    await expect(runtimeInputsOf(noFrame, limits, deps)).rejects.toMatchObject({
      name: 'DraftInvalidError',
      violations: expect.arrayContaining([expect.objectContaining({ code: 'mode.first_frame_required' })]),
    });
    const shortAudio = await probeMedia(mediaFixtures().shortWav);
    const withShortAudio = await i2vDraft(mediaFixtures().firstPng, {
      generationMode: 'universal_reference_video',
      firstFrame: undefined,
      references: [shortAudio as LocalVideoDraft['references'][number]],
    });
    await expect(runtimeInputsOf(withShortAudio, limits, deps)).rejects.toMatchObject({
      name: 'DraftInvalidError',
      violations: expect.arrayContaining([expect.objectContaining({ code: 'reference.audio_too_short' })]),
    });
    expect(readdirSync(dir)).not.toContain('other-objects');
  });
});
