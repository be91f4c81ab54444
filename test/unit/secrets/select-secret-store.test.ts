import { describe, expect, it } from 'vitest';
import { KeytarSecretStore, PROBE_ACCOUNT } from '../../../src/main/core/secrets/keytar-secret-store.js';
import {
  SafeStorageSecretStore,
  judgeSafeStorage,
} from '../../../src/main/core/secrets/safe-storage-secret-store.js';
import { selectSecretStore } from '../../../src/main/core/secrets/select-secret-store.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { fakeKeytar, fakeSafeStorage } from './fakes.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const dataDir = () => tempFolder('framewright-secrets-');

const noKeychain = () => fakeKeytar({ failWith: 'Cannot autolaunch D-Bus without X11 $DISPLAY' });
const keytarMissing = () => ({
  ok: false as const,
  reason: 'keytar could not be loaded: Cannot find module',
});

describe('selectSecretStore', () => {
  it('prefers keytar when the keychain answers a harmless read, even with safeStorage available', async () => {
    const fake = fakeKeytar();
    const selection = await selectSecretStore({
      loadKeytar: () => ({ ok: true, keytar: fake.keytar }),
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      dataDir: dataDir(),
      platform: 'linux',
      serviceName: 'Framewright-test',
    });
    expect(selection.store).toBeInstanceOf(KeytarSecretStore);
    expect(selection.store.describe()).toMatchObject({ backend: 'keytar', canStore: true });
    expect(selection.refused).toEqual([]);
    // The probe only read a never-written account and wrote nothing.
    expect(fake.reads).toEqual([`Framewright-test/${PROBE_ACCOUNT}`]);
    expect(fake.entries.size).toBe(0);
  });

  it('falls back to safeStorage on a real keychain backend (gnome_libsecret) when keytar cannot reach one', async () => {
    const selection = await selectSecretStore({
      loadKeytar: () => ({ ok: true, keytar: noKeychain().keytar }),
      safeStorage: fakeSafeStorage('gnome_libsecret'),
      dataDir: dataDir(),
      platform: 'linux',
    });
    expect(selection.store).toBeInstanceOf(SafeStorageSecretStore);
    expect(selection.store.describe().detail).toMatch(/gnome_libsecret/);
    expect(selection.refused).toEqual([
      'Secret Service not running: Cannot autolaunch D-Bus without X11 $DISPLAY',
    ]);
  });

  it('never uses safeStorage with the basic_text backend: refuses to store and says why', async () => {
    const selection = await selectSecretStore({
      loadKeytar: () => ({ ok: true, keytar: noKeychain().keytar }),
      safeStorage: fakeSafeStorage('basic_text'),
      dataDir: dataDir(),
      platform: 'linux',
    });
    expect(selection.store).toBeInstanceOf(UnavailableSecretStore);
    const { detail, canStore } = selection.store.describe();
    expect(canStore).toBe(false);
    expect(detail).toMatch(
      /^No OS keychain is reachable \(Secret Service not running: Cannot autolaunch D-Bus/,
    );
    expect(detail).toMatch(/basic_text/);
    expect(detail).toMatch(/Framewright will not store your key unprotected/);
    await expect(selection.store.set('p', 'sk-live-123456')).rejects.toThrow(
      /will not store your key unprotected/,
    );
    expect(await selection.store.get('p')).toBeUndefined();
  });

  it('on Linux refuses a safeStorage backend that is unknown or not reported', async () => {
    for (const backend of ['unknown', undefined]) {
      const selection = await selectSecretStore({
        loadKeytar: keytarMissing,
        safeStorage: fakeSafeStorage(backend),
        dataDir: dataDir(),
        platform: 'linux',
      });
      expect(selection.store).toBeInstanceOf(UnavailableSecretStore);
      expect(selection.store.describe().detail).toMatch(/keytar could not be loaded/);
      expect(selection.store.describe().detail).toMatch(/not a known keychain/);
    }
  });

  it('uses safeStorage on macOS and Windows (Keychain / DPAPI), but not when encryption is unavailable', async () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const ok = await selectSecretStore({
        loadKeytar: keytarMissing,
        safeStorage: fakeSafeStorage(undefined),
        dataDir: dataDir(),
        platform,
      });
      expect(ok.store).toBeInstanceOf(SafeStorageSecretStore);
    }
    expect(judgeSafeStorage(fakeSafeStorage('gnome_libsecret', false), 'linux')).toEqual({
      usable: false,
      reason: 'safeStorage encryption is not available',
    });
    expect(judgeSafeStorage(fakeSafeStorage('basic_text'), 'darwin').usable).toBe(false);
  });

  it('treats a keychain that does not answer in time as unreachable', async () => {
    const selection = await selectSecretStore({
      loadKeytar: () => ({ ok: true, keytar: fakeKeytar({ hang: true }).keytar }),
      platform: 'linux',
      probeTimeoutMs: 20,
    });
    expect(selection.store).toBeInstanceOf(UnavailableSecretStore);
    expect(selection.store.describe().detail).toMatch(/no answer within 20 ms/);
  });

  it('needs a data directory before it can use safeStorage', async () => {
    const selection = await selectSecretStore({
      loadKeytar: keytarMissing,
      safeStorage: fakeSafeStorage('kwallet6'),
      platform: 'linux',
    });
    expect(selection.store.describe().detail).toMatch(/safeStorage needs a data directory/);
  });
});
