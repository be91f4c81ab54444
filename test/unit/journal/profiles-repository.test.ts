import { afterEach, describe, expect, it } from 'vitest';
import { ProfileInUseError } from '../../../src/main/core/journal/profiles-repository.js';
import { tempJournal } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

describe('ProfilesRepository', () => {
  it('creates, finds (name ignoring case), lists and updates profiles', () => {
    t = tempJournal();
    const { profiles } = t.journal;
    const sim = profiles.create({ id: 'sim', name: 'Simulator', kind: 'simulator' });
    expect(sim).toMatchObject({ id: 'sim', kind: 'simulator', hasSecret: false, baseUrl: undefined });
    const mine = profiles.create({
      name: '  Work  ',
      kind: 'personal',
      baseUrl: 'https://api.example.com/v1/',
    });
    expect(mine.name).toBe('Work');
    expect(mine.baseUrl).toBe('https://api.example.com/v1');
    expect(profiles.getByName('WORK')?.id).toBe(mine.id);
    expect(profiles.list().map((p) => p.name)).toEqual(['Simulator', 'Work']);
    expect(() => profiles.create({ name: 'work', kind: 'simulator' })).toThrow(
      /A profile named "work" already exists/,
    );
    expect(() => profiles.update(sim.id, { name: 'WORK' })).toThrow(/already exists/);
    t.clock.now += 1000;
    const renamed = profiles.update(mine.id, { name: 'Studio' });
    expect(renamed).toMatchObject({ name: 'Studio', baseUrl: 'https://api.example.com/v1' });
    expect(renamed.updatedAt).toBe(mine.updatedAt + 1000);
  });

  it('refuses base URLs that could carry a secret or are not http(s)', () => {
    t = tempJournal();
    const { profiles } = t.journal;
    expect(() =>
      profiles.create({ name: 'a', kind: 'personal', baseUrl: 'https://user:pw@api.example.com/v1' }),
    ).toThrow(/user name or password/);
    expect(() =>
      profiles.create({ name: 'b', kind: 'personal', baseUrl: 'https://api.example.com/v1?key=x' }),
    ).toThrow(/query/);
    expect(() =>
      profiles.create({ name: 'c', kind: 'personal', baseUrl: 'ftp://api.example.com/v1' }),
    ).toThrow(/http/);
    expect(() => profiles.create({ name: 'd', kind: 'personal' })).toThrow(/base URL/);
    // plain http only to this machine: a name under localhost may resolve anywhere
    for (const [i, url] of [
      'http://api.localhost:8080/v1',
      'http://evil.localhost/v1',
      'http://10.0.0.5/v1',
    ].entries())
      expect(() => profiles.create({ name: `e${i}`, kind: 'personal', baseUrl: url }), url).toThrow(/https/);
    expect(profiles.list()).toEqual([]);
    for (const [i, url] of [
      'http://localhost:8080/v1',
      'http://127.0.0.1:9/v1',
      'http://[::1]:9/v1',
    ].entries())
      expect(profiles.create({ name: `l${i}`, kind: 'personal', baseUrl: url }).baseUrl).toBe(url);
  });

  it('records whether a secret is set and the debug token expiry, never the secret', () => {
    t = tempJournal();
    const { profiles } = t.journal;
    const debug = profiles.create({ name: 'Debug', kind: 'debug', baseUrl: 'https://rt.example.com/v1' });
    const updated = profiles.setHasSecret(debug.id, true, 1_900_000_000_000);
    expect(updated).toMatchObject({ hasSecret: true, debugTokenExpiresAt: 1_900_000_000_000 });
    expect(profiles.setHasSecret(debug.id, false)).toMatchObject({
      hasSecret: false,
      debugTokenExpiresAt: 1_900_000_000_000,
    });
    expect(() =>
      profiles.create({ name: 'P', kind: 'personal', baseUrl: 'https://x/v1', debugTokenExpiresAt: 1 }),
    ).toThrow(/Only debug/);
  });

  it('deletes an unused profile with its uploads, but not one that owns jobs', () => {
    t = tempJournal();
    const { profiles, uploads, jobs } = t.journal;
    const a = profiles.create({ name: 'A', kind: 'simulator' });
    uploads.record({
      sha256: 'a'.repeat(64),
      byteSize: 1,
      profileId: a.id,
      credentialFingerprint: 'f'.repeat(64),
      model: 'm',
      uploadField: 'image',
      assetId: 'asset',
      assetKind: 'image',
      mimeType: 'image/png',
      reused: false,
      expiresAt: t.clock.now + 1e9,
    });
    expect(profiles.delete(a.id)).toBe(true);
    expect(uploads.get(a.id, 'm', 'asset')).toBeUndefined();
    expect(profiles.delete(a.id)).toBe(false);

    const b = profiles.create({ name: 'B', kind: 'simulator' });
    jobs.recordIntent({
      idempotencyKey: 'k1',
      profileId: b.id,
      model: 'm',
      serviceKind: 'video_generation',
      body: {},
    });
    expect(() => profiles.delete(b.id)).toThrow(ProfileInUseError);
    expect(profiles.get(b.id)).toBeDefined();
  });
});
