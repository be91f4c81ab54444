import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimeJobBody } from '../../../src/main/core/jobs/runtime-job-body.js';
import { sessionAuth } from '../../../src/main/core/api-clients/runtime/runtime-auth.js';
import { RuntimeApiError } from '../../../src/main/core/api-clients/runtime/runtime-errors.js';
import { RuntimeWorld } from './runtime-world.js';

/** The session client and the runtime's read-only calls against the simulated platform. */
let world: RuntimeWorld;

beforeAll(async () => {
  world = new RuntimeWorld();
  await world.start();
});
afterAll(async () => {
  await world.close();
});

describe('session service client', () => {
  it('exchanges a launch code once, resolves and renews the session', async () => {
    const sessionId = await world.signIn('member');
    const resolved = await world.sessionClient.resolve(sessionId);
    expect(resolved).toMatchObject({ appKey: 'framewright-studio', appRoles: ['studio_editor'] });
    expect(resolved.subject.userId).toEqual(expect.any(String));
    const renewed = await world.sessionClient.renew(sessionId);
    expect(renewed.sessionId).not.toBe(sessionId);
    expect(Date.parse(renewed.expiresAt)).toBeGreaterThan(Date.now());
  });

  it('a used launch code is refused with the code of the spec and no secret in the message', async () => {
    const res = await fetch(world.sim.platform.launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${world.sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: world.app.appKey, user: 'member' }),
    });
    const code = ((await res.json()) as { runtime: { launchCode: string } }).runtime.launchCode;
    await world.sessionClient.exchange(code);
    const error = (await world.sessionClient.exchange(code).catch((e: unknown) => e)) as RuntimeApiError;
    expect(error).toBeInstanceOf(RuntimeApiError);
    expect(error.status).toBe(404);
    expect(error.message).not.toContain(code);
    expect(error.message).not.toContain(world.app.appCredential);
  });

  it('the directory answers a manager and refuses a member', async () => {
    const manager = await world.signIn('manager');
    const groups = await world.sessionClient.listGroups(manager);
    expect(groups.items.length).toBeGreaterThan(3);
    const members = await world.sessionClient.listMembers(manager);
    expect(members.items.length).toBeGreaterThan(0);
    const member = await world.signIn('member');
    await expect(world.sessionClient.listGroups(member)).rejects.toMatchObject({
      status: 403,
      apiCode: 'ORGANIZATION_MANAGER_REQUIRED',
    });
  });
});

describe('runtime read-only calls', () => {
  it('lists services and dry-runs a creation body without creating a job', async () => {
    const sessionId = await world.signIn('member');
    const services = await world.client.availableServices(sessionAuth(sessionId), {
      serviceKind: 'video_generation',
    });
    expect(services.items.map((s) => s.model)).toContain('h3-video');
    const body = runtimeJobBody(
      'video_generation',
      {
        model: 'h3-video',
        prompt: 'A dry run',
        generationMode: 't2v',
        resolutionTier: '768p',
        orientation: 'landscape',
        seconds: 5,
      },
      { clientTaskId: 'dry-1' },
    );
    const dry = await world.client.dryRun(sessionAuth(sessionId), body);
    expect(dry).toMatchObject({ accepted: true, clientTaskId: 'dry-1', blockers: [] });
    const refused = await world.client.dryRun(sessionAuth(sessionId), {
      ...body,
      mediaSpec: { ...(body.mediaSpec as object), seconds: 99 },
    });
    expect(refused.accepted).toBe(false);
    expect(refused.blockers[0]).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    expect(await world.platformJobsOf('dry-1', sessionId)).toEqual([]);
  });
});
