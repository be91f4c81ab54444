import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { PlatformClient, PlatformResponse } from './platform-client.js';

/** The fixture applications of the developer control plane (fixtures.ts `appId`s). */
export const STUDIO_APP_ID = 'app_sim_framewright_studio';
export const HELPER_APP_ID = 'app_sim_storyboard_helper';
/** An application of another publisher: the local developer does not own it. */
export const OTHER_APP_ID = 'app_sim_other_publisher_app';
export const STUDIO_ACTIVE_VERSION = 'appver_sim_framewright_studio_1';
export const STUDIO_DRAFT_VERSION = 'appver_sim_framewright_studio_2';

/** A developer control plane call (`{developer_base_url}` + suffix), as the developer unless another Bearer is given. */
export function dev(
  client: PlatformClient,
  method: string,
  suffix: string,
  options: {
    json?: unknown;
    body?: string;
    credential?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<PlatformResponse> {
  const credential =
    options.credential === null ? undefined : (options.credential ?? client.platform.developerToken);
  return client.request(method, client.platform.developerBaseUrl + suffix, {
    credential,
    json: options.json,
    body: options.body,
    headers: options.headers,
  });
}

/** An RFC 7636 verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Pairs a CLI with the developer session and exchanges the code: the CLI session body. */
export async function pairCli(
  client: PlatformClient,
  appId: string,
  extra: { versionId?: string; testAccountId?: string } = {},
): Promise<PlatformResponse['data']> {
  const { verifier, challenge } = pkce();
  const auth = await dev(client, 'POST', `/apps/${appId}/cli-authorizations`, {
    json: { codeChallenge: challenge, redirectUri: 'http://127.0.0.1:53682/callback', ...extra },
  });
  expect(auth.status, auth.text).toBe(200);
  const exchange = await dev(client, 'POST', '/cli-sessions:exchange', {
    credential: null,
    json: { authorizationCode: auth.data.authorizationCode, codeVerifier: verifier },
  });
  expect(exchange.status, exchange.text).toBe(200);
  return exchange.data;
}

/** Posts a reviewer's decision through the simulator's review route. */
export async function review(
  client: PlatformClient,
  body: { requestId: string; decision: 'approve' | 'reject' | 'apply'; apply?: boolean },
): Promise<PlatformResponse> {
  return client.request('POST', client.platform.reviewUrl, { credential: client.sim.token, json: body });
}

/** A multipart developer call (`file` part plus fields); the JSON answer is validated against the document. */
export async function devMultipart(
  client: PlatformClient,
  method: string,
  suffix: string,
  fields: Record<string, string>,
  file: { text: string; name?: string } | undefined,
  credential: string = client.platform.developerToken,
): Promise<PlatformResponse> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  if (file)
    form.append('file', new Blob([file.text], { type: 'application/json' }), file.name ?? 'source.json');
  const url = client.platform.developerBaseUrl + suffix;
  const res = await fetch(url, { method, headers: { Authorization: `Bearer ${credential}` }, body: form });
  const text = await res.text();
  const data =
    (res.headers.get('content-type') ?? '').includes('application/json') && text
      ? JSON.parse(text)
      : undefined;
  if (data !== undefined) client.openapi.check(method, url, res.status, data);
  return { status: res.status, headers: res.headers, data, text };
}

/** A valid submission of the studio application. */
export function studioSubmission(
  displayVersion: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    appKey: 'framewright-studio',
    displayVersion,
    entry: { component: 'web', port: 8080, healthPath: '/healthz' },
    components: [{ name: 'web', resources: { cpuMillis: 500, memoryMiB: 512 } }],
    dependencies: [
      {
        calleeAppKey: 'storyboard-helper',
        apiVersion: '2026-01',
        scopes: ['storyboard.read', 'storyboard.write'],
      },
    ],
    ...extra,
  };
}
