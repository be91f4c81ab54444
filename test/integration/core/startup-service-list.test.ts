/**
 * The studio's first screen asks for the service list while the start-up connection check is
 * fetching the same list: it is answered from that check's request, not from a second one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { FetchRecorder } from '../services/helpers.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function openCore(): Promise<{ core: AppCore; recorder: FetchRecorder }> {
  const recorder = new FetchRecorder();
  recorder.install();
  cleanups.push(() => recorder.uninstall());
  const dataDir = tempFolder('fw-startup-list-');
  const core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0),
    secretStore: new UnavailableSecretStore('not needed in this test'),
    resumeOnStart: false,
  });
  cleanups.push(() => core.close());
  return { core, recorder };
}

const serviceLists = (recorder: FetchRecorder) =>
  recorder.calls.filter((c) => c.method === 'GET' && c.path === '/services').length;

async function connected(core: AppCore): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    const answer = await core.dispatcher.dispatch('connection.get', {});
    if (answer.ok && (answer.result as { state: string }).state !== 'starting') return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('the start-up check never finished');
}

describe("the first screen's service list while the studio starts", () => {
  it('is the start-up check’s list: one GET /services for both, the same services', async () => {
    const { core, recorder } = await openCore();
    const first = await core.dispatcher.dispatch('services.list', {});
    await connected(core);
    expect(first.ok).toBe(true);
    expect((first as { result: { services: unknown[] } }).result.services.length).toBeGreaterThan(0);
    expect(serviceLists(recorder)).toBe(1);

    // later lists go to the service, as before
    const second = await core.dispatcher.dispatch('services.list', {});
    expect((second as { result: { services: unknown[] } }).result.services).toEqual(
      (first as { result: { services: unknown[] } }).result.services,
    );
    expect(serviceLists(recorder)).toBe(2);
  });

  it('filters the check’s list for a first screen that asks for one kind of service', async () => {
    const { core, recorder } = await openCore();
    const videos = await core.dispatcher.dispatch('services.list', { serviceKind: 'video_generation' });
    await connected(core);
    expect(videos.ok).toBe(true);
    const services = (videos as { result: { services: { serviceKind: string }[] } }).result.services;
    expect(services.length).toBeGreaterThan(0);
    expect(services.every((s) => s.serviceKind === 'video_generation')).toBe(true);
    expect(serviceLists(recorder)).toBe(1);
  });
});
