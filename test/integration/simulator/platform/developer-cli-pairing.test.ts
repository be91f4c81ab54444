import { describe, expect, it } from 'vitest';
import {
  dev,
  OTHER_APP_ID,
  pairCli,
  pkce,
  STUDIO_ACTIVE_VERSION,
  STUDIO_APP_ID,
  STUDIO_DRAFT_VERSION,
} from './developer-client.js';
import { expectPlatformError, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;

usePlatformWorld({}, (world) => {
  ({ client } = world);
});

const REDIRECT = 'http://127.0.0.1:53682/callback';

const authorize = (json: Record<string, unknown>, credential?: string | null, appId = STUDIO_APP_ID) =>
  dev(client, 'POST', `/apps/${appId}/cli-authorizations`, { json, credential });
const exchange = (authorizationCode: string, codeVerifier: string) =>
  dev(client, 'POST', '/cli-sessions:exchange', {
    credential: null,
    json: { authorizationCode, codeVerifier },
  });

describe('CLI pairing with PKCE', () => {
  it('pairs end to end: wrong verifier 401, right verifier a 1-hour CLI session, replayed code refused', async () => {
    const { verifier, challenge } = pkce();
    const auth = await authorize({
      codeChallenge: challenge,
      redirectUri: REDIRECT,
      versionId: STUDIO_DRAFT_VERSION,
    });
    expect(auth.status, auth.text).toBe(200);
    const lifetime = Date.parse(auth.data.expiresAt) - Date.now();
    expect(lifetime).toBeGreaterThan(290_000);
    expect(lifetime).toBeLessThanOrEqual(301_000);

    expectPlatformError(
      await exchange(auth.data.authorizationCode, pkce().verifier),
      401,
      'CLI_AUTHORIZATION_INVALID',
    );
    const session = await exchange(auth.data.authorizationCode, verifier);
    expect(session.status, session.text).toBe(200);
    expect(session.data).toMatchObject({
      appId: STUDIO_APP_ID,
      appKey: 'framewright-studio',
      appVersionId: STUDIO_DRAFT_VERSION,
      testAccountId: null,
      tokenType: 'Bearer',
    });
    expect(session.data.runtimeSessionId).toEqual(expect.any(String));
    expect(session.data.scopes).toEqual(expect.arrayContaining(['runtime', 'jobs']));
    const origin = new URL(client.sim.baseUrl).origin;
    expect(session.data.runtimeBaseUrl).toBe(`${origin}/platform/debug/v1`);
    expect(session.data.relayBaseUrl).toBe(`${origin}/platform/debug/v1/inter-app`);
    const hour = Date.parse(session.data.expiresAt) - Date.now();
    expect(hour).toBeGreaterThan(3_590_000);
    expect(hour).toBeLessThanOrEqual(3_601_000);

    expectPlatformError(
      await exchange(auth.data.authorizationCode, verifier),
      401,
      'CLI_AUTHORIZATION_INVALID',
    );
    expectPlatformError(await exchange('fwcac_made_up', verifier), 401, 'CLI_AUTHORIZATION_INVALID');

    // the CLI token reads its own application on the control plane, nothing else
    const token = session.data.accessToken as string;
    // the CLI token permits runtime, jobs, temporary assets and app-to-app calls only (spec, section
    // E): it reads no application, version, role or test account of the control plane
    for (const suffix of [
      `/apps/${STUDIO_APP_ID}`,
      '/apps',
      `/apps/${STUDIO_APP_ID}/versions`,
      `/apps/${STUDIO_APP_ID}/roles`,
      `/apps/${STUDIO_APP_ID}/test-accounts`,
      '/apps/app_sim_storyboard_helper',
    ])
      expectPlatformError(
        await dev(client, 'GET', suffix, { credential: token }),
        403,
        'CLI_TOKEN_NOT_PERMITTED',
      );
    // and cannot pair again into another session
    expectPlatformError(
      await authorize(
        { codeChallenge: challenge, redirectUri: REDIRECT, versionId: STUDIO_DRAFT_VERSION },
        token,
      ),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
  });

  it('lets the code expire after 5 minutes (simulator clock)', async () => {
    const { verifier, challenge } = pkce();
    const auth = await authorize({
      codeChallenge: challenge,
      redirectUri: REDIRECT,
      versionId: STUDIO_ACTIVE_VERSION,
    });
    expect(auth.status).toBe(200);
    await client.advanceClock(301);
    expectPlatformError(
      await exchange(auth.data.authorizationCode, verifier),
      401,
      'CLI_AUTHORIZATION_INVALID',
    );
  });

  it('acts as a test account only from the application list (omitted: the developer)', async () => {
    const accounts = await dev(client, 'GET', `/apps/${STUDIO_APP_ID}/test-accounts`);
    const manager = accounts.data.items[0];
    const session = await pairCli(client, STUDIO_APP_ID, {
      versionId: STUDIO_DRAFT_VERSION,
      testAccountId: manager.id,
    });
    expect(session.testAccountId).toBe(manager.id);
    const helperAccounts = await dev(client, 'GET', '/apps/app_sim_storyboard_helper/test-accounts');
    const { challenge } = pkce();
    for (const testAccountId of [helperAccounts.data.items[0].id, 'acc_sim_manager', 'ta_unknown'])
      expectPlatformError(
        await authorize({
          codeChallenge: challenge,
          redirectUri: REDIRECT,
          versionId: STUDIO_DRAFT_VERSION,
          testAccountId,
        }),
        403,
        'TEST_IDENTITY_NOT_AUTHORIZED',
      );
  });

  it('refuses bad parameters with 400 CLI_AUTHORIZATION_INVALID, no identity with 401, other apps with 404', async () => {
    const { challenge } = pkce();
    const good = { codeChallenge: challenge, redirectUri: REDIRECT, versionId: STUDIO_DRAFT_VERSION };
    for (const bad of [
      { ...good, redirectUri: 'https://example.com/callback' },
      { ...good, redirectUri: 'http://10.0.0.5:8080/callback' },
      { ...good, codeChallenge: 'short' },
      { ...good, codeChallengeMethod: 'plain' },
      { ...good, versionId: undefined },
      { ...good, versionId: 'appver_sim_storyboard_helper_1' },
      { ...good, extra: 1 },
    ])
      expectPlatformError(await authorize(bad), 400, 'CLI_AUTHORIZATION_INVALID');
    expectPlatformError(await authorize(good, null), 401, 'CLI_AUTHORIZATION_IDENTITY_MISSING');
    expectPlatformError(await authorize(good, undefined, OTHER_APP_ID), 404, 'APP_NOT_FOUND');
  });

  it('approves on the local portal page: sign in with the developer token, redirect to the loopback CLI with the code', async () => {
    const { verifier, challenge } = pkce();
    const params = new URLSearchParams({
      appId: STUDIO_APP_ID,
      codeChallenge: challenge,
      redirectUri: REDIRECT,
      versionId: STUDIO_DRAFT_VERSION,
      state: 'xyz-1',
    });
    const page = await fetch(`${client.platform.developerPortalUrl}?${params}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('name="developerToken"');
    // a browser follows the form's 303 to the CLI's loopback address only if form-action allows it
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/form-action 'self' http:\/\/127\.0\.0\.1:\* http:\/\/localhost:\*/);
    const action = /action="([^"]+)"/.exec(html)![1]!;
    const form = new URLSearchParams(params);
    const post = (token: string) =>
      fetch(new URL(action, client.platform.developerPortalUrl), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...Object.fromEntries(form), developerToken: token }).toString(),
      });
    expect((await post('wrong-token')).status).toBe(401);
    const approved = await post(client.platform.developerToken);
    expect(approved.status).toBe(303);
    const location = new URL(approved.headers.get('location')!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('state')).toBe('xyz-1');
    const session = await exchange(location.searchParams.get('code')!, verifier);
    expect(session.status, session.text).toBe(200);
    expect(session.data.appVersionId).toBe(STUDIO_DRAFT_VERSION);
  });
});
