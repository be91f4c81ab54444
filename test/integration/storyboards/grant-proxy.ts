import { forwardingProxy } from '../../support/worlds/forwarding-proxy.js';

/** One `POST …/app-grants` as the session service received it, and what it answered (the proxy saw it). */
export interface SeenIssue {
  body: Record<string, unknown>;
  answer: Record<string, unknown> | undefined;
  dropped: boolean;
}

/**
 * A proxy in front of the session service that forwards everything and, for the first
 * `dropIssues` grant issues, lets the session service answer but drops the answer (the socket is
 * destroyed): what a caller sees when a connection breaks after the request was served.
 */
export async function grantIssueProxy(upstreamBase: string, dropIssues: number) {
  const issues: SeenIssue[] = [];
  let toDrop = dropIssues;
  const proxy = await forwardingProxy(upstreamBase, {
    onResponse: async (answer, request) => {
      if (request.method !== 'POST' || !/\/app-grants$/.test(request.pathname)) return;
      const drop = toDrop > 0;
      if (drop) toDrop -= 1;
      issues.push({
        body: JSON.parse(request.body.toString('utf8')) as Record<string, unknown>,
        answer: parsedOrUndefined((await answer.body()).toString('utf8')),
        dropped: drop,
      });
      return drop ? 'drop' : undefined;
    },
  });
  return Object.assign(proxy, { issues });
}

function parsedOrUndefined(text: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
