import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exitCodeFor } from '../../../src/cli/cli-context.js';
import { EXIT_CODE_FOR_ERROR_KIND, ExitCode } from '../../../src/cli/exit-codes.js';
import { ERROR_CODE_KINDS, errorKindOf, type ErrorKind } from '../../../src/main/core/error-kinds.js';
import { AppError } from '../../../src/main/core/errors.js';
import { ApiError, OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import { SecretStoreError } from '../../../src/main/core/secrets/secret-store.js';
import { InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { DraftInvalidError } from '../../../src/shared/h3/violations.js';

function apiError(status: number, apiCode = 'some_code'): ApiError {
  return new ApiError({ status, apiCode, message: 'refused', requestId: 'req_1', retryable: false });
}

describe('exit codes from typed error kinds', () => {
  it('maps each kind to the code docs/cli.md documents for it', () => {
    const doc = readFileSync(path.join(__dirname, '../../../docs/cli.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## CLI exit codes'));
    const documented = new Map(
      [...section.matchAll(/^\| (\d) \| (.+) \|$/gm)].map((m) => [Number(m[1]), m[2]] as const),
    );
    const expected: Record<ErrorKind, RegExp> = {
      invalid_input: /^invalid input; nothing was sent/,
      identity: /^identity rejected/,
      balance: /^insufficient balance/,
      job_failed: /^the job failed/,
      service: /^any other service or network error/,
    };
    for (const [kind, meaning] of Object.entries(expected) as [ErrorKind, RegExp][]) {
      expect(documented.get(EXIT_CODE_FOR_ERROR_KIND[kind]), kind).toMatch(meaning);
    }
  });

  it('answers the service’s refusals by what the user must do', () => {
    expect(exitCodeFor(apiError(400))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(apiError(422))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(apiError(413))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(apiError(415))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(apiError(401))).toBe(ExitCode.identity);
    expect(exitCodeFor(apiError(403))).toBe(ExitCode.identity);
    expect(exitCodeFor(apiError(402))).toBe(ExitCode.balance);
    for (const status of [404, 409, 429, 500, 503, 504])
      expect(exitCodeFor(apiError(status)), String(status)).toBe(ExitCode.serviceError);
    expect(exitCodeFor(new OutcomeUnknownError('create', 'reset'))).toBe(ExitCode.serviceError);
  });

  it('keeps a refusal’s kind when a step re-throws it under the same code (an upload refused with 401)', () => {
    const refused = apiError(401);
    const rethrown = new AppError(refused.code, `photo.png: ${refused.message}`);
    expect(exitCodeFor(rethrown)).toBe(ExitCode.identity);
  });

  it('answers local failures by the table', () => {
    expect(exitCodeFor(new DraftInvalidError([]))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new InputLimitError('top_n', 'too many'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new AppError('usage', 'bad flag'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new AppError('file.not_found', 'no file'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new AppError('job.idempotency_conflict', 'reused key'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new AppError('profile.no_key', 'no key'))).toBe(ExitCode.identity);
    expect(exitCodeFor(new AppError('profile.debug_token_expired', 'expired'))).toBe(ExitCode.identity);
    expect(exitCodeFor(new AppError('job.rejected', 'refused earlier'))).toBe(ExitCode.jobFailed);
    expect(exitCodeFor(new AppError('download.failed', 'gone'))).toBe(ExitCode.serviceError);
    expect(exitCodeFor(new SecretStoreError('invalid-secret', 'empty key'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new SecretStoreError('unavailable', 'no keychain'))).toBe(ExitCode.serviceError);
    expect(exitCodeFor(new RangeError('out of range'))).toBe(ExitCode.invalidInput);
    expect(exitCodeFor(new Error('bug'))).toBe(ExitCode.serviceError);
    expect(exitCodeFor('thrown string')).toBe(ExitCode.serviceError);
  });

  it('never takes a code from outside the table (an untyped cast) for invalid input', () => {
    expect(ERROR_CODE_KINDS).not.toHaveProperty('made.up');
    expect(errorKindOf(new AppError('made.up' as never, 'x'))).toBe('service');
  });
});
