import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { chatTurn } from '../../../src/main/core/operations/chat.js';
import { parseDocument } from '../../../src/main/core/operations/document-parse.js';
import { createEmbeddings } from '../../../src/main/core/operations/embeddings.js';
import { runOcr } from '../../../src/main/core/operations/ocr.js';
import { rerankDocuments } from '../../../src/main/core/operations/rerank.js';
import { transcribeFile } from '../../../src/main/core/operations/transcription.js';
import type { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { makePdf, makePng, makeWav } from '../simulator/fixtures.js';
import { clientWithToken, instantClock, openWorld, type ServicesWorld } from './helpers.js';

/**
 * A billed synchronous call has no idempotency key: it is sent again only where a repeat cannot
 * bill twice (429/503 with Retry-After, or no byte sent). A 500, 502, 408 or a 503 without
 * Retry-After answered after the request reached the service is reported, not repeated.
 */
let world: ServicesWorld;
let png: string;
let pdf: string;
let wav: string;

beforeAll(async () => {
  world = await openWorld();
  png = world.file('b.png', makePng(40, 30));
  pdf = world.file('b.pdf', makePdf());
  wav = world.file('b.wav', makeWav(1));
});
afterAll(async () => {
  await world.close();
});

const BILLED = /\/(chat\/completions|embeddings|rerank|ocr|audio\/transcriptions|documents\/parse)$/;

const operations: Record<string, (client: PublicApiClient) => Promise<unknown>> = {
  embeddings: (c) => createEmbeddings(world.core.journal, c, world.service('vector-embed'), ['hello']),
  rerank: (c) =>
    rerankDocuments(world.core.journal, c, world.service('vector-rerank'), { query: 'q', documents: ['a'] }),
  chat: (c) => chatTurn(world.core.journal, c, { service: world.service('atlas-chat'), text: 'hi' }),
  ocr: (c) => runOcr(world.core.journal, c, world.service('glyph-ocr'), png),
  transcription: (c) => transcribeFile(world.core.journal, c, world.service('echo-transcribe'), wav),
  parse: (c) =>
    parseDocument(world.core.journal, c, world.service('folio-parse'), pdf, world.core.libraryDir),
};

/**
 * A client whose billed calls reach the simulator (which processes, and would bill, them) and whose
 * answer is then replaced by `status` (with `Retry-After` when given); it counts the billed sends.
 */
function clientAnswering(status: number, retryAfter?: string) {
  const sent = { billed: 0 };
  const clock = instantClock();
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    if ((init?.method ?? 'GET') !== 'POST' || !BILLED.test(url.pathname)) return response;
    sent.billed += 1;
    await response.body?.cancel();
    return new Response(
      JSON.stringify({ code: 'upstream_failed', message: 'failed', requestId: 'req_x', retryable: true }),
      {
        status,
        headers: { 'content-type': 'application/json', ...(retryAfter ? { 'retry-after': retryAfter } : {}) },
      },
    );
  }) as typeof fetch;
  const client = clientWithToken(world.sim, world.sim.token, world.profileId, { clock, fetchImpl });
  return { client, sent, clock };
}

describe('billed synchronous calls are never sent twice after the service received them', () => {
  for (const [name, run] of Object.entries(operations)) {
    it(`${name}: 500, 502, 408 and a 503 without Retry-After are sent once and reported`, async () => {
      for (const status of [500, 502, 408, 503]) {
        const { client, sent } = clientAnswering(status);
        const error = await run(client).catch((e: unknown) => e);
        expect(error, `${name} ${status}`).toBeInstanceOf(ApiError);
        expect((error as ApiError).status).toBe(status);
        expect(sent.billed, `${name} ${status}: sent once`).toBe(1);
      }
    });
  }

  it('a 503 with Retry-After is sent again (the service refused it: nothing was billed)', async () => {
    const { client, sent, clock } = clientAnswering(503, '2');
    const error = await operations.embeddings!(client).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(503);
    expect(sent.billed).toBeGreaterThan(1);
    expect(clock.waits.every((ms) => ms >= 2_000)).toBe(true);
  });

  it('a connection refused before any byte left is sent again', async () => {
    let refused = 0;
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      if ((init?.method ?? 'GET') === 'POST' && BILLED.test(url.pathname) && refused++ === 0)
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      return fetch(input, init);
    }) as typeof fetch;
    const client = clientWithToken(world.sim, world.sim.token, world.profileId, {
      clock: instantClock(),
      fetchImpl,
    });
    const result = (await operations.embeddings!(client)) as { vectors: unknown[] };
    expect(result.vectors).toHaveLength(1);
    expect(refused).toBe(2);
  });
});
