/**
 * The keytar secret store against a REAL Secret Service (gnome-keyring on a private D-Bus session),
 * not a mock:
 *
 *   bash scripts/with-keyring.sh env FRAMEWRIGHT_KEYRING_TESTS=1 npx vitest run --project integration test/integration/secrets
 *
 * With FRAMEWRIGHT_KEYRING_TESTS=1 and no reachable Secret Service, these tests FAIL and say how to
 * run them. Without the variable (a plain `npx vitest` run), one real behaviour check runs instead:
 * with no session bus, the selection falls back to the unavailable store and says why.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { KeytarSecretStore, loadKeytar } from '../../../src/main/core/secrets/keytar-secret-store.js';
import { ProfileCredentials } from '../../../src/main/core/secrets/profile-credentials.js';
import type { SecretStore } from '../../../src/main/core/secrets/secret-store.js';
import { selectSecretStore } from '../../../src/main/core/secrets/select-secret-store.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const run = promisify(execFile);
const KEYRING_TESTS = process.env.FRAMEWRIGHT_KEYRING_TESTS === '1';
const HOW_TO_RUN =
  'Run it under a throw-away Secret Service: bash scripts/with-keyring.sh env FRAMEWRIGHT_KEYRING_TESTS=1 ' +
  'npx vitest run --project integration test/integration/secrets';

/** Reads a keychain entry from another process: proves the secret is in the Secret Service itself. */
async function readFromAnotherProcess(service: string, account: string): Promise<string | null> {
  const script = `require('keytar').getPassword(${JSON.stringify(service)}, ${JSON.stringify(account)})
    .then((v) => process.stdout.write(JSON.stringify(v)), (e) => { console.error(e.message); process.exit(1); })`;
  const { stdout } = await run(process.execPath, ['-e', script], { cwd: process.cwd() });
  return JSON.parse(stdout) as string | null;
}

if (!KEYRING_TESTS) {
  describe('secret store selection without a Secret Service', () => {
    it.runIf(process.platform === 'linux')(
      'falls back to the unavailable store, refuses to store, and says why',
      async () => {
        // No session bus: neither an address nor a default socket under XDG_RUNTIME_DIR, no X11 to autolaunch.
        const emptyRuntime = tempFolder('framewright-nobus-');
        for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY'])
          delete process.env[name];
        process.env.XDG_RUNTIME_DIR = emptyRuntime;
        const { store, refused } = await selectSecretStore({
          serviceName: `Framewright-test-${randomUUID()}`,
        });
        expect(store).toBeInstanceOf(UnavailableSecretStore);
        expect(refused[0]).toMatch(/^Secret Service not running: /);
        expect(store.describe()).toMatchObject({ backend: 'unavailable', canStore: false });
        expect(store.describe().detail).toMatch(
          /^No OS keychain is reachable \(Secret Service not running: .+\)\. Framewright will not store your key unprotected\./,
        );
        await expect(store.set('profile', 'fw-never-stored-1234')).rejects.toThrow(
          /will not store your key unprotected/,
        );
        expect(await store.get('profile')).toBeUndefined();
      },
    );
  });
} else {
  describe('KeytarSecretStore against a real Secret Service', () => {
    const service = `Framewright-test-${randomUUID()}`;
    let store: SecretStore;
    const written: string[] = [];

    beforeAll(async () => {
      const loaded = loadKeytar();
      if (!loaded.ok) throw new Error(`keytar is not usable here (${loaded.reason}). ${HOW_TO_RUN}`);
      const selection = await selectSecretStore({ serviceName: service, probeTimeoutMs: 10_000 });
      if (!(selection.store instanceof KeytarSecretStore)) {
        throw new Error(`No Secret Service is reachable (${selection.refused.join('; ')}). ${HOW_TO_RUN}`);
      }
      store = selection.store;
    });

    afterAll(async () => {
      for (const account of written) await store?.delete(account).catch(() => undefined);
    });

    it('is selected as the keytar backend', () => {
      expect(store.describe()).toMatchObject({ backend: 'keytar', canStore: true });
      expect(store.describe().detail).toMatch(/Secret Service/);
    });

    it('round-trips set, get, has and delete through the Secret Service', async () => {
      const profile = `profile-${randomUUID()}`;
      written.push(profile);
      const key = `fw-live-${randomUUID()}`;
      expect(await store.has(profile)).toBe(false);
      expect(await store.get(profile)).toBeUndefined();

      await store.set(profile, `${key}\n`);
      expect(await store.get(profile)).toBe(key);
      expect(await store.has(profile)).toBe(true);
      expect(await readFromAnotherProcess(service, profile)).toBe(key);

      const rotated = `fw-live-${randomUUID()}`;
      await store.set(profile, rotated);
      expect(await store.get(profile)).toBe(rotated);

      expect(await store.delete(profile)).toBe(true);
      expect(await store.has(profile)).toBe(false);
      expect(await store.delete(profile)).toBe(false);
      expect(await readFromAnotherProcess(service, profile)).toBeNull();
    });

    it('keeps the secrets of different profiles apart', async () => {
      const [a, b] = [`a-${randomUUID()}`, `b-${randomUUID()}`];
      written.push(a, b);
      await store.set(a, 'fw-key-for-a-0001');
      await store.set(b, 'fw-key-for-b-0002');
      expect(await store.get(a)).toBe('fw-key-for-a-0001');
      expect(await store.get(b)).toBe('fw-key-for-b-0002');
      await store.delete(a);
      expect(await store.get(b)).toBe('fw-key-for-b-0002');
    });

    it('stores a profile key in the keychain only: not in the journal, not in plain text in the keyring files', async () => {
      const dataDir = tempFolder('framewright-keyring-journal-');
      const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
      try {
        const credentials = new ProfileCredentials(journal.profiles, store);
        const key = `fw-live-${randomUUID()}`;
        const profile = await credentials.createProfile({
          name: 'Work',
          kind: 'personal',
          baseUrl: 'https://api.example.com/v1',
          secret: key,
        });
        written.push(profile.id);
        expect(profile.hasSecret).toBe(true);
        expect(await readFromAnotherProcess(service, profile.id)).toBe(key);
        journal.close();
        for (const file of readdirSync(dataDir)) {
          expect(readFileSync(path.join(dataDir, file)).includes(Buffer.from(key)), file).toBe(false);
        }
        const keyrings = path.join(
          process.env.XDG_DATA_HOME ?? path.join(process.env.HOME ?? '', '.local/share'),
          'keyrings',
        );
        if (existsSync(keyrings)) {
          for (const file of readdirSync(keyrings)) {
            expect(readFileSync(path.join(keyrings, file)).includes(Buffer.from(key)), file).toBe(false);
          }
        }
      } finally {
        journal.close();
      }
    });
  });
}
