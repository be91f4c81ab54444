/**
 * An error the core means the user to read: a stable `code` for branching and translation,
 * and a `message` that names what to fix. Never carries secrets.
 */
export class AppError extends Error {
  readonly code: string;
  readonly details?: unknown;
  constructor(code: string, message: string, details?: unknown) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.details = details;
  }
}
