import { afterEach, describe, expect, it, vi } from 'vitest';
import { KeytarSecretStore, type KeytarLike } from '../../../src/main/core/secrets/keytar-secret-store.js';
import { ProfileCredentials } from '../../../src/main/core/secrets/profile-credentials.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import type { SecretStore, SecretStoreDescription } from '../../../src/main/core/secrets/secret-store.js';
import { tempJournal } from '../journal/helpers.js';
import { MemorySecretStore } from './fakes.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const OLD_URL = 'https://old.example.com/v1';
const NEW_URL = 'https://new.example.com/v1';

/** The profile "Work" on OLD_URL with `secret` stored. */
function workProfile(credentials: ProfileCredentials, secret: string) {
  return credentials.createProfile({ name: 'Work', kind: 'personal', baseUrl: OLD_URL, secret });
}

/** An OS keychain that reads and deletes but refuses every write (locked, full, denied). */
function keychainFailingOnWrite() {
  const entries = new Map<string, string>();
  let failWrites = false;
  const keytar: KeytarLike = {
    async getPassword(service, account) {
      return entries.get(`${service}/${account}`) ?? null;
    },
    async setPassword(service, account, password) {
      if (failWrites) throw new Error('The keychain refused the write (locked)');
      entries.set(`${service}/${account}`, password);
    },
    async deletePassword(service, account) {
      return entries.delete(`${service}/${account}`);
    },
  };
  return {
    store: new KeytarSecretStore(keytar, 'FramewrightTest', 'linux'),
    entries,
    failNext: () => (failWrites = true),
  };
}

/** A store of another backend, as another process on the same data folder would have. */
class OtherBackendStore extends MemorySecretStore implements SecretStore {
  constructor(private readonly backend: SecretStoreDescription['backend']) {
    super();
  }
  override describe(): SecretStoreDescription {
    return {
      backend: this.backend,
      detail: `${this.backend} (test)`,
      canStore: this.backend !== 'unavailable',
    };
  }
}

describe('a new login on an existing profile', () => {
  it('keeps the old base URL and the old key when the keychain refuses the new key', async () => {
    t = tempJournal();
    const keychain = keychainFailingOnWrite();
    const credentials = new ProfileCredentials(t.journal.profiles, keychain.store);
    const profile = await workProfile(credentials, 'old-key-0001');
    keychain.failNext();
    await expect(
      credentials.replaceCredential(profile.id, { baseUrl: NEW_URL, secret: 'new-key-0002' }),
    ).rejects.toThrow(/Could not save the key of profile .* refused the write/);
    expect(t.journal.profiles.get(profile.id)?.baseUrl).toBe(OLD_URL);
    expect(await credentials.getSecret(profile.id)).toBe('old-key-0001');
  });

  it('puts the old key back when the journal cannot take the new base URL', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    const profile = await workProfile(credentials, 'old-key-0001');
    vi.spyOn(t.journal.profiles, 'replaceCredential').mockImplementationOnce(() => {
      throw new Error('database is locked');
    });
    await expect(
      credentials.replaceCredential(profile.id, { baseUrl: NEW_URL, secret: 'new-key-0002' }),
    ).rejects.toThrow(/database is locked/);
    expect(store.entries.get(profile.id)).toBe('old-key-0001');
    expect(t.journal.profiles.get(profile.id)?.baseUrl).toBe(OLD_URL);
  });

  it('changes the key, base URL and store together when both succeed', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const changed: string[] = [];
    const credentials = new ProfileCredentials(t.journal.profiles, store, {
      onSecretChanged: (id) => changed.push(id),
    });
    const profile = await workProfile(credentials, 'old-key-0001');
    const updated = await credentials.replaceCredential(profile.id, {
      baseUrl: NEW_URL,
      secret: 'new-key-0002',
    });
    expect(updated).toMatchObject({ baseUrl: NEW_URL, hasSecret: true, secretBackend: 'keytar' });
    expect(await credentials.getSecret(profile.id)).toBe('new-key-0002');
    expect(changed).toEqual([profile.id]);
  });

  it('refuses plain http to another machine before anything moves, and takes it for this machine', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    await expect(
      credentials.createProfile({
        name: 'Lan',
        kind: 'personal',
        baseUrl: 'http://10.0.0.5/v1',
        secret: 'k-0001',
      }),
    ).rejects.toThrow(/must use https for 10\.0\.0\.5/);
    expect(t.journal.profiles.getByName('Lan')).toBeUndefined();
    const profile = await workProfile(credentials, 'old-key-0001');
    await expect(
      credentials.replaceCredential(profile.id, {
        baseUrl: 'http://api.example.com/v1',
        secret: 'new-key-0002',
      }),
    ).rejects.toThrow(/must use https for api\.example\.com/);
    expect(store.entries.get(profile.id)).toBe('old-key-0001');
    expect(t.journal.profiles.get(profile.id)?.baseUrl).toBe(OLD_URL);
    for (const url of ['http://127.0.0.1:8080/v1', 'http://localhost:9/v1', 'http://[::1]:7/v1']) {
      const local = await credentials.replaceCredential(profile.id, { baseUrl: url, secret: 'local-key-3' });
      expect(local.baseUrl).toBe(url);
    }
  });

  it('never stores a debug token without its expiry', async () => {
    t = tempJournal();
    const credentials = new ProfileCredentials(t.journal.profiles, new MemorySecretStore());
    await expect(
      credentials.createProfile({ name: 'Dbg', kind: 'debug', baseUrl: OLD_URL, secret: 'dbg-token-1' }),
    ).rejects.toThrow(/needs its expiry/);
    const debug = await credentials.createProfile({ name: 'Dbg', kind: 'debug', baseUrl: OLD_URL });
    await expect(credentials.setSecret(debug.id, 'dbg-token-1')).rejects.toThrow(/needs its expiry/);
    expect(t.journal.profiles.get(debug.id)?.hasSecret).toBe(false);
  });
});

