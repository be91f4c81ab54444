import type { z } from 'zod';
import type { PublicService } from '../../../shared/api/discovery.js';
import { AppError } from '../errors.js';
import { ApiError, apiErrorFromResponse } from '../platform/api-errors.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import { readJsonBody } from '../platform/read-json-body.js';
import { sleep } from '../jobs/backoff.js';

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

/** The service's free-form `apiUsageContract`, read tolerantly. */
export function usageContract(service: PublicService): Record<string, unknown> {
  return (service.apiUsageContract ?? {}) as Record<string, unknown>;
}

export function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === 'string') ? value : undefined;
}

/**
 * The service named `model` among `kinds` (the spec names some kinds; embeddings, rerank and OCR are
 * picked by their own aliases), or the first available one of those kinds when no model is given.
 */
export function chooseService(
  services: readonly PublicService[],
  kinds: readonly string[],
  model?: string,
): PublicService {
  if (model) {
    const named = services.filter((s) => s.modelAlias === model);
    const match =
      named.find((s) => kinds.includes(s.serviceKind)) ?? (kinds.length === 0 ? named[0] : undefined);
    if (!match) {
      const offered = services
        .filter((s) => kinds.includes(s.serviceKind) && s.available !== false)
        .map((s) => s.modelAlias);
      throw new AppError(
        'service.not_found',
        `No ${kinds.join(' or ')} service "${model}" is visible to this profile.${offered.length ? ` Available: ${offered.join(', ')}.` : ''}`,
      );
    }
    if (match.available === false) {
      throw new AppError(
        'service.unavailable',
        `The service "${model}" is listed but not available right now; choose another.`,
      );
    }
    return match;
  }
  const first = services.find((s) => kinds.includes(s.serviceKind) && s.available !== false);
  if (!first)
    throw new AppError(
      'service.not_found',
      `No available ${kinds.join(' or ')} service is visible to this profile.`,
    );
  return first;
}

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
 * Synchronous calls answered 429 or 503 were not processed: they are tried again after the
 * server's `Retry-After` (capped at `maxDelayMs`), at most `maxAttempts` times in all.
 */
export const SYNC_RETRY = { maxAttempts: 3, maxDelayMs: 8_000 };

/** Sends (again on 429/503, bounded) and returns the first non-retryable answer; errors become ApiError. */
export async function sendWithRetry(
  send: () => Promise<Response>,
  options: { signal?: AbortSignal } = {},
): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await send();
    if (response.ok) return response;
    const error = await apiErrorFromResponse(response);
    const retry =
      (error.kind === 'rate_limited' || error.kind === 'unavailable') && attempt < SYNC_RETRY.maxAttempts;
    if (!retry || options.signal?.aborted) throw error;
    const delay = Math.min(SYNC_RETRY.maxDelayMs, Math.max(200, (error.retryAfterSeconds ?? 1) * 1000));
    await sleep(delay);
  }
}

/** POSTs a JSON body with the profile's key and validates the answer. */
export async function postJson<S extends z.ZodType>(
  client: PublicApiClient,
  path: string,
  body: unknown,
  schema: S,
  operation: string,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<z.output<S>> {
  const response = await sendWithRetry(() =>
    client.send(
      client.url(path),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      },
      operation,
    ),
  );
  return readJson(response, schema, operation);
}

export { ApiError };
