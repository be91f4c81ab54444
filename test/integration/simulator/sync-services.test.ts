import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatCompletionChunk, ChatCompletionResponse } from '../../../src/shared/api/chat.js';
import { EmbeddingsResponse } from '../../../src/shared/api/embeddings.js';
import { RerankResponse } from '../../../src/shared/api/rerank.js';
import { TranscriptionResponse } from '../../../src/shared/api/transcription.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { expectError, H3_BASE, startTestSimulator, type TestClient } from './client.js';
import { astral, makePdf, makePng, makeWav, removeScratch } from './fixtures.js';

let sim: RunningSimulator;
let client: TestClient;
let other: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ tokens: ['other-identity'] }));
  other = client.as('other-identity');
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

describe('chat', () => {
  const messages = [{ role: 'user', content: 'Describe a lighthouse.' }];

  it('answers a deterministic completion', async () => {
    const a = await client.post('/chat/completions', { model: 'atlas-chat', messages });
    expect(a.status).toBe(200);
    const body = ChatCompletionResponse.parse(a.data);
    expect(body.choices[0]!.message.content).toContain('Describe a lighthouse.');
    expect(body.choices[0]!.finish_reason).toBe('stop');
    expect(body.usage).toMatchObject({ total_tokens: expect.any(Number) });
    const b = await client.post('/chat/completions', { model: 'atlas-chat', messages });
    expect(b.data.choices[0].message.content).toBe(body.choices[0]!.message.content);
  });

  it('streams token by token as server-sent events ending with [DONE]', async () => {
    const res = await fetch(client.baseUrl + '/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'atlas-chat', messages, stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text();
    const events = text.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => ChatCompletionChunk.parse(JSON.parse(e.slice(6))));
    expect(chunks[0]!.choices[0]!.delta.role).toBe('assistant');
    const content = chunks.map((c) => c.choices[0]!.delta.content ?? '').join('');
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    const whole = await client.post('/chat/completions', { model: 'atlas-chat', messages });
    expect(content).toBe(whole.data.choices[0].message.content);
  });

  it('accepts only the sampling fields the contract allows', async () => {
    expect(
      (
        await client.post('/chat/completions', {
          model: 'atlas-chat',
          messages,
          temperature: 0.2,
          max_tokens: 50,
        })
      ).status,
    ).toBe(200);
    expectError(
      await client.post('/chat/completions', { model: 'atlas-chat', messages, seed: 3 }),
      400,
      'sampling_field_not_allowed',
    );
    expectError(
      await client.post('/chat/completions', { model: 'atlas-vision', messages, top_p: 0.5 }),
      400,
      'sampling_field_not_allowed',
    );
  });

  it('vision parts must be platform asset URLs of the caller (or inline images); external URLs are rejected', async () => {
    const id = await client.uploadId('atlas-vision', makePng(24, 24));
    const url = `${client.baseUrl}/assets/${id}/content?model=atlas-vision`;
    const part = (u: string) => [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: u } },
        ],
      },
    ];
    const ok = await client.post('/chat/completions', { model: 'atlas-vision', messages: part(url) });
    expect(ok.status).toBe(200);
    expect(ok.data.choices[0].message.content).toContain('1 attached media item');
    expect(
      (
        await client.post('/chat/completions', {
          model: 'atlas-vision',
          messages: part('data:image/png;base64,iVBORw0KGgo='),
        })
      ).status,
    ).toBe(200);
    expectError(
      await client.post('/chat/completions', {
        model: 'atlas-vision',
        messages: part('https://example.com/cat.png'),
      }),
      400,
      'external_url_rejected',
    );
    expectError(
      await other.post('/chat/completions', { model: 'atlas-vision', messages: part(url) }),
      404,
      'asset_not_found',
    );
    expectError(
      await client.post('/chat/completions', { model: 'atlas-chat', messages: part(url) }),
      400,
      'content_part_not_supported',
    );
    expectError(
      await client.post('/chat/completions', { model: 'atlas-chat', messages: [] }),
      400,
      'invalid_request',
    );
    expectError(
      await client.post('/chat/completions', {
        model: 'atlas-chat',
        messages: [{ role: 'robot', content: 'x' }],
      }),
      400,
      'invalid_request',
    );
    expectError(
      await client.post('/chat/completions', { model: 'atlas-chat-large', messages }),
      409,
      'service_not_available',
    );
  });
});

