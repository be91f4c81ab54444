import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EnvironmentSecretStore,
  apiKeyFromEnvironment,
} from '../../../src/main/core/secrets/env-secret-store.js';
import { KeytarSecretStore } from '../../../src/main/core/secrets/keytar-secret-store.js';
import { SafeStorageSecretStore } from '../../../src/main/core/secrets/safe-storage-secret-store.js';
import { SecretStoreError, normaliseSecret, redact } from '../../../src/main/core/secrets/secret-store.js';
import { fakeKeytar, fakeSafeStorage } from './fakes.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const KEY = 'fw-live-7f3c9a1b2d4e';

let dir: string | undefined;
afterEach(() => {
  dir = undefined;
});

describe('normaliseSecret and redact', () => {
  it('drops the newline of a piped key and rejects what cannot be a bearer key, without echoing it', () => {
    expect(normaliseSecret(`${KEY}\n`)).toBe(KEY);
    for (const bad of ['', '   \n', 'fw live with spaces', 'fw-ключ-123']) {
      let error: unknown;
      try {
        normaliseSecret(bad);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(SecretStoreError);
      if (bad.trim()) expect((error as Error).message).not.toContain(bad.trim());
    }
    expect(redact(`token ${KEY} failed (${KEY})`, [KEY])).toBe('token [redacted] failed ([redacted])');
  });
});

describe('KeytarSecretStore', () => {
  it('stores under service/account = profile id and round-trips', async () => {
    const fake = fakeKeytar();
    const store = new KeytarSecretStore(fake.keytar, 'Framewright', 'linux');
    await store.set('profile-1', `${KEY}\n`);
    expect(fake.entries.get('Framewright/profile-1')).toBe(KEY);
    expect(await store.get('profile-1')).toBe(KEY);
    expect(await store.has('profile-2')).toBe(false);
    expect(await store.delete('profile-1')).toBe(true);
    expect(await store.get('profile-1')).toBeUndefined();
  });

  it('never lets the key reach an error message or its cause', async () => {
    const fake = fakeKeytar({ failWith: `libsecret: could not store "${KEY}"` });
    const store = new KeytarSecretStore(fake.keytar, 'Framewright', 'linux');
    const error = await store.set('p', KEY).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    const text = `${(error as Error).message} ${String((error as Error).stack)} ${String(((error as Error).cause as Error)?.message)}`;
    expect(text).not.toContain(KEY);
    expect((error as Error).message).toMatch(/Could not save the key of profile "p" in the Secret Service/);
  });
});

describe('SafeStorageSecretStore', () => {
  it('writes only ciphertext, owner-only, and round-trips', async () => {
    dir = tempFolder('framewright-safe-');
    const store = new SafeStorageSecretStore(fakeSafeStorage('gnome_libsecret'), dir, 'gnome_libsecret');
    await store.set('profile/with:odd chars', KEY);
    const file = store.fileFor('profile/with:odd chars');
    expect(path.dirname(file)).toBe(path.join(dir, 'secrets'));
    expect(readFileSync(file).includes(Buffer.from(KEY))).toBe(false);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, 'secrets')).mode & 0o777).toBe(0o700);
    expect(readdirSync(path.join(dir, 'secrets'))).toHaveLength(1); // no temporary file left
    expect(await store.get('profile/with:odd chars')).toBe(KEY);
    expect(await store.has('other')).toBe(false);
    expect(await store.delete('profile/with:odd chars')).toBe(true);
    expect(await store.get('profile/with:odd chars')).toBeUndefined();
    expect(await store.delete('profile/with:odd chars')).toBe(false);
  });

  it('says to log in again when a stored key cannot be decrypted', async () => {
    dir = tempFolder('framewright-safe-');
    const store = new SafeStorageSecretStore(fakeSafeStorage('gnome_libsecret'), dir, 'gnome_libsecret');
    await store.set('p', KEY);
    writeFileSync(store.fileFor('p'), 'garbage');
    await expect(store.get('p')).rejects.toThrow(/could not be decrypted.*Log in to this profile again/);
  });
});

describe('EnvironmentSecretStore', () => {
  it('gives FRAMEWRIGHT_API_KEY to its one profile only and never stores anything', async () => {
    const store = new EnvironmentSecretStore('cli-base-url', { FRAMEWRIGHT_API_KEY: `${KEY}\n` });
    expect(await store.get('cli-base-url')).toBe(KEY);
    expect(await store.get('some-other-profile')).toBeUndefined();
    await expect(store.set()).rejects.toThrow(/never stored/);
    expect(store.describe()).toMatchObject({ backend: 'environment', canStore: false });
    expect(store.describe().detail).not.toContain(KEY);
    expect(await new EnvironmentSecretStore('x', {}).has('x')).toBe(false);
    expect(() => apiKeyFromEnvironment({ FRAMEWRIGHT_API_KEY: 'two words' })).toThrow(
      /FRAMEWRIGHT_API_KEY is not a usable key/,
    );
  });
});
