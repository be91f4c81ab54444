import type { BridgeResponse } from '../../src/shared/bridge/api.js';
import { PLATFORM_CSRF_HEADER } from '../../src/shared/bridge/platform-host-protocol.js';

/** A signed-in page of the platform host: its session cookie and CSRF token. */
export interface SignedInPage {
  cookie: string;
  csrf: string;
}

/**
 * One bridge call as the page makes it (`POST /bridge/invoke` with its cookie, CSRF token and
 * Origin), to the host at `url`; `origin` is the public origin the page was served from (the same
 * unless a TLS proxy stands between). Answers the result; a refusal throws with its code.
 */
export async function platformBridgeCall<T>(
  at: { url: string; origin?: string },
  page: SignedInPage,
  method: string,
  params: unknown = {},
): Promise<T> {
  const res = await fetch(`${at.url}/bridge/invoke`, {
    method: 'POST',
    headers: {
      Origin: at.origin ?? at.url,
      Cookie: page.cookie,
      [PLATFORM_CSRF_HEADER]: page.csrf,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify({ method, params }),
  });
  const answer = (await res.json()) as BridgeResponse<T>;
  if (!answer.ok) throw new Error(`${method}: ${answer.error.code} ${answer.error.message}`);
  return answer.result;
}
