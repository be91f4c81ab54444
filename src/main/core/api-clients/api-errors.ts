import { PublicError } from '../../../shared/api/errors.js';
import { conflictMeaning } from '../../../shared/api/contract-vocabulary.js';
import type { ApiErrorKind } from '../error-kinds.js';
import { AppError } from '../errors.js';
import { MAX_ERROR_BODY_BYTES, parseJsonOrUndefined, readCappedText } from './capped-body.js';
import { parseRetryAfter, retryAfterHint } from './retry/retry-after.js';

/** The kinds are declared with the core's error kinds (`../error-kinds.ts`), the lower module. */
export type { ApiErrorKind };

export function kindForStatus(status: number): ApiErrorKind {
  if (status === 400 || status === 422) return 'invalid_request';
  if (status === 401 || status === 403) return 'identity';
  if (status === 402) return 'balance';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status === 413) return 'too_large';
  if (status === 415) return 'unsupported_format';
  if (status === 429) return 'rate_limited';
  if (status === 504) return 'gateway_timeout';
  if (status >= 500) return 'unavailable';
  return 'invalid_request';
}

const ADVICE: Record<ApiErrorKind, string> = {
  invalid_request: 'Fix the field or file named above and submit again as a new request.',
  identity: 'The key or token was refused: check the profile’s key (or sign in again) for this service.',
  balance:
    'Your balance is too low for this request. Top up the account; Framewright will not switch identity.',
  not_found: 'Not found for this profile and model (it may belong to another key or model, or have expired).',
  conflict: 'The service refused a conflicting request; see the code above.',
  too_large: 'The file is larger than the service accepts.',
  unsupported_format: 'The service does not accept this file format.',
  rate_limited: 'The service is rate limiting; Framewright waits and retries with the same request.',
  unavailable: 'The service is temporarily unavailable; Framewright waits and retries with the same request.',
  gateway_timeout:
    'The service did not answer in time; the outcome is unknown and the same request is replayed.',
};

/** A 409 is advised by its `code` (spec, "Errors": a different action per code). */
const CONFLICT_ADVICE = {
  idempotency_conflict:
    'This request key was already used with a different body; a new request needs a new key (Framewright never does that while a job may exist under the old one).',
  service_not_available: 'This service is not available right now; choose a service that is available.',
  unrecognised: ADVICE.conflict,
} as const;

/**
 * A debug profile's token is a CLI session of one hour on the platform's clock: refused, it has
 * ended there (or was revoked), whatever this computer's clock says, and no key can be checked.
 */
const DEBUG_SESSION_REFUSED_ADVICE =
  'The debug session was refused: it has ended on the platform (its hour is counted by the platform’s clock) or was revoked. Pair again with framewright login --debug (or Settings → Pair for debugging).';

/** Whose credential the request carried: a profile's API key, or a paired debug session's token. */
export type CredentialKind = 'key' | 'debug_session';

function adviceFor(kind: ApiErrorKind, apiCode: string, credential: CredentialKind = 'key'): string {
  if (kind === 'identity' && credential === 'debug_session') return DEBUG_SESSION_REFUSED_ADVICE;
  return kind === 'conflict' ? CONFLICT_ADVICE[conflictMeaning(apiCode)] : ADVICE[kind];
}

/** An HTTP error answer of the service, parsed from its PublicError body. */
export class ApiError extends AppError {
  readonly status: number;
  readonly kind: ApiErrorKind;
  readonly apiCode: string;
  readonly requestId: string | undefined;
  readonly retryable: boolean;
  readonly retryAfterSeconds: number | undefined;

  constructor(init: {
    status: number;
    apiCode: string;
    message: string;
    requestId?: string;
    retryable: boolean;
    retryAfterSeconds?: number;
    details?: unknown;
    /** Whose credential was sent (the advice for a refusal differs): a key by default. */
    credential?: CredentialKind;
  }) {
    const kind = kindForStatus(init.status);
    super(
      `api.${kind}`,
      `${init.message} (HTTP ${init.status}, code ${init.apiCode}${init.requestId ? `, request ${init.requestId}` : ''}). ${adviceFor(kind, init.apiCode, init.credential)}`,
      init.details,
    );
    this.name = 'ApiError';
    this.status = init.status;
    this.kind = kind;
    this.apiCode = init.apiCode;
    this.requestId = init.requestId;
    this.retryable = init.retryable;
    this.retryAfterSeconds = init.retryAfterSeconds;
  }

