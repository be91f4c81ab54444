/**
 * The simulator's developer surfaces together, as a developer of Framewright would use them: a CLI
 * paired with PKCE for a test account (section E), a debug app grant for storyboard-helper (section
 * D), the business call through the relay, resolved by storyboard-helper's own backend with its own
 * credential at the production resolve (section C), and what the relay delivers — that account's
 * boards, no one else's.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import type { PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';
import { debugCall, type CliSession } from './debug-client.js';
import { STUDIO_ACTIVE_VERSION, STUDIO_APP_ID, pairCli } from './developer-client.js';

let client: PlatformClient;
usePlatformWorld({}, (world) => {
  client = world.client;
});

/** storyboard-helper's digest of a body-less read: canonical JSON of {method, path}. */
const readDigest = (method: string, path: string) =>
  'sha256:' + createHash('sha256').update(JSON.stringify({ method, path })).digest('hex');

it('a paired CLI reads the test account’s boards through the relay, and a grant for another read is refused', async () => {
  const session = (await pairCli(client, STUDIO_APP_ID, {
    versionId: STUDIO_ACTIVE_VERSION,
    testAccountId: 'ta_sim_framewright_studio_manager',
  })) as CliSession & Record<string, unknown>;
  expect(session.accessToken).toBeTruthy();
  const relayBase = `${client.platform.debugBaseUrl}/inter-app`;
  const grantFor = async (key: string, path: string) => {
    const res = await debugCall(client, session, 'POST', '/app-grants', {
      json: {
        calleeAppKey: 'storyboard-helper',
        apiVersion: '2026-01',
        scope: 'storyboard.read',
        idempotencyKey: key,
        requestDigest: readDigest('GET', path),
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.sourceChannel).toBe('developer_debug');
    return res.data.grant as string;
  };

  const grant = await grantFor('e2e-boards', '/boards');
  const boards = await client.request('GET', `${relayBase}/storyboard-helper/2026-01/boards`, {
    credential: session.accessToken,
    headers: { 'X-Platform-App-Grant': grant, Cookie: 'developer=secret' },
  });
  expect(boards.status, boards.text).toBe(200);
  const list = (boards.data.boards ?? boards.data.items ?? boards.data.data) as { boardId: string }[];
  // the test account is the organization manager: their boards (the member's are not theirs)
  expect(list.length).toBeGreaterThan(0);
  for (const board of list) expect(JSON.stringify(board)).not.toMatch(/usr_sim_member/);

  // the grant was for `GET /boards`: another path under it is refused by the callee, nothing read
  const other = await client.request(
    'GET',
    `${relayBase}/storyboard-helper/2026-01/boards/${encodeURIComponent(list[0]!.boardId)}`,
    { credential: session.accessToken, headers: { 'X-Platform-App-Grant': grant } },
  );
  expect(other.status).toBeGreaterThanOrEqual(400);
  expect(other.status).toBeLessThan(500);

  // the production application credential is not a debugging credential
  const withApp = await client.request('GET', `${relayBase}/storyboard-helper/2026-01/boards`, {
    credential: client.platform.apps.find((a) => a.appKey === 'framewright-studio')!.appCredential,
    headers: { 'X-Platform-App-Grant': await grantFor('e2e-boards-2', '/boards') },
  });
  expect(withApp.status).toBe(401);
});
