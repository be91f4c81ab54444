import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runtimePlaygroundCalls } from '../../../src/main/core/backends/platform-runtime/runtime-playground-calls.js';
import type { PlaygroundCalls } from '../../../src/main/core/backends/playground-calls.js';
import { chooseService, SERVICE_KINDS } from '../../../src/main/core/operations/service-common.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import type { RuntimeCreateStep } from '../../support/runtime-proxy.js';
import { PROFILE } from '../runtime/runtime-world.js';
import { RuntimeCallsWorld } from './runtime-calls-world.js';

/**
 * The Playground's billed synchronous calls on the platform's runtime: an answer lost to a 500 or
 * a dropped connection is recorded and reported, never sent again; each call works with a result
 * (media travels as signed readUrls of the person's storage; the chat's reply streams).
 */
const SYNC_PATHS = /\/(chat\/completions|embeddings|rerank|ocr|audio\/transcriptions)$/;
let mode: RuntimeCreateStep = 'pass';
let rig: RuntimeCallsWorld;
let calls: Omit<PlaygroundCalls, 'parse'>;
const fixtures = mediaFixtures();

beforeAll(async () => {
  rig = new RuntimeCallsWorld(
    () => mode,
    (method, pathname) => method === 'POST' && SYNC_PATHS.test(pathname),
  );
  await rig.start();
  calls = runtimePlaygroundCalls({
    journal: rig.world.journal,
    client: rig.world.client,
    session: rig.session,
    readUrls: rig.readUrls,
    profileId: PROFILE,
  });
});
afterAll(async () => {
  await rig?.close();
});

const serviceOf = async (kinds: readonly string[]) => chooseService(await rig.services(), kinds);
const sentTo = (suffix: string) => rig.proxy.sent.filter((s) => s.path.endsWith(suffix));
const lastRow = () => rig.world.journal.serviceCalls.list({ profileId: PROFILE }).items[0]!;
const SERVER_ERROR: RuntimeCreateStep = {
  status: 500,
  body: { code: 'internal_error', message: 'The service failed.', retryable: true },
};

describe('billed runtime calls are never sent again', () => {
  it('embeddings answered 500: sent once, recorded failed, a plain error', async () => {
    mode = SERVER_ERROR;
    const service = await serviceOf(SERVICE_KINDS.embeddings);
    const error = (await calls.embed(service, ['one text', 'another']).catch((e: unknown) => e)) as Error;
    expect(error).toMatchObject({ status: 500, message: expect.stringContaining('The service failed.') });
    expect(error.message).not.toContain(rig.world.sessionId!);
    expect(sentTo('/embeddings')).toHaveLength(1);
    const row = lastRow();
    expect(row).toMatchObject({ operation: 'embeddings', state: 'failed', statusCode: 500 });
    expect(JSON.stringify(row.request)).not.toContain('one text');
  });

  it('OCR answered 500: sent once, recorded failed', async () => {
    mode = SERVER_ERROR;
    const service = await serviceOf(SERVICE_KINDS.ocr);
    await expect(calls.ocr(service, fixtures.firstPng)).rejects.toMatchObject({ status: 500 });
    expect(sentTo('/ocr')).toHaveLength(1);
    expect(lastRow()).toMatchObject({ operation: 'ocr', state: 'failed', statusCode: 500 });
  });

  it('transcription whose answer is lost after the runtime did it: sent once, recorded unknown', async () => {
    mode = 'drop';
    const service = await serviceOf(SERVICE_KINDS.transcription);
    await expect(calls.transcribe(service, fixtures.audioWav)).rejects.toMatchObject({
      name: 'OutcomeUnknownError',
    });
    expect(sentTo('/audio/transcriptions')).toHaveLength(1);
    expect(lastRow()).toMatchObject({ operation: 'transcription', state: 'unknown' });
  });
});

describe('each runtime call gives a result', () => {
  it('embeddings, rerank, OCR and transcription', async () => {
    mode = 'pass';
    const embedded = await calls.embed(await serviceOf(SERVICE_KINDS.embeddings), ['a cat', 'a dog']);
    expect(embedded.vectors).toHaveLength(2);
    expect(embedded.similarity[0]![0]).toBe(1);

    const ranked = await calls.rerank(await serviceOf(SERVICE_KINDS.rerank), {
      query: 'kites',
      documents: ['a kite over dunes', 'a tax form', 'kites and wind'],
    });
    expect(ranked.results.length).toBeGreaterThan(0);

    const read = await calls.ocr(await serviceOf(SERVICE_KINDS.ocr), fixtures.firstPng);
    expect(typeof read.raw).toBe('object');
    expect(read.assetId).toMatch(/^[0-9a-f]{64}$/);
    const ocrBody = JSON.parse(sentTo('/ocr').at(-1)!.body) as { inputs: Record<string, unknown>[] };
    expect(ocrBody.inputs).toEqual([
      expect.objectContaining({ mimeType: 'image/png', readUrl: expect.stringContaining('/objects/') }),
    ]);

    const heard = await calls.transcribe(await serviceOf(SERVICE_KINDS.transcription), fixtures.audioWav);
    expect(typeof heard.response.text).toBe('string');
    expect(heard.exports.txt.length).toBeGreaterThan(0);

    const rows = rig.world.journal.serviceCalls.list({ profileId: PROFILE }).items.slice(0, 4);
    expect(rows.map((r) => [r.operation, r.state])).toEqual([
      ['transcription', 'succeeded'],
      ['ocr', 'succeeded'],
      ['rerank', 'succeeded'],
      ['embeddings', 'succeeded'],
    ]);
  });

  it('a chat with an attached image, its reply streamed, saved as a conversation', async () => {
    mode = 'pass';
    const services = await rig.services();
    const vision = services.find((s) => s.serviceKind === 'vision_chat')!;
    const tokens: string[] = [];
    const turn = await calls.chat({
      service: vision,
      text: 'What is in this picture?',
      attachments: [{ filePath: fixtures.firstPng }],
      onToken: (token) => tokens.push(token),
    });
    expect(tokens.length).toBeGreaterThan(1);
    expect(turn.assistant.text).toBe(tokens.join(''));
    expect(turn.assistant.text).toContain('1 attached media item');
    const sent = JSON.parse(sentTo('/chat/completions').at(-1)!.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(sent.stream).toBe(true);
    expect(sent.inputs).toHaveLength(1);
    expect(sent.inputs[0].readUrl).toContain('/objects/');
    expect(sent.messages.at(-1)).toEqual({ role: 'user', content: 'What is in this picture?' });

    // the conversation continues: the earlier turn travels as text
    const next = await calls.chat({
      service: vision,
      conversationId: turn.conversation.id,
      text: 'And now?',
    });
    expect(next.assistant.text).toContain('The conversation has 3 messages');
  });

  it('a chat image asked inline is refused before anything is stored or sent: the runtime takes media only in inputs', async () => {
    mode = 'pass';
    const vision = (await rig.services()).find((s) => s.serviceKind === 'vision_chat')!;
    const before = sentTo('/chat/completions').length;
    const conversations = rig.world.journal.conversations.list({ profileId: PROFILE }).length;
    await expect(
      calls.chat({
        service: vision,
        text: 'What is in this picture?',
        attachments: [{ filePath: fixtures.firstPng, inline: true }],
      }),
    ).rejects.toMatchObject({ name: 'InputLimitError', message: expect.stringContaining('inline') });
    expect(sentTo('/chat/completions')).toHaveLength(before);
    expect(rig.world.journal.conversations.list({ profileId: PROFILE })).toHaveLength(conversations);
  });
});
