import { afterEach, describe, expect, it, vi } from 'vitest';
import { composeFeatures, type CoreFeatures } from '../../../src/main/core/app/compose-core.js';
import { openCoreParts, type CoreParts } from '../../../src/main/core/app/core-parts.js';
import { SIMULATOR_PROFILE_ID } from '../../../src/main/core/profiles/profile-directory.js';
import type { SecretStoreDescription } from '../../../src/main/core/secrets/secret-store.js';
import { acceptJob } from '../journal/helpers.js';
import { MemorySecretStore } from '../secrets/fakes.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const SECRET = 'sk-feature-test-never-shown-0123456789';
let dir: string;
let parts: CoreParts;
let features: CoreFeatures;
let store: MemorySecretStore;

async function open(keyStore: Partial<SecretStoreDescription> = {}) {
  dir = tempFolder('framewright-features-');
  store = new MemorySecretStore();
  const describe = store.describe.bind(store);
  store.describe = () => ({ ...describe(), ...keyStore });
  parts = await openCoreParts({
    dataDir: dir,
    secretStore: store,
    launchSimulator: () => Promise.reject(new Error('the simulator is not started by these tests')),
    env: {},
  });
  features = composeFeatures(parts);
}

afterEach(async () => {
  vi.unstubAllEnvs();
  await parts?.close();
});

/** The personal profile "Work" with the test key. */
const addWork = () =>
  features.profiles.add({
    kind: 'personal',
    name: 'Work',
    baseUrl: 'https://api.example.com/v1',
    secret: SECRET,
  });

describe('the profiles feature', () => {
  it('adds a profile with its base URL kept once (trailing slashes trimmed) and its key only in the store', async () => {
    await open();
    const summary = await features.profiles.add({
      kind: 'personal',
      name: 'Work',
      baseUrl: 'https://api.example.com/v1//',
      secret: SECRET,
    });
    expect(summary).toMatchObject({ name: 'Work', baseUrl: 'https://api.example.com/v1', hasSecret: true });
    expect(JSON.stringify(summary)).not.toContain(SECRET);
    expect(store.entries.get(summary.id)).toBe(SECRET);
  });

  it('refuses a bad base URL or a taken name as profile.invalid, naming the field and never the key', async () => {
    await open();
    const refused = features.profiles.add({
      kind: 'personal',
      name: 'Work',
      baseUrl: 'http://api.example.com/v1',
      secret: SECRET,
    });
    await expect(refused).rejects.toMatchObject({
      code: 'profile.invalid',
      message: expect.stringMatching(/https/),
    });
    await features.profiles.add({
      kind: 'personal',
      name: 'Work',
      baseUrl: 'https://a.example/v1',
      secret: SECRET,
    });
    const taken: unknown = await features.profiles
      .add({ kind: 'personal', name: 'work', baseUrl: 'https://b.example/v1', secret: SECRET })
      .catch((error: unknown) => error);
    expect(taken).toMatchObject({ code: 'profile.invalid' });
    expect(String((taken as Error).message)).not.toContain(SECRET);
    expect((await features.profiles.list()).profiles.map((p) => p.name)).toEqual(['Local simulator', 'Work']);
  });

  it('never removes the built-in simulator', async () => {
    await open();
    await expect(features.profiles.remove(SIMULATOR_PROFILE_ID)).rejects.toMatchObject({
      code: 'profile.builtin',
    });
  });

  it('keeps a profile that owns jobs, with its key', async () => {
    await open();
    const work = await addWork();
    acceptJob(parts.journal, 'key-1', work.id, 'job-1');
    await expect(features.profiles.remove(work.id)).rejects.toMatchObject({ code: 'profile.has_jobs' });
    expect(features.profiles.find('Work').id).toBe(work.id);
    expect(store.entries.get(work.id)).toBe(SECRET);
  });

  it('removes a profile without jobs and its key; removing the active one makes the simulator active', async () => {
    await open();
    const work = await addWork();
    await features.profiles.setActive(work.id);
    expect(features.profiles.activeId()).toBe(work.id);
    expect(await features.profiles.remove(work.id)).toEqual({ removed: true });
    expect(features.profiles.activeId()).toBe(SIMULATOR_PROFILE_ID);
    expect(store.entries.has(work.id)).toBe(false);
  });

  it('login reads no key when the URL or the key store cannot take it', async () => {
    await open();
    const readSecret = vi.fn(async () => SECRET);
    await expect(
      features.profiles.login({ name: 'Work', baseUrl: 'http://api.example.com/v1', readSecret }),
    ).rejects.toMatchObject({ code: 'profile.invalid' });
    await parts.close();
    await open({ canStore: false, detail: 'no keychain here' });
    await expect(
      features.profiles.login({ name: 'Work', baseUrl: 'https://api.example.com/v1', readSecret }),
    ).rejects.toMatchObject({ code: 'unavailable', message: expect.stringMatching(/no keychain here/) });
    expect(readSecret).not.toHaveBeenCalled();
  });

  it('login replaces the key of a profile of the same kind and never mixes kinds', async () => {
    await open();
    const first = await features.profiles.login({
      name: 'Work',
      baseUrl: 'https://old.example.com/v1',
      readSecret: async () => 'sk-old-0123456789',
    });
    const again = await features.profiles.login({
      name: 'work',
      baseUrl: 'https://new.example.com/v1/',
      readSecret: async () => SECRET,
    });
    expect(again).toMatchObject({ id: first.id, baseUrl: 'https://new.example.com/v1' });
    expect(store.entries.get(first.id)).toBe(SECRET);
    await expect(
      features.profiles.login({
        name: 'Work',
        baseUrl: 'https://new.example.com/v1',
        debugTokenExpiresAt: Date.now() + 60_000,
        readSecret: async () => 'dbg-token-0123456789',
      }),
    ).rejects.toMatchObject({ code: 'usage', message: expect.stringMatching(/personal profile/) });
    expect(store.entries.get(first.id)).toBe(SECRET);
  });

  it('chooses the identity: the active profile, --profile by name, or --base-url only with the key in the environment', async () => {
    await open();
    const work = await addWork();
    expect(features.profiles.choose({})).toBe(SIMULATOR_PROFILE_ID);
    expect(features.profiles.choose({ profile: 'work' })).toBe(work.id);
    expect(() => features.profiles.choose({ profile: 'Work', baseUrl: 'https://x.example/v1' })).toThrow(
      expect.objectContaining({ code: 'usage' }),
    );
    vi.stubEnv('FRAMEWRIGHT_API_KEY', '');
    expect(() => features.profiles.choose({ baseUrl: 'https://x.example/v1' })).toThrow(
      expect.objectContaining({ code: 'profile.no_key' }),
    );
  });
});