describe('embeddings', () => {
  it('returns deterministic unit vectors, one per input', async () => {
    const res = await client.post('/embeddings', {
      model: 'vector-embed',
      input: ['alpha', 'beta', 'alpha'],
    });
    const body = EmbeddingsResponse.parse(res.data);
    expect(body.data.map((d) => d.index)).toEqual([0, 1, 2]);
    for (const item of body.data) expect(Math.hypot(...item.embedding)).toBeCloseTo(1, 9);
    expect(body.data[0]!.embedding).toEqual(body.data[2]!.embedding);
    expect(body.data[0]!.embedding).not.toEqual(body.data[1]!.embedding);
    const single = EmbeddingsResponse.parse(
      (await client.post('/embeddings', { model: 'vector-embed', input: 'alpha' })).data,
    );
    expect(single.data[0]!.embedding).toEqual(body.data[0]!.embedding);
  });

  it('limits: 1..64 items, each 1..8192 code points, non-empty after trimming', async () => {
    const post = (input: unknown) => client.post('/embeddings', { model: 'vector-embed', input });
    expect((await post(Array.from({ length: 64 }, (_, i) => `t${i}`))).status).toBe(200);
    expectError(await post(Array.from({ length: 65 }, (_, i) => `t${i}`)), 400, 'invalid_request');
    expectError(await post([]), 400, 'invalid_request');
    expect((await post(astral(8192))).status).toBe(200);
    expectError(await post(astral(8193)), 400, 'invalid_request');
    expectError(await post(['ok', astral(8193)]), 400, 'invalid_request');
    expectError(await post('   '), 400, 'invalid_request');
    expectError(await post(['ok', '']), 400, 'invalid_request');
    expectError(
      await client.post('/embeddings', { model: 'vector-rerank', input: 'x' }),
      400,
      'model_not_supported',
    );
  });
});

describe('rerank', () => {
  const documents = [
    'The lighthouse keeper climbs the tower',
    'A recipe for bread',
    'Lighthouse beams sweep the night sea near the lighthouse',
  ];

  it('scores by real lexical relevance, best first; top_n when supported', async () => {
    const res = await client.post('/rerank', {
      model: 'vector-rerank',
      query: 'lighthouse at night',
      documents,
    });
    const body = RerankResponse.parse(res.data);
    expect(body.results.map((r) => r.index)).toEqual([2, 0, 1]);
    expect(body.results[2]!.relevance_score).toBe(0);
    expect(body.results[0]!.relevance_score).toBeGreaterThan(body.results[1]!.relevance_score);
    expect(body.results[0]!.document).toEqual({ text: documents[2] });
    const top = RerankResponse.parse(
      (await client.post('/rerank', { model: 'vector-rerank', query: 'lighthouse', documents, top_n: 1 }))
        .data,
    );
    expect(top.results).toHaveLength(1);
    expectError(
      await client.post('/rerank', { model: 'vector-rerank', query: 'x', documents, top_n: 0 }),
      400,
      'invalid_request',
    );
    expectError(
      await client.post('/rerank', { model: 'vector-rerank-lite', query: 'x', documents, top_n: 1 }),
      400,
      'field_not_supported',
    );
    expect(
      (await client.post('/rerank', { model: 'vector-rerank-lite', query: 'x', documents })).status,
    ).toBe(200);
  });

  it('limits: query 1..1024, 1..256 documents each <= 8192, total <= 65536', async () => {
    const post = (query: string, docs: string[]) =>
      client.post('/rerank', { model: 'vector-rerank', query, documents: docs });
    expect((await post(astral(1024), ['a'])).status).toBe(200);
    expectError(await post(astral(1025), ['a']), 400, 'invalid_request');
    expectError(await post('', ['a']), 400, 'invalid_request');
    expect(
      (
        await post(
          'q',
          Array.from({ length: 256 }, () => 'd'),
        )
      ).status,
    ).toBe(200);
    expectError(
      await post(
        'q',
        Array.from({ length: 257 }, () => 'd'),
      ),
      400,
      'invalid_request',
    );
    expectError(await post('q', []), 400, 'invalid_request');
    expect((await post('q', [astral(8192)])).status).toBe(200);
    expectError(await post('q', [astral(8193)]), 400, 'invalid_request');
    const eight = Array.from({ length: 8 }, () => 'd'.repeat(8192));
    expect((await post('q'.repeat(1024), [...eight.slice(0, 7), 'd'.repeat(8192 - 1024)])).status).toBe(200);
    expectError(
      await post('q'.repeat(1024), [...eight.slice(0, 7), 'd'.repeat(8192 - 1023)]),
      400,
      'invalid_request',
    );
  });
});

