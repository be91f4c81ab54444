/**
 * "Pair for debugging" through the bridge, as the studio's Settings call it: the test account is
 * chosen from the application's list, the developer approves in the simulator's portal page, and
 * the new debug profile is listed with the account it bills and its expiry. Runs in-process with
 * an in-memory secret store (the keychain itself is covered by login-debug-cli.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { openStudioCore, type StudioCore } from '../../support/studio-core.js';
import {
  approveDebugPairing,
  DEBUG_APP,
  DEBUG_DRAFT,
  pairDebugProfile,
} from '../../support/worlds/debug-pairing.js';

const APP = DEBUG_APP;
const DRAFT = DEBUG_DRAFT;
const approve = approveDebugPairing;

describe('Pair for debugging (bridge)', () => {
  let sim: RunningSimulator;
  let studio: StudioCore;
  beforeAll(async () => {
    sim = await openSimulator({ timeScale: 0.02, dataDir: tempFolder('fw-pairb-sim-') });
    studio = await openStudioCore('fw-pairb-');
  });
  afterAll(async () => {
    await studio?.close();
    await sim?.close();
  });

  it('lists the test accounts, pairs as one of them, and lists the debug profile with its account and expiry', async () => {
    const accounts = await studio.call<{ items: { id: string; displayName: string }[] }>(
      'debugPairing.testAccounts',
      {
        developerBaseUrl: sim.platform.developerBaseUrl,
        appId: APP,
        developerToken: sim.platform.developerToken,
      },
    );
    expect(accounts.items.map((a) => a.displayName)).toEqual(['Morgan Reyes', 'Pat Personal']);

    const started = await studio.call<{ pairingId: string; portalUrl: string }>('debugPairing.start', {
      name: 'Studio debug',
      developerBaseUrl: sim.platform.developerBaseUrl,
      appId: APP,
      versionId: DRAFT,
      testAccount: accounts.items[0]!.id,
      developerToken: sim.platform.developerToken,
    });
    expect(started.portalUrl.startsWith(sim.platform.developerPortalUrl + '?')).toBe(true);
    const waiting = studio.call<{
      profile: { name: string; kind: string; baseUrl: string };
      session: { testAccount: { displayName: string }; billed: boolean; expiresAt: string; expired: boolean };
    }>('debugPairing.wait', { pairingId: started.pairingId });
    const location = await approve(sim, started.portalUrl);
    expect((await fetch(location)).status).toBe(200);
    const paired = await waiting;
    expect(paired.profile).toMatchObject({
      name: 'Studio debug',
      kind: 'debug',
      baseUrl: sim.platform.debugBaseUrl,
    });
    expect(paired.session).toMatchObject({
      testAccount: { displayName: 'Morgan Reyes' },
      billed: true,
      expired: false,
    });
    expect(Date.parse(paired.session.expiresAt) - Date.now()).toBeGreaterThan(59 * 60_000);

    const list = await studio.call<{ profiles: { id: string; name: string }[] }>('profiles.list', {});
    const profile = list.profiles.find((p) => p.name === 'Studio debug')!;
    expect(profile).toBeDefined();
    const again = await studio.call<{ session: { profileName: string } | null }>('debugPairing.session', {
      profileId: profile.id,
    });
    expect(again.session?.profileName).toBe('Studio debug');
    // the profile reaches the debugging runtime with the CLI Bearer (public-interface shapes)
    expect(await studio.call('profiles.test', { profileId: profile.id })).toMatchObject({ ok: true });
  });

  it('gives the Team screen in debugging to an organization manager test account, and not to a personal one', async () => {
    const pair = (name: string, testAccount: string) => pairDebugProfile(studio, sim, name, testAccount);
    expect(await studio.call('team.access', {})).toEqual({ manager: false });
    const manager = await pair('Manager debug', 'Morgan Reyes');
    await studio.call('profiles.setActive', { profileId: manager });
    expect(await studio.call('team.access', {})).toEqual({ manager: true });
    const { groups } = await studio.call<{ groups: { name: string }[] }>('team.groups', {});
    expect(groups.map((g) => g.name)).toContain('Northwind Pictures');
    const members = await studio.call<{ items: unknown[]; total: number }>('team.members', {});
    expect(members.total).toBe(14);

    const personal = await pair('Personal debug', 'Pat Personal');
    await studio.call('profiles.setActive', { profileId: personal });
    expect(await studio.call('team.access', {})).toEqual({ manager: false });
    await expect(studio.call('team.groups', {})).rejects.toMatchObject({ code: 'team.not_manager' });
    await studio.call('profiles.setActive', { profileId: 'simulator' });
  });

  it('refuses a test account that is not on the list, by name, before any pairing', async () => {
    await expect(
      studio.call('debugPairing.start', {
        name: 'Other debug',
        developerBaseUrl: sim.platform.developerBaseUrl,
        appId: APP,
        versionId: DRAFT,
        testAccount: 'Someone Else',
        developerToken: sim.platform.developerToken,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('No test account named "Someone Else"') });
  });

  it('refuses a version that is not the application’s, before any pairing', async () => {
    await expect(
      studio.call('debugPairing.start', {
        name: 'Other debug',
        developerBaseUrl: sim.platform.developerBaseUrl,
        appId: APP,
        versionId: 'appver_nope',
        developerToken: sim.platform.developerToken,
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining('"appver_nope" is not a version') });
  });
});
