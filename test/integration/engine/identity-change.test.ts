import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import { credentialFingerprint } from '../../../src/main/core/secrets/credential-fingerprint.js';
import { submitVideo, type LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';

const KEY_A = 'identity-key-A-0123456789';
const KEY_B = 'identity-key-B-0123456789';

let sim: RunningSimulator;
let core: CoreParts;
let store: MemorySecretStore;
let profileId: string;
const fx = mediaFixtures();

beforeAll(async () => {
  sim = await openSimulator({ tokens: [KEY_A, KEY_B] });
  store = new MemorySecretStore();
  core = await openDesktopCore(sim, { secretStore: store });
  profileId = (
    await core.credentials.createProfile({
      name: 'Work',
      kind: 'personal',
      baseUrl: sim.baseUrl,
      secret: KEY_A,
    })
  ).id;
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

type Probed = NonNullable<LocalVideoDraft['firstFrame']>;

async function i2v(key: string) {
  const firstFrame = (await probeMedia(fx.firstPng)) as Probed;
  return submitVideo(core, {
    profileId,
    idempotencyKey: key,
    wait: { waitSeconds: 120 },
    draft: {
      model: 'h3-video',
      generationMode: 'i2v',
      prompt: 'A paper boat on a puddle, Image 1 sets the look',
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed: 3,
      references: [],
      firstFrame,
    },
  });
}

describe('changed credentials forget what belonged to the old identity', () => {
  it('reuses an upload only under the key that made it, and forgets them all when the key changes', async () => {
    const first = await i2v('identity-1');
    expect(first.state).toBe('succeeded');
    expect(first.uploads).toMatchObject([{ fromJournal: false }]);
    const again = await i2v('identity-2');
    expect(again.state).toBe('succeeded');
    expect(again.uploads).toMatchObject([{ assetId: first.uploads[0]!.assetId, fromJournal: true }]);

    // a new key through login: the old key's assets are forgotten at once
    await core.credentials.replaceCredential(profileId, { baseUrl: sim.baseUrl, secret: KEY_B });
    expect(core.journal.uploads.get(profileId, 'h3-video', first.uploads[0]!.assetId)).toBeUndefined();
    const underB = await i2v('identity-3');
    expect(underB.state).toBe('succeeded');
    expect(underB.uploads[0]).toMatchObject({ fromJournal: false });
    expect(underB.uploads[0]!.assetId).not.toBe(first.uploads[0]!.assetId);

    // the key changed behind Framewright's back (another process, the keychain's own tool): B's
    // asset is not offered under A, because the cache is per credential, not per profile
    await store.set(profileId, KEY_A);
    const backToA = await i2v('identity-4');
    expect(backToA.state).toBe('succeeded');
    expect(backToA.uploads[0]).toMatchObject({ fromJournal: false });
    expect(backToA.uploads[0]!.assetId).not.toBe(underB.uploads[0]!.assetId);
  });

  it('on 404 asset_not_found for a cached asset, forgets it, uploads again once and creates the job once under the derived key', async () => {
    const file = await probeMedia(fx.lastPng);
    // a cached row for an asset the service does not know (lost on its side)
    core.journal.uploads.record({
      sha256: file.sha256,
      byteSize: file.byteSize,
      profileId,
      credentialFingerprint: credentialFingerprint((await store.get(profileId))!),
      model: 'h3-video',
      uploadField: 'file',
      assetId: 'asset-lost-on-the-service',
      assetKind: 'image',
      mimeType: 'image/png',
      reused: false,
      expiresAt: Date.now() + 24 * 3_600_000,
    });
    const steps: string[] = [];
    const result = await submitVideo(core, {
      profileId,
      idempotencyKey: 'identity-lost-1',
      wait: { waitSeconds: 120 },
      onStep: (step) => steps.push(step),
      draft: {
        model: 'h3-video',
        generationMode: 'i2v',
        prompt: 'A kite over a hill, Image 1 sets the look',
        orientation: 'landscape',
        seconds: 5,
        resolutionTier: '768p',
        seed: 4,
        references: [],
        firstFrame: file as Probed,
      },
    });
    expect(result.state).toBe('succeeded');
    expect(result.uploads).toMatchObject([{ fromJournal: false }]);
    expect(result.uploads[0]!.assetId).not.toBe('asset-lost-on-the-service');
    expect(steps.filter((s) => s === 'create')).toHaveLength(2);
    expect(steps).toContain('upload again');
    expect(core.journal.uploads.get(profileId, 'h3-video', 'asset-lost-on-the-service')).toBeUndefined();
    // the refused first key keeps its body; the resend went under the key derived from it
    expect(core.journal.jobs.getIntent('identity-lost-1')).toMatchObject({
      state: 'rejected',
      errorCode: 'asset_not_found',
    });
    const intent = core.journal.jobs.getIntent('identity-lost-1.r2')!;
    expect(intent.state).toBe('accepted');
    expect(JSON.parse(intent.canonicalBodyJson).input_image_asset_id).toBe(result.uploads[0]!.assetId);
    const created = await createdPerKey(sim.baseUrl, KEY_A);
    expect(created.get('identity-lost-1')).toBeUndefined();
    expect(created.get('identity-lost-1.r2')).toBe(1);
  });
});

describe('a debug token past its expiry', () => {
  it('is checked before every request, not only when the client is built: nothing is sent', async () => {
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const debug = await core.credentials.createProfile({
        name: 'Runtime debug',
        kind: 'debug',
        baseUrl: `http://127.0.0.1:${port}/v1`,
        secret: 'debug-token-0123456789',
        debugTokenExpiresAt: Date.now() + 60_000,
      });
      const client = await core.profiles.clientFor(debug.id);
      await client.listServices();
      expect(requests).toBe(1);

      // the token expires while the client is still in use (a long poll, an open studio)
      core.journal.profiles.setHasSecret(debug.id, true, Date.now() - 1);
      await expect(client.listServices()).rejects.toMatchObject({
        code: 'profile.debug_token_expired',
        message: expect.stringMatching(/expired at .*store a new one.*Nothing was sent/),
      });
      expect(requests).toBe(1);

      // a new token with a new expiry is used by the same client at its next request
      await core.credentials.setSecret(debug.id, 'debug-token-9876543210', {
        debugTokenExpiresAt: Date.now() + 60_000,
      });
      await client.listServices();
      expect(requests).toBe(2);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
