import type { ServerResponse } from 'node:http';
import { ApiError, type ApiErrorOptions } from '../errors.js';
import { sendJson } from '../http.js';

/**
 * An error of the platform surfaces: `code`, `message`, the request id and, where they apply,
 * `phase`, `retryable`, `traceId` and `details` (the spec's runtime error body; session errors
 * carry the same fields).
 */
export class PlatformError extends ApiError {
  readonly phase: string | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: ApiErrorOptions & { phase?: string } = {},
  ) {
    super(status, code, message, options);
    this.name = 'PlatformError';
    this.phase = options.phase;
  }
}

export interface PlatformErrorBody {
  code: string;
  message: string;
  requestId: string;
  traceId: string;
  retryable: boolean;
  phase?: string;
  details?: Record<string, unknown>;
}

/** The trace id of a request (derived from the request id so both can be quoted in a report). */
export function traceIdOf(requestId: string): string {
  return 'trace_' + requestId.replace(/^req_/, '');
}

export function platformErrorBody(error: ApiError, requestId: string): PlatformErrorBody {
  const body: PlatformErrorBody = {
    code: error.code,
    message: error.message,
    requestId,
    traceId: traceIdOf(requestId),
    retryable: error.retryable,
  };
  if (error instanceof PlatformError && error.phase) body.phase = error.phase;
  if (error.details !== undefined) body.details = error.details;
  return body;
}

export function sendPlatformError(res: ServerResponse, error: ApiError, requestId: string): void {
  sendJson(res, error.status, platformErrorBody(error, requestId), error.headers);
}

/** 400 `INVALID_REQUEST` of the session service (bad body, unknown field). */
export function invalidSessionRequest(message: string, details?: Record<string, unknown>): PlatformError {
  return new PlatformError(400, 'INVALID_REQUEST', message, { details });
}

/** The uniform 404 of a session that does not resolve (unknown, expired, revoked, other application). */
export function sessionNotFound(): PlatformError {
  return new PlatformError(
    404,
    'RUNTIME_SESSION_NOT_FOUND',
    'No usable runtime session with this id exists for this application.',
  );
}
