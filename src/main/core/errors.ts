import type { AppErrorCode } from './error-kinds.js';

/**
 * An error the core means the user to read: a stable `code` for branching and translation,
 * and a `message` that names what to fix. Never carries secrets.
 */
export class AppError extends Error {
  readonly code: AppErrorCode;
  readonly details?: unknown;
  constructor(code: AppErrorCode, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}
