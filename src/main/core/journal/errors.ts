/** Errors of the journal's data layer that callers are expected to handle. */

/** The same idempotency key (or clientRequestId) was recorded for a different request. */
export class IdempotencyConflictError extends Error {
  constructor(
    readonly key: string,
    detail: string,
  ) {
    super(
      `The idempotency key "${key}" is already recorded for a different request (${detail}). A key is never reused for another body; make a new intent.`,
    );
    this.name = 'IdempotencyConflictError';
  }
}

/** A record the caller referred to does not exist. */
export class JournalNotFoundError extends Error {
  constructor(what: string) {
    super(`${what} is not in the journal.`);
    this.name = 'JournalNotFoundError';
  }
}

/** A change that would contradict what the journal already knows (e.g. a terminal job becoming running). */
export class JournalStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JournalStateError';
  }
}
