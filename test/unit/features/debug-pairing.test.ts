import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chooseTestAccount } from '../../../src/main/core/debug-pairing/debug-pairing-feature.js';
import type { TestAccount } from '../../../src/main/core/debug-pairing/developer-api.js';
import {
  listenForRedirect,
  PAIRING_REDIRECT_PATH,
} from '../../../src/main/core/debug-pairing/loopback-redirect.js';
import {
  newCodeVerifier,
  newPairingState,
  newPkcePair,
  s256Challenge,
} from '../../../src/main/core/debug-pairing/pkce.js';
import { getWithHost } from '../../support/request-with-host.js';

describe('PKCE (RFC 7636)', () => {
  it('derives the S256 challenge of the RFC’s appendix B example', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('makes a fresh 43-character unreserved verifier each time, and its challenge', () => {
    const a = newPkcePair();
    const b = newPkcePair();
    expect(a.verifier).toMatch(/^[A-Za-z0-9\-._~]{43}$/);
    expect(a.verifier).not.toBe(b.verifier);
    expect(a.challenge).toBe(createHash('sha256').update(a.verifier).digest('base64url'));
    expect(a.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newCodeVerifier()).not.toBe(newCodeVerifier());
    expect(newPairingState()).not.toBe(newPairingState());
  });

  it('refuses a verifier outside 43..128 unreserved characters', () => {
    expect(() => s256Challenge('short')).toThrow(RangeError);
    expect(() => s256Challenge('a'.repeat(129))).toThrow(RangeError);
    expect(() => s256Challenge('a'.repeat(42) + '+')).toThrow(RangeError);
  });
});

describe('the loopback redirect listener', () => {
  it('listens on 127.0.0.1, accepts one code for its state on its one path, then closes', async () => {
    const redirect = await listenForRedirect({ state: 'the-state', timeoutMs: 10_000 });
    const uri = new URL(redirect.redirectUri);
    expect(uri.hostname).toBe('127.0.0.1');
    expect(uri.pathname).toBe(PAIRING_REDIRECT_PATH);
    expect(Number(uri.port)).toBeGreaterThan(0);
    expect((await fetch(new URL('/other?state=the-state&code=c', uri))).status).toBe(404);
    // a request addressed to another host (DNS rebinding) is refused before its code is read
    expect(await getWithHost(`${redirect.redirectUri}?state=the-state&code=stolen`, 'evil.example')).toBe(
      421,
    );
    expect((await fetch(`${redirect.redirectUri}?state=wrong&code=c`)).status).toBe(400);
    expect((await fetch(`${redirect.redirectUri}?state=the-state`)).status).toBe(400);
    const ok = await fetch(`${redirect.redirectUri}?state=the-state&code=the-code`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('referrer-policy')).toBe('no-referrer');
    await expect(redirect.code).resolves.toBe('the-code');
    await expect(fetch(`${redirect.redirectUri}?state=the-state&code=second`)).rejects.toThrow();
  });

  it('gives up after its time limit', async () => {
    const redirect = await listenForRedirect({ state: 's', timeoutMs: 50 });
    await expect(redirect.code).rejects.toMatchObject({ code: 'pairing.timeout' });
    await expect(fetch(`${redirect.redirectUri}?state=s&code=late`)).rejects.toThrow();
  });

  it('stops when cancelled', async () => {
    const redirect = await listenForRedirect({ state: 's', timeoutMs: 10_000 });
    redirect.cancel();
    await expect(redirect.code).rejects.toMatchObject({ code: 'pairing.cancelled' });
  });
});

describe('choosing a test account', () => {
  const accounts: TestAccount[] = [
    {
      id: 'ta_1',
      appId: 'app',
      accountId: 'acc_manager',
      organizationId: 'org',
      displayName: 'Morgan Reyes',
      organizationName: 'Northwind Pictures',
      createdAt: '2026-01-01T00:00:00Z',
    },
    {
      id: 'ta_2',
      appId: 'app',
      accountId: 'acc_personal',
      organizationId: '',
      displayName: 'Pat Personal',
      organizationName: '',
      createdAt: '2026-01-01T00:00:00Z',
    },
  ];

  it('takes a name (any case) or a record id of the list', () => {
    expect(chooseTestAccount(accounts, 'morgan reyes', 'app').id).toBe('ta_1');
    expect(chooseTestAccount(accounts, 'ta_2', 'app').id).toBe('ta_2');
  });

  it('refuses another name, listing the names there are', () => {
    expect(() => chooseTestAccount(accounts, 'Nobody', 'app')).toThrow(
      /No test account named "Nobody".*"Morgan Reyes" \(Northwind Pictures\).*"Pat Personal"/,
    );
  });

  it('refuses a typed user id', () => {
    expect(() => chooseTestAccount(accounts, 'acc_manager', 'app')).toThrow(/is a user id/);
  });
});