describe('OCR, transcription, document parse', () => {
  it('OCR reads an owned image; pages defaults to 1; documents only where supported', async () => {
    const id = await client.uploadId('glyph-ocr', makePng(40, 20));
    const res = await client.post('/ocr', { model: 'glyph-ocr', input_image_asset_id: id, task: 'ocr' });
    expect(res.status).toBe(200);
    expect(res.data.text).toContain('SIMULATED OCR');
    expect(res.data.blocks[0]).toMatchObject({
      text: expect.any(String),
      bbox: expect.any(Array),
      confidence: expect.any(Number),
    });
    expect(res.data.usage.pages).toBe(1);
    expect(
      (await client.post('/ocr', { model: 'glyph-ocr', image_asset_id: id, pages: -3 })).data.usage.pages,
    ).toBe(1);
    expect((await client.post('/ocr', { model: 'glyph-ocr', input_image_asset_id: id })).data.text).toBe(
      res.data.text,
    );
    const pdf = await client.uploadId('glyph-ocr', makePdf());
    const doc = await client.post('/ocr', { model: 'glyph-ocr', document_asset_id: pdf, pages: 3 });
    expect(doc.data.pages).toHaveLength(1);
    expect(doc.data.usage.pages).toBe(3);
    expectError(await client.post('/ocr', { model: 'glyph-ocr' }), 400, 'missing_field');
    expectError(
      await client.post('/ocr', { model: 'glyph-ocr', input_image_asset_id: id, task: 'translate' }),
      400,
      'invalid_task',
    );
    expectError(
      await other.post('/ocr', { model: 'glyph-ocr', input_image_asset_id: id }),
      404,
      'asset_not_found',
    );
  });

  it('transcribes one multipart audio file; MIME types, octet-stream extension, 25 MiB', async () => {
    const send = (
      bytes: Buffer,
      type: string,
      filename: string,
      fields: Record<string, string> = { model: 'echo-transcribe' },
      c = client,
    ) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([new Uint8Array(bytes)], { type }), filename);
      return c.request('POST', '/audio/transcriptions', { body: form });
    };
    const wav = makeWav(12, 330);
    const res = await send(wav, 'audio/wav', 'talk.wav', {
      model: 'echo-transcribe',
      language: 'fr',
      response_format: 'verbose_json',
    });
    expect(res.status).toBe(200);
    const body = TranscriptionResponse.parse(res.data);
    expect(body.duration).toBeCloseTo(12, 2);
    expect(body.language).toBe('fr');
    expect(body.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 12],
    ]);
    expect((await send(wav, 'application/octet-stream', 'talk.wav')).status).toBe(200);
    expectError(await send(wav, 'application/octet-stream', 'talk.bin'), 415, 'unsupported_media_type');
    expectError(await send(wav, 'text/plain', 'talk.wav'), 415, 'unsupported_media_type');
    expectError(await send(Buffer.alloc(0), 'audio/wav', 'empty.wav'), 400, 'empty_file');
    expectError(
      await send(wav, 'audio/wav', 'talk.wav', { model: 'echo-transcribe-mini', language: 'en' }),
      400,
      'field_not_supported',
    );
    expectError(await send(wav, 'audio/wav', 'talk.wav', {}), 400, 'invalid_request');
    const MiB = 1024 * 1024;
    const big = Buffer.concat([makeWav(1, 200), Buffer.alloc(25 * MiB - makeWav(1, 200).length)]);
    expect((await send(big, 'audio/wav', 'big.wav')).status).toBe(200);
    expectError(
      await send(Buffer.concat([big, Buffer.alloc(1)]), 'audio/wav', 'big.wav'),
      413,
      'payload_too_large',
    );
  });

  it('parses an owned document; pages and page range 1..500', async () => {
    const pdf = await client.uploadId('folio-parse', makePdf());
    const parse = (extra: Record<string, unknown>) =>
      client.post('/documents/parse', { model: 'folio-parse', input_document_asset_id: pdf, ...extra });
    const res = await parse({
      language: 'en',
      page_range: { start_page: 2, end_page: 4 },
      preset: 'hybrid-high',
      original_name: 'brief.pdf',
    });
    expect(res.status).toBe(200);
    expect(res.data.pages.map((p: { page: number }) => p.page)).toEqual([2, 3, 4]);
    expect(res.data.markdown).toContain('# brief.pdf');
    expect((await parse({ pages: 500 })).status).toBe(200);
    expectError(await parse({ pages: 501 }), 400, 'invalid_request');
    expectError(await parse({ pages: 0 }), 400, 'invalid_request');
    expect((await parse({ page_range: { start_page: 500, end_page: 500 } })).status).toBe(200);
    expectError(await parse({ page_range: { start_page: 1, end_page: 501 } }), 400, 'invalid_request');
    expectError(await parse({ page_range: { start_page: 1 } }), 400, 'invalid_request');
    expectError(await parse({ page_range: { start_page: 5, end_page: 4 } }), 400, 'invalid_request');
    expectError(await parse({ language: 'fr' }), 400, 'invalid_request');
    expectError(await parse({ preset: 'hybrid-low' }), 400, 'invalid_request');
    expectError(
      await other.post('/documents/parse', { model: 'folio-parse', input_document_asset_id: pdf }),
      404,
      'asset_not_found',
    );
  });
});

