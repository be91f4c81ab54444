import { ApiError } from '../api-errors.js';
import { readJsonBody } from '../read-json-body.js';
import { parseJsonOrUndefined } from '../capped-body.js';
import { parseRetryAfter, retryAfterHint } from '../retry/retry-after.js';
import { redactValue } from '../../secrets/redact-value.js';
import type { z } from 'zod';
import { RuntimeErrorBody } from './runtime-schemas.js';
import { header, readText, type HttpAnswer } from './runtime-http.js';

/**
 * An error answer of the runtime or the session service: an {@link ApiError} (so the one retry
 * module classifies it by status and `Retry-After`) that also keeps the spec's `phase`.
 */
export class RuntimeApiError extends ApiError {
  readonly phase: string | undefined;
  constructor(init: ConstructorParameters<typeof ApiError>[0] & { phase?: string }) {
    super(init);
    this.name = 'RuntimeApiError';
    this.phase = init.phase;
  }
}

/** Builds the error of an answer whose status is not 2xx; every secret is removed from its text. */
export async function runtimeErrorFrom(
  answer: HttpAnswer,
  operation: string,
  secrets: readonly string[],
): Promise<RuntimeApiError> {
  const text = redactValue(await readText(answer, operation).catch(() => ''), secrets);
  return runtimeErrorOf(answer.status, header(answer, 'retry-after'), text, operation);
}

/**
 * The error of a runtime answer already read (status, `Retry-After` header, body text with its
 * secrets removed): the runtime's `{code, message, phase, retryable, requestId, details}` body, or
 * `unrecognised_error_body` with the status kept.
 */
export function runtimeErrorOf(
  status: number,
  retryAfter: string | null | undefined,
  text: string,
  operation: string,
): RuntimeApiError {
  const body = parseJsonOrUndefined(text);
  const retryAfterSeconds = parseRetryAfter(retryAfter ?? undefined) ?? retryAfterHint(body);
  const parsed = RuntimeErrorBody.safeParse(body);
  if (parsed.success) {
    return new RuntimeApiError({
      status,
      apiCode: parsed.data.code,
      message: parsed.data.message,
      requestId: parsed.data.requestId,
      retryable: parsed.data.retryable ?? (status === 429 || status >= 500),
      retryAfterSeconds,
      details: parsed.data.details,
      phase: parsed.data.phase,
    });
  }
  return new RuntimeApiError({
    status,
    apiCode: 'unrecognised_error_body',
    message: `${operation}: HTTP ${status} without a valid error body`,
    retryable: status === 429 || status >= 500,
    retryAfterSeconds,
  });
}

/** Parses a 2xx JSON answer against its schema, secrets removed from every string in it. */
export async function parseAnswer<S extends z.ZodType>(
  text: string,
  schema: S,
  operation: string,
  secrets: readonly string[],
): Promise<z.output<S>> {
  return redactValue(await readJsonBody(new Response(text), schema, operation), secrets);
}

/** Removes secrets from an error's message and details before it leaves the client. */
export function scrubError(error: unknown, secrets: readonly string[]): unknown {
  if (error instanceof Error) {
    error.message = redactValue(error.message, secrets);
    const details = (error as { details?: unknown }).details;
    if (details !== undefined)
      Object.defineProperty(error, 'details', { value: redactValue(details, secrets) });
  }
  return error;
}
