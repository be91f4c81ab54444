/**
 * "Pair for debugging" as the studio's Settings do it, against a simulator the test owns: the
 * developer's approval in the simulator's portal page, and a whole pairing through the bridge.
 */
import { expect } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import type { StudioCore } from './desktop-core.js';

/** The simulator's fixture application and the draft version that pairs for debugging. */
export const DEBUG_APP = 'app_sim_framewright_studio';
export const DEBUG_DRAFT = 'appver_sim_framewright_studio_2';

/** The developer approves the pairing in the simulator's portal: answers the redirect's address. */
export async function approveDebugPairing(sim: RunningSimulator, portalUrl: string): Promise<string> {
  const params = new URL(portalUrl).searchParams;
  const form = new URLSearchParams();
  for (const f of ['appId', 'codeChallenge', 'redirectUri', 'versionId', 'testAccountId', 'state']) {
    const v = params.get(f);
    if (v) form.set(f, v);
  }
  form.set('developerToken', sim.platform.developerToken);
  const res = await fetch(new URL('/platform/developer-portal/cli-authorizations', portalUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
    redirect: 'manual',
  });
  expect(res.status).toBe(303);
  return res.headers.get('location')!;
}

/** Pairs a debug profile as a test account (by display name) through the bridge; its profile id. */
export async function pairDebugProfile(
  studio: StudioCore,
  sim: RunningSimulator,
  name: string,
  testAccount: string,
): Promise<string> {
  const started = await studio.call<{ pairingId: string; portalUrl: string }>('debugPairing.start', {
    name,
    developerBaseUrl: sim.platform.developerBaseUrl,
    appId: DEBUG_APP,
    versionId: DEBUG_DRAFT,
    testAccount,
    developerToken: sim.platform.developerToken,
  });
  const waiting = studio.call<{ profile: { id: string } }>('debugPairing.wait', {
    pairingId: started.pairingId,
  });
  await fetch(await approveDebugPairing(sim, started.portalUrl));
  return (await waiting).profile.id;
}