describe('the key store recorded per profile', () => {
  it('is read only from the store that holds it; another process says so instead of looking elsewhere', async () => {
    t = tempJournal();
    const app = new OtherBackendStore('safe-storage');
    const inApp = new ProfileCredentials(t.journal.profiles, app);
    const profile = await workProfile(inApp, 'app-key-0001');
    expect(t.journal.profiles.get(profile.id)?.secretBackend).toBe('safe-storage');

    // the CLI on the same data folder has the OS keychain, which holds a stale key for the profile
    const cliStore = new OtherBackendStore('keytar');
    await cliStore.set(profile.id, 'stale-key-9999');
    const inCli = new ProfileCredentials(t.journal.profiles, cliStore);
    await expect(inCli.getSecret(profile.id)).rejects.toThrow(
      /kept in the desktop app's encrypted store \(Electron safeStorage\), which this process cannot reach \(it has keytar \(test\)\)\..*use the desktop app, or log in/,
    );
    await expect(inCli.deleteSecret(profile.id)).rejects.toThrow(/cannot reach/);
    expect((await inCli.refresh(profile.id)).hasSecret).toBe(true);
    expect(await inApp.getSecret(profile.id)).toBe('app-key-0001');

    // logging in again in the CLI moves the profile to the CLI's store, on purpose
    await inCli.replaceCredential(profile.id, { baseUrl: OLD_URL, secret: 'cli-key-0002' });
    expect(t.journal.profiles.get(profile.id)?.secretBackend).toBe('keytar');
    expect(await inCli.getSecret(profile.id)).toBe('cli-key-0002');
    await expect(inApp.getSecret(profile.id)).rejects.toThrow(/kept in the OS keychain \(keytar\)/);
  });

  it('says the keychain is unreachable rather than "no key stored" when it stopped answering', async () => {
    t = tempJournal();
    const keychain = new MemorySecretStore();
    const profile = await workProfile(new ProfileCredentials(t.journal.profiles, keychain), 'key-0001');
    const later = new ProfileCredentials(
      t.journal.profiles,
      new UnavailableSecretStore('Secret Service not running: no D-Bus session'),
    );
    await expect(later.getSecret(profile.id)).rejects.toThrow(
      /kept in the OS keychain \(keytar\), which this process cannot reach \(it has no keychain: No OS keychain is reachable \(Secret Service not running/,
    );
  });

  it('records the store of a key stored before the journal recorded it, at its first read', async () => {
    t = tempJournal();
    const store = new MemorySecretStore();
    const credentials = new ProfileCredentials(t.journal.profiles, store);
    const profile = await credentials.createProfile({
      name: 'Old',
      kind: 'personal',
      baseUrl: OLD_URL,
      secret: 'key-0001',
    });
    t.journal.database.prepare('UPDATE profiles SET secret_backend = NULL WHERE id = ?').run(profile.id);
    expect(t.journal.profiles.get(profile.id)?.secretBackend).toBeUndefined();
    expect(await credentials.getSecret(profile.id)).toBe('key-0001');
    expect(t.journal.profiles.get(profile.id)?.secretBackend).toBe('keytar');
  });
});
