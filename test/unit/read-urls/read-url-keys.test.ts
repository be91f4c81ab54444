import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  READ_URL_KEY_ROTATION_MS,
  READ_URL_MAX_LIFETIME_MS,
  ReadUrlKeys,
  SIGNING_KEYS_ENTRY,
} from '../../../src/main/core/storage/read-url-keys.js';
import {
  SIGNING_KEY_ENTRY,
  signReadUrl,
  verifyReadUrl,
} from '../../../src/main/core/storage/signed-read-url.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';

const DAY = 24 * 3600 * 1000;
const alice = createHash('sha256').update('t\0a\0alice').digest('hex').slice(0, 32);
const bob = createHash('sha256').update('t\0a\0bob').digest('hex').slice(0, 32);
const sha = createHash('sha256').update('film').digest('hex');

/** A readUrl of `subjectKey` signed now, valid `days` days; and whether it verifies at `at`. */
function urlOf(keys: ReadUrlKeys | Buffer, subjectKey: string, nowMs: number, days = 8) {
  const url = new URL(
    signReadUrl(keys, {
      publicOrigin: 'https://studio.example',
      subjectKey,
      sha256: sha,
      expiresAt: new Date(nowMs + days * DAY),
    }),
  );
  return {
    verifiesAt: (k: ReadUrlKeys | Buffer, atMs: number) =>
      verifyReadUrl(k, url.pathname, url.search, new Date(atMs)),
  };
}

describe('readUrl signing keys: rotation with overlap and per-person revocation', () => {
  it('keeps one random key in the secret store, made once, and distinct per store', async () => {
    const store = new MemorySecretStore();
    const first = await ReadUrlKeys.load(store);
    expect(first.signing).toHaveLength(32);
    expect(await store.has(SIGNING_KEYS_ENTRY)).toBe(true);
    expect((await ReadUrlKeys.load(store)).signing.equals(first.signing)).toBe(true);
    expect((await ReadUrlKeys.load(new MemorySecretStore())).signing.equals(first.signing)).toBe(false);
  });

  it('takes over the single key of earlier versions: the URLs it signed stay valid', async () => {
    const store = new MemorySecretStore();
    const legacy = randomBytes(32);
    await store.set(SIGNING_KEY_ENTRY, legacy.toString('base64url'));
    const sent = urlOf(legacy, alice, Date.now());
    const keys = await ReadUrlKeys.load(store);
    expect(keys.signing.equals(legacy)).toBe(true);
    expect(sent.verifiesAt(keys, Date.now()).ok).toBe(true);
    expect(await store.has(SIGNING_KEY_ENTRY)).toBe(false);
  });

  it('rotates weekly: a URL signed before keeps verifying until its own expiry, then the old key is gone', async () => {
    let now = Date.parse('2026-11-01T00:00:00Z');
    const store = new MemorySecretStore();
    const keys = await ReadUrlKeys.load(store, () => now);
    const before = urlOf(keys, alice, now);
    const oldKey = keys.signing;
    now += READ_URL_KEY_ROTATION_MS - 1;
    expect(await keys.rotateIfDue()).toBe(false);
    now += 1;
    expect(await keys.rotateIfDue()).toBe(true);
    expect(keys.signing.equals(oldKey)).toBe(false);
    // signed by the retired key, still within its 8 days: valid; a new URL uses the new key
    expect(before.verifiesAt(keys, now).ok).toBe(true);
    expect(urlOf(keys, alice, now).verifiesAt(oldKey, now)).toEqual({ ok: false, reason: 'bad_signature' });
    // reloaded from the store (a restart): the same keys, the same verdicts
    const reloaded = await ReadUrlKeys.load(store, () => now);
    expect(before.verifiesAt(reloaded, now).ok).toBe(true);
    // once every URL the old key could have signed has expired, it verifies nothing
    const afterOverlap = now + READ_URL_MAX_LIFETIME_MS;
    const forged = urlOf(oldKey, alice, afterOverlap, 1);
    expect(forged.verifiesAt(keys, afterOverlap)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(keys.accepted(new Date(afterOverlap))).toHaveLength(1);
  });

  it('revoking a person refuses every readUrl of theirs at once, and nobody else’s; new ones work', async () => {
    const store = new MemorySecretStore();
    const keys = await ReadUrlKeys.load(store);
    const now = Date.now();
    const alices = urlOf(keys, alice, now);
    const bobs = urlOf(keys, bob, now);
    await keys.revokeSubject(alice);
    expect(alices.verifiesAt(keys, now)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(bobs.verifiesAt(keys, now).ok).toBe(true);
    expect(urlOf(keys, alice, now).verifiesAt(keys, now).ok).toBe(true);
    // kept across a restart
    expect(alices.verifiesAt(await ReadUrlKeys.load(store), now).ok).toBe(false);
  });
});
