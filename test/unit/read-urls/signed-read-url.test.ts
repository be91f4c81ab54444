import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signReadUrl, verifyReadUrl } from '../../../src/main/core/storage/signed-read-url.js';

const key = randomBytes(32);
const subjectA = createHash('sha256').update('t\0a\0alice').digest('hex').slice(0, 32);
const subjectB = createHash('sha256').update('t\0a\0bob').digest('hex').slice(0, 32);
const sha = createHash('sha256').update('png bytes').digest('hex');
const otherSha = createHash('sha256').update('other bytes').digest('hex');
const now = new Date('2026-11-23T12:00:00Z');
const expiresAt = new Date('2026-11-24T12:00:00Z');

const sign = (over: Partial<Parameters<typeof signReadUrl>[1]> = {}) =>
  new URL(
    signReadUrl(key, {
      publicOrigin: 'https://studio.example',
      subjectKey: subjectA,
      sha256: sha,
      expiresAt,
      ...over,
    }),
  );
const verify = (u: URL, at = now, k = key) => verifyReadUrl(k, u.pathname, u.search, at);

describe('signed read URLs', () => {
  it('names one object of one subject with exp and an HMAC, and verifies', () => {
    const u = sign();
    expect(u.origin).toBe('https://studio.example');
    expect(u.pathname).toBe(`/objects/${subjectA}/${sha}`);
    expect(u.searchParams.get('exp')).toBe(String(expiresAt.getTime() / 1000));
    expect(u.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
    expect(verify(u)).toEqual({
      ok: true,
      subjectKey: subjectA,
      sha256: sha,
      exp: expiresAt.getTime() / 1000,
    });
  });

  it('refuses a wrong signature, and one made with another key', () => {
    const u = sign();
    const sig = u.searchParams.get('sig')!;
    u.searchParams.set('sig', (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
    expect(verify(u)).toEqual({ ok: false, reason: 'bad_signature' });
    expect(verify(sign(), now, randomBytes(32))).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('never opens another subject: the same signature on another subject key is refused', () => {
    const u = sign();
    const moved = new URL(u.toString().replace(subjectA, subjectB));
    expect(verify(moved)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses a tampered sha256 and a stretched expiry', () => {
    const u = sign();
    expect(verify(new URL(u.toString().replace(sha, otherSha)))).toEqual({
      ok: false,
      reason: 'bad_signature',
    });
    const later = new URL(u);
    later.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600));
    expect(verify(later)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses at and after expiry', () => {
    const u = sign();
    expect(verify(u, new Date(expiresAt.getTime() - 1000)).ok).toBe(true);
    expect(verify(u, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(verify(u, new Date(expiresAt.getTime() + 86_400_000))).toEqual({ ok: false, reason: 'expired' });
  });

  it.each([
    [
      'path traversal',
      (p: string) => p.replace(`/objects/${subjectA}/`, `/objects/${subjectA}/../${subjectA}/`),
    ],
    ['encoded traversal', (p: string) => p.replace(`${subjectA}/`, `${subjectA}%2F..%2F`)],
    ['a repeated slash', (p: string) => p.replace('/objects/', '/objects//')],
    ['a slash between the parts doubled', (p: string) => p.replace(`${subjectA}/`, `${subjectA}//`)],
    ['a trailing slash', (p: string) => `${p}/`],
    ['an extra segment', (p: string) => `${p}/x`],
    ['another prefix', (p: string) => p.replace('/objects/', '/bridge/')],
    ['upper-case hex', (p: string) => p.replace(sha, sha.toUpperCase())],
    ['a percent-encoded digit', (p: string) => p.replace(sha, `%3${sha[0]}${sha.slice(1)}`)],
  ])('refuses %s as malformed', (_name, change) => {
    const u = sign();
    expect(verifyReadUrl(key, change(u.pathname), u.search, now)).toEqual({ ok: false, reason: 'malformed' });
  });

  it.each([
    ['no signature', (q: URLSearchParams) => q.delete('sig')],
    ['no expiry', (q: URLSearchParams) => q.delete('exp')],
    ['a second sig', (q: URLSearchParams) => q.append('sig', q.get('sig')!)],
    ['an extra parameter', (q: URLSearchParams) => q.append('download', '1')],
    ['a negative expiry', (q: URLSearchParams) => q.set('exp', '-1')],
    ['a fractional expiry', (q: URLSearchParams) => q.set('exp', '1800000000.5')],
    ['a short signature', (q: URLSearchParams) => q.set('sig', q.get('sig')!.slice(2))],
  ])('refuses a query with %s as malformed', (_name, change) => {
    const u = sign();
    const q = new URLSearchParams(u.search);
    change(q);
    expect(verifyReadUrl(key, u.pathname, `?${q.toString()}`, now)).toEqual({
      ok: false,
      reason: 'malformed',
    });
  });

  it('refuses to sign for a malformed subject, digest or origin', () => {
    expect(() => sign({ subjectKey: '../x' })).toThrow(/subjectKey/);
    expect(() => sign({ sha256: 'abc' })).toThrow(/sha256/);
    expect(() => sign({ publicOrigin: 'https://studio.example/app' })).toThrow(/origin/);
    expect(() => sign({ publicOrigin: 'file:///tmp' })).toThrow(/origin/);
  });
});
