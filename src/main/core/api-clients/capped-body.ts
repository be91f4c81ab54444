import { AppError } from '../errors.js';

/**
 * Bounds on what Framewright reads into memory from the service, counted after decompression
 * (fetch inflates gzip/deflate/br as it streams, so a compression bomb is stopped at the bound,
 * never inflated whole).
 */
/** A JSON answer (discovery, jobs, synchronous results): 16 MiB. */
export const MAX_JSON_BODY_BYTES = 16 * 1024 * 1024;
/** An error answer (PublicError): 1 MiB; past it the status still decides, the body is ignored. */
export const MAX_ERROR_BODY_BYTES = 1024 * 1024;
/** One server-sent event of a streamed chat reply: 1 MiB. */
export const MAX_SSE_EVENT_BYTES = 1024 * 1024;

/** An answer larger than Framewright reads: refused, not read further. */
export class BodyTooLargeError extends AppError {
  readonly limitBytes: number;
  constructor(operation: string, limitBytes: number, what = 'answer') {
    super(
      'api.body_too_large',
      `${operation}: the service's ${what} is larger than ${formatBytes(limitBytes)} once decompressed; Framewright refused it and stopped reading.`,
      { limitBytes },
    );
    this.name = 'BodyTooLargeError';
    this.limitBytes = limitBytes;
  }
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/**
 * Reads a response's (decompressed) body as text, stopping and cancelling the stream as soon as
 * more than `limitBytes` arrived.
 */
export async function readCappedText(
  response: Response,
  limitBytes: number,
  operation = 'Read answer',
): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError(operation, limitBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