  /** The service's own message, without our advice. */
  get serviceMessage(): string {
    return this.message.split(' (HTTP ')[0] ?? this.message;
  }
}

/** The request may or may not have reached the service (timeout, reset, dropped connection). */
export class OutcomeUnknownError extends AppError {
  /**
   * The connection failed before the request could leave (refused, no such host, connect timeout):
   * the service saw no byte of it, so even a billed call may be sent again.
   */
  readonly notSent: boolean;
  constructor(operation: string, cause: string, options: { notSent?: boolean } = {}) {
    super(
      'api.outcome_unknown',
      `${operation}: the connection failed before an answer was read (${cause}); the outcome is unknown.`,
    );
    this.name = 'OutcomeUnknownError';
    this.notSent = options.notSent ?? false;
  }
}

/** Network error codes of a connection that was never made: no byte of the request was sent. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a fetch failure happened before the connection existed (so nothing was sent). */
export function failedBeforeSending(error: unknown): boolean {
  const own = (error as { code?: unknown; cause?: { code?: unknown } } | undefined) ?? {};
  const code = typeof own.code === 'string' ? own.code : own.cause?.code;
  return typeof code === 'string' && NOT_CONNECTED.has(code);
}

/** The service answered with a body that does not match the spec: fail loudly and precisely. */
export class ResponseShapeError extends AppError {
  constructor(operation: string, problem: string) {
    super(
      'api.unexpected_response',
      `${operation}: the service's answer does not match the API contract: ${problem}`,
    );
    this.name = 'ResponseShapeError';
  }
}

/** A URL points to another origin than the profile's; the key is never sent there. */
export class ForeignOriginError extends AppError {
  /** `returned`: a `jobUrl`/`contentUrl` the service gave; else a request or redirect target. */
  constructor(url: string, expectedOrigin: string, source: 'request' | 'returned' = 'request') {
    const origin = new URL(url).origin;
    super(
      'api.foreign_origin',
      source === 'returned'
        ? `The service returned a URL on ${origin}, which is not the profile's origin ${expectedOrigin}: Framewright never sends the profile's key to another origin, so it was not read. Check the profile's base URL.`
        : `Refused to send credentials to ${origin}: only ${expectedOrigin} (the profile's origin) receives the key.`,
      { origin, profileOrigin: expectedOrigin },
    );
    this.name = 'ForeignOriginError';
  }
}

/** Builds an ApiError from an error response; a body that is not a PublicError still gives a clear error. */
export async function apiErrorFromResponse(
  response: Response,
  credential: CredentialKind = 'key',
): Promise<ApiError> {
  const header = parseRetryAfter(response.headers.get('retry-after'));
  // an error body past the bound is not read further: the status still decides what happens
  const text = await readCappedText(response, MAX_ERROR_BODY_BYTES).catch(() => '');
  const body = parseJsonOrUndefined(text);
  // the header decides; a hint in the body counts only when there is no header
  const retryAfterSeconds = header ?? retryAfterHint(body);
  const parsed = PublicError.safeParse(body);
  if (parsed.success) {
    return new ApiError({
      status: response.status,
      apiCode: parsed.data.code,
      message: parsed.data.message,
      requestId: parsed.data.requestId,
      retryable: parsed.data.retryable,
      retryAfterSeconds,
      details: parsed.data.details,
      credential,
    });
  }
  return new ApiError({
    status: response.status,
    apiCode: 'unrecognised_error_body',
    message: `The service answered HTTP ${response.status} without a valid error body`,
    retryable: response.status === 429 || response.status >= 500,
    retryAfterSeconds,
    credential,
  });
}
