import { describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import { expectError, H3_BASE, TestClient, type Json } from '../client.js';
import { makePng } from '../fixtures.js';
import { OpenApiResponses } from '../openapi-validator.js';
import { runtimeCall, type PlatformClient } from './platform-client.js';
import { usePlatformWorld, type PlatformWorld } from './platform-fixture.js';
import { issueCliSession, type CliSession } from './debug-client.js';

let world: PlatformWorld;
let client: PlatformClient;
usePlatformWorld({ sessions: ['member'] }, (w) => {
  world = w;
  client = w.client;
});

/** A public-interface client of `{debug_base_url}` for a CLI session, validated against the debug document. */
async function debugClient(cli: CliSession): Promise<TestClient> {
  const base = client.platform.debugBaseUrl;
  const res = await fetch(`${base}/openapi.json`, {
    headers: { Authorization: `Bearer ${cli.accessToken}` },
  });
  expect(res.status).toBe(200);
  const doc = (await res.json()) as Json;
  expect(doc.servers[0].url).toBe(base);
  const sim = { ...client.sim, baseUrl: base } as RunningSimulator;
  return new TestClient(sim, cli.accessToken, new OpenApiResponses(doc));
}

async function personalClient(): Promise<TestClient> {
  const res = await fetch(`${client.sim.baseUrl}/openapi.json`, {
    headers: { Authorization: `Bearer ${client.sim.token}` },
  });
  return new TestClient(client.sim, client.sim.token, new OpenApiResponses((await res.json()) as Json));
}

describe('section B: the online debugging runtime', () => {
  it('serves the public paths under {debug_base_url} (ending with /v1) with its own OpenAPI document', async () => {
    expect(client.platform.debugBaseUrl).toMatch(/\/platform\/debug\/v1$/);
    const cli = await issueCliSession(client, 'framewright-studio', 'member');
    const debug = await debugClient(cli);
    const doc = (await debug.get('/openapi.json')).data;
    for (const path of [
      '/services',
      '/models',
      '/audio/voices',
      '/chat/completions',
      '/embeddings',
      '/rerank',
      '/ocr',
      '/documents/parse',
      '/audio/transcriptions',
      '/audio/generations',
      '/images/generations',
      '/media/generations',
      '/media/prompt-optimizations',
      '/assets/input',
      '/jobs/{jobId}',
      '/assets/{assetId}/content',
      '/admission/preview',
    ])
      expect(doc.paths[path], path).toBeDefined();
    expect(JSON.stringify(doc.paths)).not.toContain('_simulator');
    expect((await debug.get('/models')).status).toBe(200);
    expect((await debug.get('/services')).status).toBe(200);
    const chat = await debug.post('/chat/completions', {
      model: 'atlas-chat',
      messages: [{ role: 'user', content: 'Describe a lighthouse.' }],
    });
    expect(chat.status, chat.text).toBe(200);
    // the simulator's own switches are not part of the debugging runtime
    expect((await debug.post('/_simulator/clock', { advanceSeconds: 1 })).status).toBe(404);
  });

  it('accepts only a live CLI Bearer: the application credential and personal keys are 401', async () => {
    const cli = await issueCliSession(client, 'framewright-studio', 'member');
    const debug = await debugClient(cli);
    for (const token of [world.studio.appCredential, client.sim.token, 'fwcli_forged']) {
      const res = await debug.as(token).get('/models');
      expectError(res, 401, 'unauthorized');
    }
    expect((await fetch(`${client.platform.debugBaseUrl}/models`)).status).toBe(401);
    // and the CLI token is no personal key under /v1
    expectError(await (await personalClient()).as(cli.accessToken).get('/models'), 401, 'unauthorized');
  });

  it('personal, debug and deployed asset identities do not interoperate', async () => {
    const cli = await issueCliSession(client, 'framewright-studio', 'member');
    const debug = await debugClient(cli);
    const personal = await personalClient();
    const png = makePng(64, 48);
    const personalAsset = await personal.uploadId('h3-video', png, { field: 'image', filename: 'a.png' });
    const debugAsset = await debug.uploadId('h3-video', png, { field: 'image', filename: 'a.png' });
    expect(debugAsset).not.toBe(personalAsset);
    const content = (c: TestClient, id: string) => c.get(`/assets/${id}/content?model=h3-video`);
    expect((await content(debug, debugAsset)).status).toBe(200);
    expect((await content(personal, personalAsset)).status).toBe(200);
    expectError(await content(debug, personalAsset), 404);
    expectError(await content(personal, debugAsset), 404);
    // a personal asset in a debug job body is unknown too
    expectError(
      await debug.post('/media/generations', {
        ...H3_BASE,
        generationMode: 'i2v',
        input_image_asset_id: personalAsset,
      }),
      404,
    );
    // another pairing of the same test account is the same identity; another person is not
    const again = await debugClient(await issueCliSession(client, 'framewright-studio', 'member'));
    expect((await content(again, debugAsset)).status).toBe(200);
    const manager = await debugClient(await issueCliSession(client, 'framewright-studio', 'manager'));
    expectError(await content(manager, debugAsset), 404);
    // the deployed runtime cannot read a debug asset: its content address needs the CLI Bearer
    const deployed = await runtimeCall(client, world.studio, 'POST', '/media/jobs', {
      sessionId: world.sessions.member!.sessionId,
      headers: { 'Idempotency-Key': 'debug-asset-in-deployed-body' },
      json: {
        clientTaskId: 'debug-asset-in-deployed-body',
        model: 'h3-video',
        serviceKind: 'video_generation',
        params: { prompt: 'A paper boat' },
        mediaSpec: { generationMode: 'i2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
        inputs: [
          {
            role: 'first_frame',
            readUrl: `${client.platform.debugBaseUrl}/assets/${debugAsset}/content?model=h3-video`,
          },
        ],
      },
    });
    expect(deployed.status, deployed.text).toBe(422);
    expect(deployed.data).toMatchObject({ code: 'read_url_unreadable' });
    expect(deployed.data.message).toContain('401');
  });

  it('jobs created under a debug token are read under it (at the debug address), not under a personal key', async () => {
    const cli = await issueCliSession(client, 'framewright-studio', 'member');
    const debug = await debugClient(cli);
    const created = await debug.post('/images/generations', {
      model: 'lumen-image',
      prompt: 'A lighthouse at dusk',
    });
    expect(created.status, created.text).toBe(202);
    const job = created.data;
    expect(job.jobUrl.startsWith(client.platform.debugBaseUrl)).toBe(true);
    expect((await debug.get(job.jobUrl)).status).toBe(200);
    const personal = await personalClient();
    expectError(await personal.get(`/jobs/${job.jobId}?model=${encodeURIComponent(job.model)}`), 404);
  });

  it('refuses an expired CLI session (simulator clock)', async () => {
    const cli = await issueCliSession(client, 'framewright-studio', 'member');
    const debug = await debugClient(cli);
    expect((await debug.get('/models')).status).toBe(200);
    await client.advanceClock(3601);
    expectError(await debug.get('/models'), 401, 'unauthorized');
  });
});
