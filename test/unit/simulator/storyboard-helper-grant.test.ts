import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  bodyDigest,
  checkResolvedGrant,
  readDigest,
  type ResolvedCallGrant,
} from '../../../src/simulator/apps/storyboard-helper/grant-check.js';

const use = { scope: 'storyboard.write', requestDigest: bodyDigest(Buffer.from('{"a":1}')) };

const resolved = (overrides: Partial<ResolvedCallGrant> = {}): ResolvedCallGrant => ({
  grantId: 'grant_1',
  callerAppKey: 'framewright-studio',
  callerAppVersionId: 'appver_sim_framewright_studio_1',
  calleeAppKey: 'storyboard-helper',
  calleeAppVersionId: 'appver_sim_storyboard_helper_1',
  apiVersion: '2026-01',
  subject: { userId: 'usr_sim_member' },
  callerAppRoles: [],
  scope: use.scope,
  idempotencyKey: 'k',
  requestDigest: use.requestDigest,
  expiresAt: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const code = (fn: () => void) => {
  try {
    fn();
    return 'accepted';
  } catch (error) {
    return (error as { status: number; code: string }).status + ' ' + (error as { code: string }).code;
  }
};

describe("storyboard-helper's own re-check of a resolved grant", () => {
  it('accepts exactly its callee, API version, scope and digest', () => {
    expect(code(() => checkResolvedGrant(resolved(), use))).toBe('accepted');
  });

  it('refuses a grant for another callee (whoever resolved it), another API version, scope or digest', () => {
    for (const bad of [
      { calleeAppKey: 'framewright-studio' },
      { apiVersion: '2027-01' },
      { scope: 'storyboard.read' },
      { requestDigest: bodyDigest(Buffer.from('{"a":2}')) },
    ])
      expect(code(() => checkResolvedGrant(resolved(bad), use))).toBe('404 APP_GRANT_NOT_FOUND');
  });

  it('digests a JSON body in canonical form and anything else as raw bytes; a read as {method, path}', () => {
    expect(bodyDigest(Buffer.from('{ "b": 1,\n "a": [ {"d":2,"c":1} ] }'))).toBe(
      bodyDigest(Buffer.from('{"a":[{"c":1,"d":2}],"b":1}')),
    );
    expect(bodyDigest(Buffer.from('{"a":1}'))).not.toBe(bodyDigest(Buffer.from('{"a":2}')));
    expect(bodyDigest(Buffer.from('not json'))).toBe(
      'sha256:' + createHash('sha256').update('not json').digest('hex'),
    );
    expect(readDigest('get', '/boards')).toBe(bodyDigest(Buffer.from('{"method":"GET","path":"/boards"}')));
    expect(readDigest('GET', '/boards')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
