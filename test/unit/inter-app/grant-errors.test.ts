import { describe, expect, it } from 'vitest';
import { errorKindOf } from '../../../src/main/core/error-kinds.js';
import { grantErrorSentence, InterAppError } from '../../../src/main/core/inter-app/grant-errors.js';

describe('grant errors as plain sentences', () => {
  it('names the administrator as the fix of an undeclared capability', () => {
    const error = new InterAppError({
      apiCode: 'APP_CAPABILITY_NOT_DECLARED',
      status: 403,
      appLabel: 'Storyboard helper',
    });
    expect(error.code).toBe('inter_app.not_declared');
    expect(error.message).toContain('Storyboard helper');
    expect(error.message).toMatch(/administrator/);
  });

  it('tells how long to wait when the grant service is unavailable', () => {
    const error = new InterAppError({
      apiCode: 'APP_GRANT_SERVICE_UNAVAILABLE',
      status: 503,
      appLabel: 'Storyboard helper',
      retryAfterSeconds: 7,
    });
    expect(error.code).toBe('inter_app.unavailable');
    expect(error.message).toMatch(/wait 7 s/);
    expect(errorKindOf(error)).toBe('service');
  });

  it('has a sentence for every grant code of the spec and never echoes a raw code for them', () => {
    for (const code of [
      'APP_GRANT_IDEMPOTENCY_CONFLICT',
      'APP_GRANT_PRECONDITION_NOT_FOUND',
      'APP_GRANT_NOT_FOUND',
      'APP_GRANT_MISSING',
      'APP_GRANT_SERVICE_UNAVAILABLE',
    ]) {
      expect(grantErrorSentence(code, 'X')).not.toContain(code);
    }
  });

  it('groups the callee codes and unknown codes by status', () => {
    expect(new InterAppError({ apiCode: 'board_not_found', status: 404, appLabel: 'X' }).code).toBe(
      'inter_app.not_found',
    );
    expect(new InterAppError({ apiCode: 'idempotency_conflict', status: 409, appLabel: 'X' }).code).toBe(
      'inter_app.conflict',
    );
    expect(new InterAppError({ apiCode: 'whatever', status: 502, appLabel: 'X' }).code).toBe(
      'inter_app.unavailable',
    );
    expect(
      new InterAppError({ apiCode: 'RUNTIME_SESSION_ACCESS_REVOKED', status: 403, appLabel: 'X' }).code,
    ).toBe('inter_app.session');
  });
});
