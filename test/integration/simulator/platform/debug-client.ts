import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import type { Json } from '../client.js';
import type { PlatformClient, PlatformResponse } from './platform-client.js';

/** A CLI session as the simulator-only issue route answers it (what section E's pairing issues). */
export interface CliSession {
  accessToken: string;
  expiresAt: string;
  appId: string;
  appKey: string;
  appVersionId: string;
  runtimeSessionId: string;
  runtimeBaseUrl: string;
  relayBaseUrl: string;
}

/** Issues a CLI session through `POST /platform/_simulator/cli-sessions` (fixed local test token). */
export async function issueCliSession(
  client: PlatformClient,
  appKey: string,
  user: 'manager' | 'member' | 'personal',
  extra: { versionId?: string; testAccountId?: string } = {},
): Promise<CliSession> {
  const origin = new URL(client.sim.baseUrl).origin;
  const res = await client.request('POST', `${origin}/platform/_simulator/cli-sessions`, {
    credential: client.sim.token,
    json: { appKey, user, ...extra },
  });
  expect(res.status, res.text).toBe(200);
  return res.data as CliSession;
}

/** `{developer_base_url}` of the simulator. */
export const developerBaseUrl = (client: PlatformClient) =>
  `${new URL(client.sim.baseUrl).origin}/platform/api/v1/appstore/developer`;

/** A section D call under the CLI session's own binding (or another `appId`/`versionId`). */
export function debugCall(
  client: PlatformClient,
  cli: CliSession,
  method: string,
  suffix: string,
  options: {
    json?: unknown;
    body?: string;
    credential?: string;
    appId?: string;
    versionId?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<PlatformResponse> {
  const url = `${developerBaseUrl(client)}/apps/${options.appId ?? cli.appId}/versions/${options.versionId ?? cli.appVersionId}${suffix}`;
  return client.request(method, url, {
    credential: options.credential ?? cli.accessToken,
    json: options.json,
    body: options.body,
    headers: options.headers,
  });
}

/** The spec's recommended digest: UTF-8 JSON with sorted keys and no whitespace. */
export const digest = (body: Record<string, unknown>) =>
  'sha256:' +
  createHash('sha256')
    .update(JSON.stringify(Object.fromEntries(Object.entries(body).sort(([a], [b]) => a.localeCompare(b)))))
    .digest('hex');

/** A provider withdraws (or reopens) online debugging (simulator-only route). */
export async function setWithdrawn(
  client: PlatformClient,
  appKey: string,
  withdrawn: boolean,
): Promise<void> {
  const origin = new URL(client.sim.baseUrl).origin;
  const res = await client.request('POST', `${origin}/platform/_simulator/debug-withdrawals`, {
    credential: client.sim.token,
    json: { appKey, withdrawn },
  });
  expect(res.status, res.text).toBe(200);
}

/** The platform document's paths (to assert a route is documented, since the validator skips unknown paths). */
export async function documentedPaths(client: PlatformClient): Promise<Json> {
  const origin = new URL(client.sim.baseUrl).origin;
  const res = await fetch(`${origin}/platform/openapi.json`);
  return ((await res.json()) as Json).paths;
}
