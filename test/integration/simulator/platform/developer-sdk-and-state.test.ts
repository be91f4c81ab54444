import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  dev,
  pairCli,
  pkce,
  STUDIO_APP_ID,
  STUDIO_DRAFT_VERSION,
  studioSubmission,
} from './developer-client.js';
import { expectPlatformError, startPlatformSimulator, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

let client: PlatformClient;

usePlatformWorld({}, (world) => {
  ({ client } = world);
});

const configure = (json: Record<string, boolean>) =>
  client.request('POST', new URL(client.platform.reviewUrl).origin + '/platform/_simulator/sdk-index', {
    credential: client.sim.token,
    json,
  });

describe('SDK credentials and the private package index', () => {
  it('serves a real sdist to a valid token, 401 without or with an expired one, 503 when not configured', async () => {
    const cred = await dev(client, 'POST', '/sdk/python/credentials');
    expect(cred.status, cred.text).toBe(200);
    const { token, indexURL } = cred.data;
    expect(indexURL).toMatch(/\/platform\/api\/v1\/appstore\/sdk\/python\/simple\/$/);
    expect(cred.data.packages.map((p: { name: string }) => p.name)).toEqual([
      'platform-app-cli',
      'platform-app-sdk',
    ]);

    expect((await fetch(indexURL)).status).toBe(401);
    const auth = { Authorization: `Bearer ${token}` };
    const root = await fetch(indexURL, { headers: auth });
    expect(root.status).toBe(200);
    expect(await root.text()).toContain('<a href="platform-app-sdk/">');
    const head = await fetch(indexURL, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    // pip sends the token as the Basic password
    const basic = { Authorization: 'Basic ' + Buffer.from(`__token__:${token}`).toString('base64') };
    const project = await fetch(indexURL + 'platform-app-sdk/', { headers: basic });
    const page = await project.text();
    const [, href, sha] = /<a href="([^"#]+)#sha256=([0-9a-f]{64})">/.exec(page)!;
    const file = await fetch(new URL(href!, indexURL + 'platform-app-sdk/'), { headers: auth });
    expect(file.status).toBe(200);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(sha);
    const tar = gunzipSync(bytes);
    expect(tar.subarray(257, 262).toString('latin1')).toBe('ustar');
    expect(tar.toString('latin1')).toContain('Name: platform-app-sdk');
    expect(
      (await fetch(new URL(href!, indexURL + 'platform-app-sdk/'), { method: 'HEAD', headers: auth })).status,
    ).toBe(200);

    expect((await configure({ configured: false })).status).toBe(200);
    const off = await client.request('GET', indexURL, { credential: token });
    expectPlatformError(off, 503, 'SDK_INDEX_NOT_CONFIGURED');
    expect((await configure({ configured: true })).data).toEqual({ configured: true, released: true });

    await client.advanceClock(3601);
    expectPlatformError(
      await client.request('GET', indexURL, { credential: token }),
      401,
      'SDK_TOKEN_INVALID',
    );
  });

  it('refuses SDK credentials to a CLI token', async () => {
    const cli = await pairCli(client, STUDIO_APP_ID, { versionId: STUDIO_DRAFT_VERSION });
    expectPlatformError(
      await dev(client, 'POST', '/sdk/python/credentials', { credential: cli.accessToken }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
  });
});

describe('developer state across a restart', () => {
  it('keeps applications, versions, requests and unexpired codes; stores no code, token or part bytes in plaintext', async () => {
    const dataDir = tempFolder('fw-dev-state-');
    const first = await startPlatformSimulator({ dataDir });
    const c1 = first.client;
    const app = await dev(c1, 'POST', '/apps', {
      json: { publisherId: 'pub_sim_local_developer', app: { appKey: 'kept-app', name: 'Kept' } },
    });
    const version = await dev(c1, 'POST', `/apps/${STUDIO_APP_ID}/versions`, {
      json: { submission: studioSubmission('7.0.0'), idempotencyKey: 'kept-v7' },
    });
    const request = await dev(
      c1,
      'POST',
      `/apps/${STUDIO_APP_ID}/versions/${version.data.versionId}/requests`,
      {
        json: { kind: 'publish' },
      },
    );
    const { verifier, challenge } = pkce();
    const auth = await dev(c1, 'POST', `/apps/${STUDIO_APP_ID}/cli-authorizations`, {
      json: {
        codeChallenge: challenge,
        redirectUri: 'http://127.0.0.1:9/cb',
        versionId: STUDIO_DRAFT_VERSION,
      },
    });
    const sdk = await dev(c1, 'POST', '/sdk/python/credentials');
    const cli = await pairCli(c1, STUDIO_APP_ID, { versionId: STUDIO_DRAFT_VERSION });
    await first.sim.close();

    const state = readFileSync(path.join(dataDir, 'platform-state.jsonl'), 'utf8');
    for (const secret of [auth.data.authorizationCode, sdk.data.token, cli.accessToken, verifier])
      expect(state).not.toContain(secret);

    const second = await startPlatformSimulator({ dataDir });
    try {
      const c2 = second.client;
      expect((await dev(c2, 'GET', `/apps/${app.data.appId}`)).data.appKey).toBe('kept-app');
      const kept = await dev(c2, 'GET', `/apps/${STUDIO_APP_ID}/versions/${version.data.versionId}`);
      expect(kept.data.currentRequests.map((r: { requestId: string }) => r.requestId)).toEqual([
        request.data.requestId,
      ]);
      const replay = await dev(c2, 'POST', `/apps/${STUDIO_APP_ID}/versions`, {
        json: { submission: studioSubmission('7.0.0'), idempotencyKey: 'kept-v7' },
      });
      expect(replay.data.versionId).toBe(version.data.versionId);
      const exchanged = await dev(c2, 'POST', '/cli-sessions:exchange', {
        credential: null,
        json: { authorizationCode: auth.data.authorizationCode, codeVerifier: verifier },
      });
      expect(exchanged.status, exchanged.text).toBe(200);
      expect(
        (
          await fetch(new URL(new URL(sdk.data.indexURL).pathname, c2.platform.developerBaseUrl), {
            headers: { Authorization: `Bearer ${sdk.data.token}` },
          })
        ).status,
      ).toBe(200);
    } finally {
      await second.sim.close();
    }
  });
});
