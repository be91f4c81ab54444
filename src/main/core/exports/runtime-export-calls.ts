import { Readable } from 'node:stream';
import type { RuntimeApiClient, RuntimeStream } from '../api-clients/runtime/runtime-api-client.js';
import { sessionAuth } from '../api-clients/runtime/runtime-auth.js';
import type { RuntimeExportCalls } from './marked-export.js';

/** A streamed runtime answer as a fetch `Response` with the headers the export checks. */
function responseOf(stream: RuntimeStream): Response {
  const headers = new Headers();
  if (stream.contentType) headers.set('content-type', stream.contentType);
  if (stream.contentLength) headers.set('content-length', stream.contentLength);
  if (stream.assetVariant) headers.set('x-platform-asset-variant', stream.assetVariant);
  return new Response(Readable.toWeb(stream.body) as ReadableStream<Uint8Array>, {
    status: stream.status,
    headers,
  });
}

function jsonResponse(status: number, body: unknown, retryAfterSeconds: number | undefined): Response {
  const headers = new Headers({ 'content-type': 'application/json' });
  if (retryAfterSeconds !== undefined) headers.set('retry-after', String(retryAfterSeconds));
  return new Response(JSON.stringify(body), { status, headers });
}

/**
 * The export calls of the marked-export feature over the runtime client, as the person's session
 * (read at each call: a renewed session is used at once). The client raises error answers as
 * `RuntimeApiError`s, which the feature handles as it does error `Response`s.
 */
export function runtimeExportCalls(
  client: Pick<RuntimeApiClient, 'createExport' | 'getExport' | 'openExport'>,
  sessionId: () => Promise<string>,
): RuntimeExportCalls {
  return {
    async createExport(body, idempotencyKey) {
      const answer = await client.createExport(
        sessionAuth(await sessionId()),
        body as unknown as Record<string, unknown>,
        idempotencyKey,
      );
      return jsonResponse(answer.httpStatus, answer.body, answer.retryAfterSeconds);
    },
    async readExport(exportId) {
      const answer = await client.getExport(sessionAuth(await sessionId()), exportId);
      return jsonResponse(answer.httpStatus, answer.body, answer.retryAfterSeconds);
    },
    async downloadExport(exportId) {
      return responseOf(await client.openExport(sessionAuth(await sessionId()), exportId));
    },
  };
}
