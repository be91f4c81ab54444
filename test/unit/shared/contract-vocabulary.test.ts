import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/platform/api-errors.js';
import { conflictMeaning } from '../../../src/shared/api/contract-vocabulary.js';

const conflict = (apiCode: string) =>
  new ApiError({ status: 409, apiCode, message: 'Refused.', requestId: 'req_1', retryable: false });

describe('409 by its code', () => {
  it('tells an idempotency conflict from "service not available"; an unknown code is unrecognised', () => {
    expect(conflictMeaning('idempotency_conflict')).toBe('idempotency_conflict');
    expect(conflictMeaning('service_not_available')).toBe('service_not_available');
    expect(conflictMeaning('something_else')).toBe('unrecognised');
  });

  it('"service not available" says so and what to do; an idempotency conflict says the key was used', () => {
    expect(conflict('service_not_available').message).toMatch(
      /not available right now; choose a service that is available/,
    );
    expect(conflict('idempotency_conflict').message).toMatch(/already used with a different body/);
    expect(conflict('something_else').message).toMatch(/see the code above/);
    expect(conflict('service_not_available').kind).toBe('conflict');
  });
});
