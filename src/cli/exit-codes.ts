import type { ErrorKind } from '../main/core/error-kinds.js';

/** Exit codes of every `framewright` command (documented in docs/cli.md, "CLI exit codes"). */
export const ExitCode = {
  /** The command (or job) succeeded. */
  ok: 0,
  /** The job failed (status `failed`). */
  jobFailed: 1,
  /** Invalid input: nothing was sent. */
  invalidInput: 2,
  /** Identity rejected (401/403). */
  identity: 3,
  /** Insufficient balance (402). */
  balance: 4,
  /** The wait limit passed; the job is still pending and resumable. */
  waitLimit: 5,
  /** Any other service or network error. */
  serviceError: 6,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** The exit code of each kind of error (see docs/cli.md, "CLI exit codes"). */
export const EXIT_CODE_FOR_ERROR_KIND = {
  invalid_input: ExitCode.invalidInput,
  identity: ExitCode.identity,
  balance: ExitCode.balance,
  job_failed: ExitCode.jobFailed,
  service: ExitCode.serviceError,
} as const satisfies Record<ErrorKind, ExitCode>;
