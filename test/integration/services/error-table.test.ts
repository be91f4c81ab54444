import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { submitAudio } from '../../../src/main/core/operations/audio-generation.js';
import { chatTurn } from '../../../src/main/core/operations/chat.js';
import { parseDocument } from '../../../src/main/core/operations/document-parse.js';
import { createEmbeddings } from '../../../src/main/core/operations/embeddings.js';
import { submitImage } from '../../../src/main/core/operations/image-generation.js';
import { runOcr } from '../../../src/main/core/operations/ocr.js';
import { rerankDocuments } from '../../../src/main/core/operations/rerank.js';
import { RETRY_POLICIES } from '../../../src/main/core/api-clients/retry/retry.js';
import { transcribeFile } from '../../../src/main/core/operations/transcription.js';
import type { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { makePdf, makePng, makeWav } from '../simulator/fixtures.js';
import { clientWithToken, FetchRecorder, instantClock, openWorld, type ServicesWorld } from './helpers.js';

let world: ServicesWorld;
const recorder = new FetchRecorder();
let png: string;
let pdf: string;
let wav: string;

beforeAll(async () => {
  world = await openWorld();
  recorder.install();
  png = world.file('e.png', makePng(40, 30));
  pdf = world.file('e.pdf', makePdf());
  wav = world.file('e.wav', makeWav(1));
});
afterAll(async () => {
  recorder.uninstall();
  await world.close();
});
afterEach(() => {
  world.sim.setScenario(null);
  recorder.reset();
});

/** Every synchronous operation, as the app calls it, with a given client. */
const operations: Record<string, (client: PublicApiClient) => Promise<unknown>> = {
  embeddings: (c) => createEmbeddings(world.core.journal, c, world.service('vector-embed'), ['hello']),
  rerank: (c) =>
    rerankDocuments(world.core.journal, c, world.service('vector-rerank'), {
      query: 'q',
      documents: ['a', 'b'],
    }),
  chat: (c) => chatTurn(world.core.journal, c, { service: world.service('atlas-chat'), text: 'hi' }),
  ocr: (c) => runOcr(world.core.journal, c, world.service('glyph-ocr'), png),
  transcription: (c) => transcribeFile(world.core.journal, c, world.service('echo-transcribe'), wav),
  parse: (c) =>
    parseDocument(world.core.journal, c, world.service('folio-parse'), pdf, world.core.libraryDir),
};

async function apiErrorOf(run: () => Promise<unknown>): Promise<ApiError> {
  const error = await run().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('the spec error table, for every synchronous operation', () => {
  for (const [name, run] of Object.entries(operations)) {
    it(`${name}: 400 and 402 are reported with their kind and not retried; no idempotency 409 on a call without a key`, async () => {
      world.sim.setScenario('idempotency_conflict');
      await run(world.client);
      for (const [scenario, status, kind] of [
        ['invalid_request', 400, 'invalid_request'],
        ['insufficient_balance', 402, 'balance'],
      ] as const) {
        world.sim.setScenario(scenario);
        recorder.reset();
        const error = await apiErrorOf(() => run(world.client));
        expect([error.status, error.kind]).toEqual([status, kind]);
        expect(error.requestId).toEqual(expect.any(String));
        expect(recorder.calls.filter((c) => c.method === 'POST')).toHaveLength(1);
      }
    });

    it(`${name}: 429 and 503 honour Retry-After with a bound, then report`, async () => {
      for (const [scenario, status, kind] of [
        ['rate_limited', 429, 'rate_limited'],
        ['unavailable', 503, 'unavailable'],
      ] as const) {
        world.sim.setScenario(scenario);
        recorder.reset();
        const clock = instantClock();
        const client = clientWithToken(world.sim, world.sim.token, world.profileId, { clock });
        const error = await apiErrorOf(() => run(client));
        expect([error.status, error.kind]).toEqual([status, kind]);
        expect(error.retryAfterSeconds).toBeGreaterThan(0);
        expect(recorder.calls.filter((c) => c.method === 'POST')).toHaveLength(
          RETRY_POLICIES.syncCall.attempts,
        );
        // each retry waited what the server asked
        expect(clock.waits.length).toBeGreaterThan(0);
        for (const ms of clock.waits) expect(ms).toBeGreaterThanOrEqual(error.retryAfterSeconds! * 1000);
      }
    });

    it(`${name}: 401 for a wrong key`, async () => {
      const error = await apiErrorOf(() => run(clientWithToken(world.sim, 'not-a-key')));
      expect([error.status, error.kind]).toEqual([401, 'identity']);
    });
  }

  it('a recovering 429 succeeds on the retry', async () => {
    world.sim.setScenario('rate_limited');
    const pending = createEmbeddings(world.core.journal, world.client, world.service('vector-embed'), ['x']);
    setTimeout(() => world.sim.setScenario(null), 20);
    expect((await pending).vectors).toHaveLength(1);
  });

  it('404 for an unknown model and for an asset of another identity', async () => {
    const ghost = { ...world.service('vector-embed'), modelAlias: 'no-such-model' };
    expect(
      (await apiErrorOf(() => createEmbeddings(world.core.journal, world.client, ghost, ['x']))).status,
    ).toBe(404);
    // an OCR asset uploaded by this identity is not visible to another one
    const mine = await runOcr(world.core.journal, world.client, world.service('glyph-ocr'), png);
    const other = clientWithToken(world.sim, 'other-identity');
    const response = await other.ocr({ model: 'glyph-ocr', input_image_asset_id: mine.assetId });
    expect(response.status).toBe(404);
  });

  it('413 and 415 from the service are reported as such (a contract looser than the service)', async () => {
    const loose = {
      ...world.service('glyph-ocr'),
      mediaSpecContract: {
        uploadLimits: { input_image: { formats: ['image/png', 'image/gif'], maxBytes: 64 * 1024 * 1024 } },
      },
    };
    const big = world.file('big.png', makePng(16, 16, [9, 9, 9], 17 * 1024 * 1024));
    const tooLarge = await apiErrorOf(() => runOcr(world.core.journal, world.client, loose, big));
    expect([tooLarge.status, tooLarge.kind]).toEqual([413, 'too_large']);
    const gif = world.file(
      'a.gif',
      Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
    );
    const unsupported = await apiErrorOf(() => runOcr(world.core.journal, world.client, loose, gif));
    expect([unsupported.status, unsupported.kind]).toEqual([415, 'unsupported_format']);
  });
});

describe('the spec error table, for asynchronous image and audio jobs', () => {
  // a short wait limit: a Retry-After past it leaves the intent pending at once (resumable)
  const image = (key: string, waitSeconds = 20) =>
    submitImage(world.core, {
      profileId: world.profileId,
      service: world.service('lumen-image'),
      draft: { prompt: `errors ${key}` },
      idempotencyKey: key,
      wait: { waitSeconds },
    });
  const audio = (key: string, waitSeconds = 20) =>
    submitAudio(world.core, {
      profileId: world.profileId,
      service: world.service('cadence-speech'),
      draft: { text: `errors ${key}` },
      idempotencyKey: key,
      wait: { waitSeconds },
    });

  for (const [name, run] of [
    ['image', image],
    ['audio', audio],
  ] as const) {
    it(`${name}: 400, 402 and 409 reject the intent; 429 and 503 stay resumable under the same key; a failed job is failed`, async () => {
      world.sim.setScenario('insufficient_balance');
      expect((await apiErrorOf(() => run(`${name}-402`))).kind).toBe('balance');
      expect(world.core.journal.jobs.getIntent(`${name}-402`)!.state).toBe('rejected');
      world.sim.setScenario('idempotency_conflict');
      expect((await apiErrorOf(() => run(`${name}-409`))).kind).toBe('conflict');
      world.sim.setScenario('invalid_request');
      expect((await apiErrorOf(() => run(`${name}-400`))).kind).toBe('invalid_request');
      expect(world.core.journal.jobs.getIntent(`${name}-400`)!.state).toBe('rejected');
      world.sim.setScenario('unavailable');
      expect((await run(`${name}-503`, 1)).state).toBe('pending');
      expect(world.core.journal.jobs.getIntent(`${name}-503`)!.state).not.toBe('rejected');
      world.sim.setScenario('rate_limited');
      const pending = await run(`${name}-429`, 1);
      expect(pending.state).toBe('pending');
      world.sim.setScenario(null);
      const resumed = await world.core.engine.continueIntent(
        world.core.journal.jobs.getIntent(`${name}-429`)!,
        {
          waitSeconds: 20,
        },
      );
      expect(resumed.state).toBe('succeeded');
      world.sim.setScenario('job_failed');
      const failed = await run(`${name}-failed`);
      expect(failed.state).toBe('failed');
      expect(failed.job?.retryable).toBe(false);
    });
  }
});
