import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_CSRF_HEADER } from '../../../src/shared/bridge/platform-host-protocol.js';
import { launchCodeOf } from '../../support/platform-simulator.js';
import { APP_KEY } from '../platform-host/harness.js';
import { startStudioRig, type Page, type StudioRig } from './rig.js';
import { signInWithLaunchCode } from '../../support/platform-sign-in.js';

let rig: StudioRig;

beforeAll(async () => {
  rig = await startStudioRig({ recordRuntime: true });
});
afterAll(async () => {
  await rig?.close();
});

/** A browser signed in with a fresh launch code: its page, and the CSRF token it holds. */
async function browserOf(user: 'member' | 'personal'): Promise<{ page: Page; csrf: string }> {
  const { json, cookie } = await signInWithLaunchCode(rig.origin, await launchCodeOf(rig.sim, APP_KEY, user));
  if (!json.result) throw new Error(`sign-in failed for ${user}`);
  return { page: rig.pageOf(cookie, json.result.csrfToken), csrf: json.result.csrfToken };
}

/** The runtime session ids the runtime requests made while `work` ran carried. */
async function sessionsCarriedBy(work: () => Promise<unknown>): Promise<(string | undefined)[]> {
  const from = rig.runtimeCalls.length;
  await work();
  return [...new Set(rig.runtimeCalls.slice(from).map((call) => call.sessionId))];
}

describe('Framewright on the platform: each request acts with its own cookie’s session', () => {
  it('two browsers of one person: each call carries its own session; one signs out, the other keeps working', async () => {
    const first = await browserOf('member');
    const second = await browserOf('member'); // now the person's latest session
    const firstSession = (await rig.sessionOf(first.page)).sessionId;
    const secondSession = (await rig.sessionOf(second.page)).sessionId;
    expect(firstSession).not.toBe(secondSession);

    // a request reaches the runtime with its own cookie's session, not the person's latest
    const list = () => first.page.call('services.list', { serviceKind: 'video_generation' });
    expect(await sessionsCarriedBy(list)).toEqual([firstSession]);
    expect(
      await sessionsCarriedBy(() => second.page.call('services.list', { serviceKind: 'video_generation' })),
    ).toEqual([secondSession]);

    // the second (latest) browser signs out: the first keeps working, as itself
    const out = await fetch(`${rig.origin}/platform/session`, {
      method: 'DELETE',
      headers: { Origin: rig.origin, Cookie: second.page.cookie, [PLATFORM_CSRF_HEADER]: second.csrf },
    });
    expect(out.status).toBe(200);
    expect((await second.page.invoke('jobs.list', {})).ok).toBe(false);
    // (its services list is kept for its own session a while: the runtime is not asked again)
    expect(await sessionsCarriedBy(list)).toEqual([]);
    const info = await first.page.invoke('app.info');
    expect(info.ok).toBe(true);
    const draft = await first.page.call<{ id: string }>('drafts.create', {
      form: {
        profileId: 'ignored-by-the-platform',
        model: 'h3-video',
        generationMode: 't2v',
        prompt: 'A lighthouse at dusk',
        orientation: 'landscape',
        seconds: 5,
        resolutionTier: '768p',
        seed: null,
        references: [],
      },
    });
    const created = rig.runtimeCalls.length;
    const submitted = await first.page.call<{ state: string }>('video.submit', { draftId: draft.id });
    expect(submitted.state).toBe('accepted');
    const create = rig.runtimeCalls
      .slice(created)
      .find((c) => c.method === 'POST' && /\/media\/jobs$/.test(c.path));
    expect(create?.sessionId).toBe(firstSession);
    // every runtime call of the first browser after the sign-out carried its own session
    expect(new Set(rig.runtimeCalls.slice(created).map((c) => c.sessionId))).toEqual(new Set([firstSession]));
  });
});
