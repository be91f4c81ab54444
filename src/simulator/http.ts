import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { z } from 'zod';
import type { PublicError } from '../shared/api/errors.js';
import { ApiError, fromZodError } from './errors.js';

/** Maximum JSON body accepted (the largest legal JSON bodies, e.g. rerank, are far below this). */
export const MAX_JSON_BYTES = 4 * 1024 * 1024;

export function newRequestId(): string {
  return 'req_' + randomBytes(12).toString('hex');
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('hex')}`;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(payload)),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(payload);
}

export function errorBody(error: ApiError, requestId: string): PublicError {
  const body: PublicError = {
    code: error.code,
    message: error.message,
    requestId,
    retryable: error.retryable,
  };
  if (error.details !== undefined) body.details = error.details;
  return body;
}

export function sendError(res: ServerResponse, error: ApiError, requestId: string): void {
  sendJson(res, error.status, errorBody(error, requestId), error.headers);
}

/** Reads the whole body, answering 413 past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `The request body exceeds ${maxBytes} bytes.`, {
    details: { maxBytes },
  });
}

/** Reads a JSON object body: 415 for another content type, 400 for malformed JSON or a non-object. */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type && !type.startsWith('application/json') && !/\+json\b/.test(type)) {
    throw new ApiError(415, 'unsupported_media_type', 'The body must be application/json.', {
      details: { contentType: type },
    });
  }
  const raw = await readBody(req, MAX_JSON_BYTES);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError(400, 'invalid_request', 'The body must be a JSON object.');
  }
  return parsed as Record<string, unknown>;
}

/** Parses with a zod schema; failures become 400 `invalid_request`. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value);
  if (!result.success) throw fromZodError(result.error);
  return result.data;
}

/** Canonical JSON (sorted keys) used to compare idempotent bodies. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** Visible ASCII (0x21..0x7e), at most `maxBytes` bytes. */
export function isVisibleAscii(value: string, maxBytes: number): boolean {
  return value.length > 0 && value.length <= maxBytes && /^[\x21-\x7e]+$/.test(value);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
