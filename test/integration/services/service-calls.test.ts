import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceCall } from '../../../src/main/core/journal/service-calls-repository.js';
import { ApiError, OutcomeUnknownError } from '../../../src/main/core/api-clients/api-errors.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { createEmbeddings } from '../../../src/main/core/operations/embeddings.js';
import { runOcr } from '../../../src/main/core/operations/ocr.js';
import { rerankDocuments } from '../../../src/main/core/operations/rerank.js';
import { InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { transcribeFile } from '../../../src/main/core/operations/transcription.js';
import { makePng, makeWav } from '../simulator/fixtures.js';
import { FetchRecorder, openWorld, type ServicesWorld } from './helpers.js';

let world: ServicesWorld;
const recorder = new FetchRecorder();
let png: string;
let wav: string;

beforeAll(async () => {
  world = await openWorld();
  recorder.install();
  png = world.file('calls.png', makePng(40, 30));
  wav = world.file('calls.wav', makeWav(1));
});
afterAll(async () => {
  recorder.uninstall();
  await world.close();
});
afterEach(() => {
  world.sim.setScenario(null);
  recorder.reset();
});

const allCalls = (): ServiceCall[] => world.core.journal.serviceCalls.list({ limit: 500 }).items;

/** Runs `work` and returns the rows it added to the journal (oldest first). */
async function newRows(work: () => Promise<unknown>): Promise<{ rows: ServiceCall[]; error?: unknown }> {
  const before = new Set(allCalls().map((c) => c.id));
  const error = await work().then(
    () => undefined,
    (e: unknown) => e,
  );
  const rows = allCalls()
    .filter((c) => !before.has(c.id))
    .reverse();
  return { rows, error };
}

const operations = {
  embeddings: () =>
    createEmbeddings(world.core.journal, world.client, world.service('vector-embed'), [
      'a secret-looking sentence that must not be journaled',
      'two',
    ]),
  rerank: () =>
    rerankDocuments(world.core.journal, world.client, world.service('vector-rerank'), {
      query: 'lighthouse',
      documents: ['a lighthouse at dusk', 'a cat', 'a boat'],
    }),
  ocr: () => runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png),
  transcription: () =>
    transcribeFile(world.core.journal, world.client, world.service('echo-transcribe'), wav),
} as const;

describe('billed synchronous calls are journaled', () => {
  for (const [operation, run] of Object.entries(operations)) {
    it(`${operation}: one row, committed before sending, succeeded with the request id`, async () => {
      let seenAtSend: ServiceCall[] | undefined;
      const original = globalThis.fetch;
      globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (!url.includes('/assets') && !url.includes('/services'))
          seenAtSend ??= world.core.journal.serviceCalls.list({ operation: operation as never }).items;
        return original(input, init);
      }) as typeof fetch;
      let outcome;
      try {
        outcome = await newRows(run);
      } finally {
        globalThis.fetch = original;
      }
      expect(outcome.error).toBeUndefined();
      expect(outcome.rows).toHaveLength(1);
      const row = outcome.rows[0]!;
      // the row existed, as `sent`, when the request left
      expect(seenAtSend?.[0]).toMatchObject({ id: row.id, state: 'sent' });
      expect(row).toMatchObject({
        operation,
        profileId: world.profileId,
        state: 'succeeded',
        requestId: expect.stringMatching(/\S/),
      });
      expect(row.finishedAt).toBeGreaterThanOrEqual(row.startedAt);
      expect(row.response).toBeDefined();
    });
  }

  it('keeps summaries, never the texts', async () => {
    const [embed, rerank, ocr, transcription] = (
      ['embeddings', 'rerank', 'ocr', 'transcription'] as const
    ).map((operation) => world.core.journal.serviceCalls.list({ operation, limit: 1 }).items[0]!);
    expect(embed!.request).toEqual({ inputCount: 2, totalCharacters: 55 });
    expect(embed!.response).toMatchObject({ count: 2, dimensions: 256 });
    expect(rerank!.request).toMatchObject({ documentCount: 3, queryCharacters: 10 });
    expect((rerank!.response!.top as unknown[]).length).toBe(3);
    expect(ocr!.request).toMatchObject({ input_image_asset_id: expect.any(String), mimeType: 'image/png' });
    expect(ocr!.response).toMatchObject({ blockCount: expect.any(Number) });
    expect(transcription!.request).toMatchObject({
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      byteSize: readFileSync(wav).length,
    });
    expect(transcription!.response).toMatchObject({ segmentCount: expect.any(Number) });
    const stored = JSON.stringify(allCalls());
    expect(stored).not.toContain('secret-looking');
    expect(stored).not.toContain('lighthouse at dusk');
  });

  it('a locally refused input sends nothing and leaves no row', async () => {
    const refusals = [
      () =>
        createEmbeddings(
          world.core.journal,
          world.client,
          world.service('vector-embed'),
          Array.from({ length: 65 }, (_, i) => `t${i}`),
        ),
      () =>
        rerankDocuments(world.core.journal, world.client, world.service('vector-rerank'), {
          query: 'q',
          documents: [],
        }),
      () => runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png, { pages: 0 }),
      () =>
        transcribeFile(
          world.core.journal,
          world.client,
          world.service('echo-transcribe'),
          world.file('empty.wav', ''),
        ),
    ];
    for (const refuse of refusals) {
      recorder.reset();
      const { rows, error } = await newRows(refuse);
      expect(error).toBeInstanceOf(InputLimitError);
      expect(rows).toEqual([]);
      expect(recorder.sent).toEqual([]);
    }
  });

  it('402 leaves a failed row with the status, code and request id', async () => {
    for (const [operation, run] of Object.entries(operations)) {
      world.sim.setScenario('insufficient_balance');
      const { rows, error } = await newRows(run);
      expect(error, operation).toBeInstanceOf(ApiError);
      expect(rows, operation).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        operation,
        state: 'failed',
        statusCode: 402,
        errorCode: (error as ApiError).apiCode,
        requestId: (error as ApiError).requestId,
      });
      expect(rows[0]!.errorMessage).toEqual(expect.any(String));
    }
  });

  it('504 and a connection that fails before the answer leave the outcome unknown', async () => {
    world.sim.setScenario('gateway_timeout');
    const timedOut = await newRows(operations.embeddings);
    expect(timedOut.error).toBeInstanceOf(ApiError);
    expect(timedOut.rows).toMatchObject([{ state: 'unknown', statusCode: 504 }]);
    world.sim.setScenario(null);

    const broken = new PublicApiClient(
      {
        profileId: world.profileId,
        kind: 'simulator',
        baseUrl: world.sim.baseUrl,
        secret: async () => world.sim.token,
      },
      {
        fetchImpl: (() => Promise.reject(new TypeError('fetch failed'))) as typeof fetch,
      },
    );
    const lost = await newRows(() =>
      createEmbeddings(world.core.journal, broken, world.service('vector-embed'), ['x']),
    );
    expect(lost.error).toBeInstanceOf(OutcomeUnknownError);
    expect(lost.rows).toMatchObject([{ state: 'unknown', errorCode: 'api.outcome_unknown' }]);
  });

  it('no API key is stored in the new table', async () => {
    expect(allCalls().length).toBeGreaterThan(5);
    const cells = world.core.journal.database
      .prepare('SELECT * FROM service_calls')
      .raw()
      .all() as unknown[][];
    for (const row of cells) for (const cell of row) expect(String(cell)).not.toContain(world.sim.token);
  });
});
