import type { RequestContext } from './context.js';
import { ApiError } from './errors.js';
import { isVisibleAscii } from './http.js';

export function headerValue(rc: RequestContext, name: string): string | undefined {
  const value = rc.req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/** Optional `X-Client-Request-Id`: visible ASCII, at most 512 bytes; never replaces the server `requestId`. */
export function checkClientRequestIdHeader(rc: RequestContext): string | undefined {
  const text = headerValue(rc, 'x-client-request-id');
  if (text === undefined) return undefined;
  if (!isVisibleAscii(text, 512)) {
    throw new ApiError(
      400,
      'invalid_client_request_id',
      'X-Client-Request-Id must be visible ASCII of at most 512 bytes.',
      {
        details: { header: 'X-Client-Request-Id' },
      },
    );
  }
  return text;
}
