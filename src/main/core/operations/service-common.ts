import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { ServiceCallOperation } from '../journal/service-calls-repository.js';
import { ApiError, apiErrorFromResponse, OutcomeUnknownError } from '../api-clients/api-errors.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { readJsonBody } from '../api-clients/read-json-body.js';
import type { RetryClock } from '../api-clients/retry/retry-after.js';
import { billedCallVerdict, classify, withRetry } from '../api-clients/retry/retry.js';

/**
 * A request that breaks a documented or published limit, found before anything was sent. Its code
 * starts with `usage.` so the CLI answers exit code 2 ("invalid input; nothing was sent").
 */
export class InputLimitError extends AppError {
  readonly field: string;
  constructor(field: string, message: string, details?: unknown) {
    super(`usage.${field.replace(/[^A-Za-z0-9_]/g, '_')}`, message, details);
    this.name = 'InputLimitError';
    this.field = field;
  }
}

// chooseService lives with discovery (video/discovery.ts); re-exported for the callers that import it from here.
export { chooseService } from '../discovery/service-list.js';

/** Service kinds of each playground operation. */
export const SERVICE_KINDS = {
  chat: ['text_chat', 'vision_chat'],
  embeddings: ['embeddings', 'embedding'],
  rerank: ['rerank'],
  ocr: ['ocr'],
  transcription: ['audio_transcription'],
  audio: ['audio_generation'],
  image: ['image_generation'],
  parse: ['document_parse'],
} as const;

/** Reads a JSON answer and validates it against the shared schema. */
export async function readJson<S extends z.ZodType>(
  response: Response,
  schema: S,
  operation: string,
): Promise<z.output<S>> {
  if (!response.ok) throw await apiErrorFromResponse(response);
  return readJsonBody(response, schema, operation);
}

/**
 * Sends a synchronous call by the retry module's `syncCall` row (bounded in attempts and in total
 * wait, `Retry-After` honoured) and returns the first successful answer; an error answer becomes an
 * ApiError. A billed call (the default) is sent again only where a repeat cannot bill twice
 * (`billedCallVerdict`: 429/503 with `Retry-After`, or no byte sent); a 5xx, 408 or lost answer
 * after the request was sent is reported. A read (`read: true`, e.g. the voice list) is also sent
 * again after other 5xx and 408, as any idempotent request.
 */
export async function sendWithRetry(
  send: () => Promise<Response>,
  options: { signal?: AbortSignal; clock?: RetryClock; operation?: string; read?: boolean } = {},
): Promise<Response> {
  return withRetry(
    'syncCall',
    async () => {
      const response = await send();
      if (!response.ok) throw await apiErrorFromResponse(response);
      return response;
    },
    {
      signal: options.signal,
      clock: options.clock,
      classify: options.read ? classify : billedCallVerdict,
      ...(options.operation ? { policy: { label: options.operation } } : {}),
    },
  );
}

/** A validated answer and the service's `X-Request-Id`. */
export interface Answer<T> {
  body: T;
  requestId?: string;
}

/** Reads a JSON answer (see {@link readJson}) with the request id of its headers. */
export async function readAnswer<S extends z.ZodType>(
  response: Response,
  schema: S,
  operation: string,
): Promise<Answer<z.output<S>>> {
  const requestId = response.headers.get('x-request-id') ?? undefined;
  return { body: await readJson(response, schema, operation), requestId };
}

/** What the journal keeps of a billed synchronous call: summaries, never inputs or secrets. */
export interface BilledCall<T> {
  operation: ServiceCallOperation;
  model: string;
  request: Record<string, unknown>;
  summarize(body: T): { response: Record<string, unknown>; usage?: Record<string, unknown> };
}

/**
 * Runs one billed synchronous call with its journal record: the row is committed (`sent`) before
 * `exchange` sends anything, then marked `succeeded` with the answer's summary, `failed` when the
 * service answered with an error (or a body that breaks the contract), or `unknown` when no answer
 * was read. Call only after every local check has passed: a refused input leaves no row. These
 * calls are not replayed; a row left `sent` (the process stopped) or `unknown` is for the user to see.
 */
export async function journaledCall<T>(
  journal: Journal,
  client: { readonly profileId: string },
  call: BilledCall<T>,
  exchange: () => Promise<Answer<T>>,
): Promise<T> {
  const row = journal.serviceCalls.record({
    profileId: client.profileId,
    model: call.model,
    operation: call.operation,
    request: call.request,
  });
  try {
    // the row is on disk before the call is billed (a power cut cannot forget it)
    await journal.durable();
  } catch (error) {
    journal.serviceCalls.markFailed(row.id, {
      errorCode: 'journal.flush_failed',
      errorMessage: `Nothing was sent: the journal could not be written to disk (${(error as Error).message}).`,
    });
    throw error;
  }
  let answer: Answer<T>;
  try {
    answer = await exchange();
  } catch (error) {
    const calls = journal.serviceCalls;
    if (error instanceof ApiError) {
      const failure = {
        statusCode: error.status,
        errorCode: error.apiCode,
        errorMessage: error.serviceMessage,
        requestId: error.requestId,
      };
      // 504: the gateway gave up waiting; the service may still have done (and billed) the work
      if (error.kind === 'gateway_timeout') calls.markUnknown(row.id, failure);
      else calls.markFailed(row.id, failure);
    } else if (error instanceof AppError && !(error instanceof OutcomeUnknownError)) {
      // answered, but not with what the contract promises (or refused to follow a redirect)
      calls.markFailed(row.id, { errorCode: error.code, errorMessage: error.message });
    } else {
      calls.markUnknown(row.id, {
        errorCode: error instanceof AppError ? error.code : undefined,
        errorMessage: error instanceof Error ? error.message : String(error),
      });
    }
    throw error;
  }
  const summary = call.summarize(answer.body);
  journal.serviceCalls.markSucceeded(row.id, { requestId: answer.requestId, ...summary });
  return answer.body;
}

/**
 * One billed synchronous call: `send` (a method of the client) is sent again only on 429/503 with
 * `Retry-After` or when no byte was sent (bounded, see {@link sendWithRetry}) and its answer
 * validated, with the answer's request id.
 */
export async function callAnswer<S extends z.ZodType>(
  client: Pick<PublicApiClient, 'clock'>,
  send: () => Promise<Response>,
  schema: S,
  operation: string,
): Promise<Answer<z.output<S>>> {
  const response = await sendWithRetry(send, { clock: client.clock, operation });
  return readAnswer(response, schema, operation);
}

export { ApiError };
