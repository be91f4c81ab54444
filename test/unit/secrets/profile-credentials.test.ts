import { afterEach, describe, expect, it } from 'vitest';
import { ProfileInUseError } from '../../../src/main/core/journal/profiles-repository.js';
import { ProfileCredentials } from '../../../src/main/core/secrets/profile-credentials.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { tempJournal } from '../journal/helpers.js';
import { MemorySecretStore } from './fakes.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

describe('ProfileCredentials', () => {
  it('keeps the key in the store and only the flag in the journal', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    const profile = await credentials.createProfile({
      name: 'Work',
      kind: 'personal',
      baseUrl: 'https://api.example.com/v1',
      secret: 'fw-key-0001\n',
    });
    expect(profile.hasSecret).toBe(true);
    expect(store.entries.get(profile.id)).toBe('fw-key-0001');
    expect(await credentials.getSecret(profile.id)).toBe('fw-key-0001');
    expect(t.journal.profiles.get(profile.id)).not.toHaveProperty('secret');

    expect((await credentials.deleteSecret(profile.id)).hasSecret).toBe(false);
    expect(store.entries.has(profile.id)).toBe(false);
  });

  it('does not keep a profile whose key cannot be stored, and says why', async () => {
    t = tempJournal();
    const credentials = new ProfileCredentials(
      t.journal.profiles,
      new UnavailableSecretStore('Secret Service not running'),
    );
    await expect(
      credentials.createProfile({
        name: 'Work',
        kind: 'personal',
        baseUrl: 'https://api.example.com/v1',
        secret: 'fw-key-0001',
      }),
    ).rejects.toThrow(
      /No OS keychain is reachable \(Secret Service not running\)\. Framewright will not store your key unprotected/,
    );
    expect(t.journal.profiles.list()).toEqual([]);
  });

  it('stores a debug token with its expiry, and refreshes the flag from the store', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    const debug = await credentials.createProfile({
      name: 'Debug',
      kind: 'debug',
      baseUrl: 'https://rt.example.com/v1',
    });
    expect(debug.hasSecret).toBe(false);
    const withToken = await credentials.setSecret(debug.id, 'dbg-token-42', {
      debugTokenExpiresAt: 1_900_000_000_000,
    });
    expect(withToken).toMatchObject({ hasSecret: true, debugTokenExpiresAt: 1_900_000_000_000 });
    store.entries.clear(); // removed outside Framewright
    expect((await credentials.refresh(debug.id)).hasSecret).toBe(false);
    await expect(credentials.setSecret(debug.id, 'has a space')).rejects.toThrow(/spaces/);
  });

  it('deletes a profile and its key, but not a profile that owns jobs', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    const a = await credentials.createProfile({ name: 'A', kind: 'simulator', secret: 'sim-key-1' });
    expect(await credentials.deleteProfile(a.id)).toBe(true);
    expect(store.entries.size).toBe(0);
    const b = await credentials.createProfile({ name: 'B', kind: 'simulator', secret: 'sim-key-2' });
    t.journal.jobs.recordIntent({
      idempotencyKey: 'k',
      profileId: b.id,
      model: 'm',
      serviceKind: 'video_generation',
      body: {},
    });
    await expect(credentials.deleteProfile(b.id)).rejects.toThrow(ProfileInUseError);
    expect(store.entries.get(b.id)).toBe('sim-key-2');
  });
});
