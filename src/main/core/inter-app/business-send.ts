import { OutcomeUnknownError } from '../api-clients/api-errors.js';
import { APP_GRANT_HEADER, type GrantChannel } from './grant-channel.js';
import type { FetchLike } from './debug-grant-issuer.js';

/** A business answer larger than this is refused (board answers are small JSON; the relay caps at 16 MiB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
const SEND_TIMEOUT_MS = 30_000;

/**
 * One business request of any channel, sent once (no retry, no redirect followed): the grant in
 * `X-Platform-App-Grant`, the exact body bytes, and only the extra headers the channel names (the
 * relay's CLI Bearer; nothing in production or for a local peer). A lost or oversized answer is an outcome
 * unknown: the caller decides whether the action may be asked again.
 */
export async function sendWithGrant(
  url: string,
  input: Parameters<GrantChannel['send']>[0],
  options: { appLabel: string; extraHeaders?: Record<string, string>; fetch?: FetchLike },
): ReturnType<GrantChannel['send']> {
  const headers: Record<string, string> = {
    ...options.extraHeaders,
    [APP_GRANT_HEADER]: input.grant,
    accept: 'application/json',
  };
  if (input.body) headers['content-type'] = 'application/json';
  const operation = `${options.appLabel} ${input.method}`;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: input.method,
      headers,
      ...(input.body ? { body: new Uint8Array(input.body) } : {}),
      redirect: 'manual',
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch {
    throw new OutcomeUnknownError(operation, 'the connection failed');
  }
  if (Number(response.headers.get('content-length') ?? '0') > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new OutcomeUnknownError(operation, 'the answer is too large');
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(await response.arrayBuffer());
  } catch {
    throw new OutcomeUnknownError(operation, 'the answer was cut');
  }
  if (bytes.length > MAX_ANSWER_BYTES) throw new OutcomeUnknownError(operation, 'the answer is too large');
  return { status: response.status, headers: response.headers, body: bytes };
}

/** A business path as the channels take it: absolute (`/boards`), no scheme, no dot segment. */
export function checkedBusinessPath(path: string): string {
  if (!path.startsWith('/') || path.startsWith('//') || /(^|\/)\.\.?(\/|$|\?)/.test(path))
    throw new Error(`Not a business path: ${path}`);
  return path;
}
