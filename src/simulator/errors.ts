import type { z } from 'zod';

export interface ApiErrorOptions {
  retryable?: boolean;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** An error answered as a PublicError body with the given HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: string, message: string, options: ApiErrorOptions = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryable = options.retryable ?? false;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** 400 with the field that is wrong. */
export function invalidField(
  code: string,
  field: string,
  message: string,
  details: Record<string, unknown> = {},
): ApiError {
  return new ApiError(400, code, message, { details: { field, ...details } });
}

/** 422: the request is well formed but an asset's facts are rejected. */
export function assetRejected(
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): ApiError {
  return new ApiError(422, code, message, { details });
}

/**
 * 404 for anything unknown or not owned (including a wrong model scope). The message is the
 * same in both cases so that ids cannot be enumerated.
 */
export function notFound(what: 'job' | 'asset' | 'voice' | 'route', field?: string): ApiError {
  return new ApiError(
    404,
    `${what}_not_found`,
    `No ${what} with this id is available to this identity and model scope.`,
    {
      details: field ? { field } : undefined,
    },
  );
}

export function modelNotFound(model: string): ApiError {
  return new ApiError(404, 'model_not_found', `No model alias "${model}" is callable by this identity.`, {
    details: { field: 'model' },
  });
}

/** A zod validation failure as 400 `invalid_request` listing every issue. */
export function fromZodError(error: z.ZodError, prefix: (string | number)[] = []): ApiError {
  const issues = error.issues.map((issue) => ({
    path: [...prefix, ...issue.path].map(String).join('.'),
    code: issue.code,
    message: issue.message,
  }));
  const first = issues[0];
  const message = first ? `${first.path || 'body'}: ${first.message}` : 'The request is invalid.';
  return new ApiError(400, 'invalid_request', message, { details: { issues } });
}