describe('admission preview', () => {
  it('previews without reserving; reflects availability and request validity', async () => {
    const ok = await client.post('/admission/preview', {
      model: 'h3-video',
      request: { ...H3_BASE, model: 'ignored' },
    });
    expect(ok.status).toBe(200);
    expect(ok.data).toMatchObject({
      serviceKind: 'video_generation',
      admission: { decision: 'admit' },
      generatedAt: expect.any(String),
    });
    expect(ok.data.publicationId).toEqual(expect.any(String));
    expect(
      (await client.post('/admission/preview', { model: 'h3-video', request: null })).data.admission.decision,
    ).toBe('admit');
    expect((await client.post('/admission/preview', { model: 'h3-video' })).status).toBe(200);
    const invalid = await client.post('/admission/preview', {
      model: 'h3-video',
      request: { ...H3_BASE, seconds: 30 },
    });
    expect(invalid.data.admission).toMatchObject({ decision: 'reject', reason: 'invalid_seconds' });
    const off = await client.post('/admission/preview', { model: 'h3-video-preview' });
    expect(off.data.admission).toMatchObject({ decision: 'reject', reason: 'service_not_available' });
    expectError(await client.post('/admission/preview', { model: 'atlas-chat' }), 400, 'model_not_supported');
    expectError(await client.post('/admission/preview', { request: {} }), 400, 'invalid_request');
    expect((await client.get('/_simulator/idempotency')).data.data).toEqual([]);
  });
});
