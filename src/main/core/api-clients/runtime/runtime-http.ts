import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { OutcomeUnknownError, ResponseShapeError } from '../api-errors.js';

/** Reference client defaults of the spec ("Limits"): connect 5 s, total 30 s. */
export const CONNECT_TIMEOUT_MS = 5_000;
export const TOTAL_TIMEOUT_MS = 30_000;
/** A download's time is bounded by progress: it fails when no byte arrives for this long. */
export const DOWNLOAD_IDLE_TIMEOUT_MS = 30_000;
/** JSON answers of the runtime and session service are small; a larger one is refused. */
const MAX_JSON_BYTES = 8 * 1024 * 1024;

export interface HttpAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: IncomingMessage;
}

export interface SendInit {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** `total`: the whole exchange within 30 s; `progress`: a download, bounded by idle time only. */
  bound: 'total' | 'progress';
  connectTimeoutMs?: number;
  totalTimeoutMs?: number;
  /** Aborting ends the exchange at once (before the answer: an unknown outcome; after: the body breaks). */
  signal?: AbortSignal;
}

/**
 * One HTTP request with the spec's reference timeouts, without following redirects (a runtime
 * answer never redirects the credential elsewhere). A failure before an answer was read is an
 * {@link OutcomeUnknownError} naming only the operation and a cause (never the URL or headers).
 */
export function sendHttp(url: string, init: SendInit, operation: string): Promise<HttpAnswer> {
  const target = new URL(url);
  const request = (target.protocol === 'https:' ? https : http).request;
  const connectMs = init.connectTimeoutMs ?? CONNECT_TIMEOUT_MS;
  const totalMs = init.totalTimeoutMs ?? TOTAL_TIMEOUT_MS;
  return new Promise<HttpAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (cause: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      clearTimeout(totalTimer);
      req.destroy();
      reject(new OutcomeUnknownError(operation, cause));
    };
    const req = request(target, { method: init.method, headers: init.headers }, (res) => {
      settled = true;
      clearTimeout(connectTimer);
      if (init.bound === 'progress') {
        clearTimeout(totalTimer);
        res.setTimeout(DOWNLOAD_IDLE_TIMEOUT_MS, () =>
          res.destroy(new OutcomeUnknownError(operation, 'no data for 30 s')),
        );
      } else {
        res.once('close', () => clearTimeout(totalTimer));
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, body: res });
    });
    const connectTimer = setTimeout(() => fail('connect timed out'), connectMs);
    const totalTimer = setTimeout(() => {
      if (!settled) fail('timed out');
      else req.destroy(new OutcomeUnknownError(operation, 'timed out'));
    }, totalMs);
    req.once('socket', (socket) => {
      if (!socket.connecting) clearTimeout(connectTimer);
      else socket.once('connect', () => clearTimeout(connectTimer));
    });
    req.on('error', (error: NodeJS.ErrnoException) => fail(error.code ?? 'connection failed'));
    if (init.signal) {
      const onAbort = () => {
        if (!settled) fail('cancelled');
        else req.destroy(new OutcomeUnknownError(operation, 'cancelled'));
      };
      if (init.signal.aborted) onAbort();
      else {
        init.signal.addEventListener('abort', onAbort, { once: true });
        req.once('close', () => init.signal!.removeEventListener('abort', onAbort));
      }
    }
    req.end(init.body);
  });
}

/** Reads a whole (bounded) answer body as text. */
export async function readText(answer: HttpAnswer, operation: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of answer.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_JSON_BYTES) {
        answer.body.destroy();
        throw new ResponseShapeError(operation, `the answer is larger than ${MAX_JSON_BYTES} bytes`);
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof ResponseShapeError || error instanceof OutcomeUnknownError) throw error;
    throw new OutcomeUnknownError(operation, 'the connection closed while the answer was read');
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function header(answer: HttpAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
