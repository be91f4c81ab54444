import { readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../../src/simulator/index.js';
import { sha256, type Json } from '../client.js';
import { makeMp4, makePng, makeWav } from '../fixtures.js';
import {
  expectPlatformError,
  platformDocument,
  runtimeCall,
  type PlatformApp,
  type PlatformClient,
} from './platform-client.js';
import { recoveryRefOfFailedJob } from './recovery-ref.js';
import { usePlatformWorld } from './platform-fixture.js';
import type { LoopbackStorage } from './storage-server.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

let sim: RunningSimulator;
let client: PlatformClient;
let studio: PlatformApp;
let member: Json;
let storage: LoopbackStorage;
let recoveryRef: string;
const dataDir = tempFolder('fw-platsync-');

const MiB = 1024 * 1024;
const SYNC_PATHS = ['/chat/completions', '/embeddings', '/rerank', '/ocr', '/audio/transcriptions'];

usePlatformWorld({ simulator: { dataDir }, sessions: ['member'] }, (world) => {
  ({ sim, client, studio, storage } = world);
  member = world.sessions.member!;
});
beforeAll(async () => {
  recoveryRef = await recoveryRefOfFailedJob(client, studio, member.sessionId, 'sync-recovery');
});

const call = (method: string, suffix: string, options: Parameters<typeof runtimeCall>[4] = {}) =>
  runtimeCall(client, studio, method, suffix, { sessionId: member.sessionId, ...options });

/** The same call on the public interface (personal simulator token), for comparing answers. */
async function publicCall(suffix: string, body: unknown): Promise<Json> {
  const res = await fetch(sim.baseUrl + suffix, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** An input item for `bytes` served by the application's loopback storage. */
function input(name: string, bytes: Buffer, mimeType: string, facts = true): Json {
  return {
    readUrl: storage.put(name, bytes, mimeType),
    mimeType,
    ...(facts ? { sha256: sha256(bytes), byteSize: bytes.length } : {}),
  };
}

/** One input past the service's size bound: 422 `read_url_too_large` naming the bound. */
async function expectTooLarge(path: string, model: string, item: Json, maxBytes: number): Promise<void> {
  const res = await call('POST', path, { json: { model, inputs: [item] } });
  expectPlatformError(res, 422, 'read_url_too_large');
  expect(res.data.details.maxBytes).toBe(maxBytes);
}

describe('the platform document', () => {
  it('describes every synchronous runtime path as a POST', async () => {
    const doc = await platformDocument(sim);
    for (const path of SYNC_PATHS) expect(doc.paths[`/runtime${path}`]?.post, path).toBeDefined();
  });
});

describe('POST /chat/completions', () => {
  const messages = [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: [{ type: 'text', text: 'Describe the frame, please.' }] },
  ];

  it('answers a text chat exactly as the public interface does', async () => {
    const res = await call('POST', '/chat/completions', { json: { model: 'atlas-chat', messages } });
    expect(res.status, res.text).toBe(200);
    const pub = await publicCall('/chat/completions', { model: 'atlas-chat', messages });
    expect(res.data.choices).toEqual(pub.choices);
    expect(res.data.usage).toEqual(pub.usage);
    expect(res.data.model).toBe('atlas-chat');
  });

  it('reads vision inputs from readUrl and streams when asked', async () => {
    const png = makePng(64, 48, [10, 120, 200]);
    const mp4 = makeMp4(1);
    const before = storage.hits;
    const body = {
      model: 'atlas-vision',
      messages,
      inputs: [input('frame.png', png, 'image/png'), input('clip.mp4', mp4, 'video/mp4')],
    };
    const res = await call('POST', '/chat/completions', { json: body });
    expect(res.status, res.text).toBe(200);
    expect(storage.hits).toBe(before + 2);
    expect(res.data.choices[0].message.content).toContain('I looked at 2 attached media items');

    const streamed = await call('POST', '/chat/completions', { json: { ...body, stream: true } });
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = streamed.text
      .split('\n\n')
      .filter((e) => e.startsWith('data: '))
      .map((e) => e.slice(6));
    expect(events.at(-1)).toBe('[DONE]');
    const text = events
      .slice(0, -1)
      .map((e) => JSON.parse(e).choices[0].delta.content ?? '')
      .join('');
    expect(text).toBe(res.data.choices[0].message.content);
  });

  it('refuses media in message parts, inputs to a text model, other types and too many inputs', async () => {
    const png = makePng();
    expectPlatformError(
      await call('POST', '/chat/completions', {
        json: {
          model: 'atlas-vision',
          messages: [
            {
              role: 'user',
              content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }],
            },
          ],
        },
      }),
      400,
      'media_part_not_accepted',
    );
    expectPlatformError(
      await call('POST', '/chat/completions', {
        json: { model: 'atlas-chat', messages, inputs: [input('t.png', png, 'image/png')] },
      }),
      400,
      'inputs_not_supported',
    );
    const before = storage.hits;
    expectPlatformError(
      await call('POST', '/chat/completions', {
        json: { model: 'atlas-vision', messages, inputs: [input('a.wav', makeWav(2), 'audio/wav')] },
      }),
      415,
      'unsupported_media_type',
    );
    const eleven = Array.from({ length: 11 }, (_, i) => input(`many-${i}.png`, png, 'image/png'));
    expectPlatformError(
      await call('POST', '/chat/completions', { json: { model: 'atlas-vision', messages, inputs: eleven } }),
      400,
      'invalid_request',
    );
    expect(storage.hits).toBe(before);
    // the declared type must be the content's
    expectPlatformError(
      await call('POST', '/chat/completions', {
        json: { model: 'atlas-vision', messages, inputs: [input('not-a.png', makeWav(2), 'image/png')] },
      }),
      422,
      'read_url_media_mismatch',
    );
    // sampling fields the model's contract does not list, as on the public interface
    expectPlatformError(
      await call('POST', '/chat/completions', { json: { model: 'atlas-vision', messages, top_p: 0.5 } }),
      400,
      'sampling_field_not_allowed',
    );
  });
});

describe('POST /embeddings and /rerank', () => {
  it('answer as the public interface does', async () => {
    const body = { model: 'vector-embed', input: ['a red kite', 'a blue boat'] };
    const res = await call('POST', '/embeddings', {
      json: { ...body, resourceAttribution: { resourceType: 'project', resourceId: 'p-1' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.data).toEqual((await publicCall('/embeddings', body)).data);

    const rerank = {
      model: 'vector-rerank',
      query: 'kite',
      documents: ['a boat', 'a red kite', 'kite kite'],
      top_n: 2,
    };
    const ranked = await call('POST', '/rerank', { json: rerank });
    expect(ranked.status, ranked.text).toBe(200);
    expect(ranked.data.results).toEqual((await publicCall('/rerank', rerank)).results);
    expect(ranked.data.results).toHaveLength(2);
  });

  it('enforce the public limits', async () => {
    const tooMany = Array.from({ length: 65 }, (_, i) => `item ${i}`);
    expectPlatformError(
      await call('POST', '/embeddings', { json: { model: 'vector-embed', input: tooMany } }),
      400,
      'invalid_request',
    );
    expectPlatformError(
      await call('POST', '/embeddings', { json: { model: 'vector-embed', input: 'x'.repeat(8193) } }),
      400,
      'invalid_request',
    );
    const docs = Array.from({ length: 257 }, () => 'doc');
    expectPlatformError(
      await call('POST', '/rerank', { json: { model: 'vector-rerank', query: 'q', documents: docs } }),
      400,
      'invalid_request',
    );
    expectPlatformError(
      await call('POST', '/rerank', {
        json: { model: 'vector-rerank', query: 'q'.repeat(1025), documents: ['d'] },
      }),
      400,
      'invalid_request',
    );
    expectPlatformError(
      await call('POST', '/rerank', {
        json: {
          model: 'vector-rerank',
          query: 'q',
          documents: Array.from({ length: 9 }, () => 'd'.repeat(8000)),
        },
      }),
      400,
      'invalid_request',
    );
    expectPlatformError(
      await call('POST', '/rerank', {
        json: { model: 'vector-rerank-lite', query: 'q', documents: ['d'], top_n: 1 },
      }),
      400,
      'field_not_supported',
    );
    expectPlatformError(
      await call('POST', '/embeddings', {
        json: {
          model: 'vector-embed',
          input: 'x',
          resourceAttribution: { resourceType: 'invoice', resourceId: 'i' },
        },
      }),
      400,
      'resource_type_not_declared',
    );
  });
});

describe('POST /ocr', () => {
  it('reads exactly one image from its readUrl and answers the model JSON for that content', async () => {
    const png = makePng(80, 40, [1, 2, 3]);
    const res = await call('POST', '/ocr', {
      json: { model: 'glyph-ocr', task: 'ocr', inputs: [input('scan.png', png, 'image/png')] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.text).toContain(`Asset ${sha256(png).slice(0, 12)} (image/png)`);
    expect(res.data.pages).toHaveLength(1);
    // stable: the same content gives the same answer
    const again = await call('POST', '/ocr', {
      json: { model: 'glyph-ocr', task: 'ocr', inputs: [input('scan-2.png', png, 'image/png', false)] },
    });
    expect(again.data.text).toBe(res.data.text);
  });

  it('refuses zero or two inputs, a public asset id, an unknown task, other types and an image over 16 MiB', async () => {
    const png = makePng();
    const one = input('o.png', png, 'image/png');
    expectPlatformError(
      await call('POST', '/ocr', { json: { model: 'glyph-ocr', inputs: [] } }),
      400,
      'invalid_input_count',
    );
    expectPlatformError(
      await call('POST', '/ocr', { json: { model: 'glyph-ocr', inputs: [one, one] } }),
      400,
      'invalid_input_count',
    );
    expectPlatformError(
      await call('POST', '/ocr', {
        json: { model: 'glyph-ocr', input_image_asset_id: 'asset_1', inputs: [one] },
      }),
      400,
      'asset_id_not_accepted',
    );
    expectPlatformError(
      await call('POST', '/ocr', { json: { model: 'glyph-ocr', task: 'translate', inputs: [one] } }),
      400,
      'invalid_task',
    );
    expectPlatformError(
      await call('POST', '/ocr', {
        json: { model: 'glyph-ocr', inputs: [input('o.wav', makeWav(2), 'audio/wav')] },
      }),
      415,
      'unsupported_media_type',
    );
    await expectTooLarge(
      '/ocr',
      'glyph-ocr',
      input('big.png', makePng(64, 48, [9, 9, 9], 16 * MiB + 1), 'image/png', false),
      16 * MiB,
    );
  });
});

describe('POST /audio/transcriptions', () => {
  it('reads exactly one audio and answers the public transcription of the same file', async () => {
    const wav = makeWav(7, 330);
    const res = await call('POST', '/audio/transcriptions', {
      json: { model: 'echo-transcribe', language: 'fr', inputs: [input('voice.wav', wav, 'audio/wav')] },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.data.duration).toBeCloseTo(7, 1);
    expect(res.data.language).toBe('fr');
    expect(res.data.segments).toHaveLength(2);

    const form = new FormData();
    form.append('model', 'echo-transcribe');
    form.append('language', 'fr');
    form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'voice.wav');
    const pub = await fetch(sim.baseUrl + '/audio/transcriptions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.token}` },
      body: form,
    });
    expect(pub.status).toBe(200);
    expect(res.data).toEqual(await pub.json());
  });

  it('refuses two inputs, a type the public interface refuses, options the model lacks, and more than 25 MiB', async () => {
    const wav = makeWav(2);
    const one = input('t.wav', wav, 'audio/wav');
    expectPlatformError(
      await call('POST', '/audio/transcriptions', { json: { model: 'echo-transcribe', inputs: [one, one] } }),
      400,
      'invalid_input_count',
    );
    expectPlatformError(
      await call('POST', '/audio/transcriptions', {
        json: { model: 'echo-transcribe', inputs: [input('t.png', makePng(), 'image/png')] },
      }),
      415,
      'unsupported_media_type',
    );
    expectPlatformError(
      await call('POST', '/audio/transcriptions', {
        json: { model: 'echo-transcribe-mini', language: 'en', inputs: [one] },
      }),
      400,
      'field_not_supported',
    );
    await expectTooLarge(
      '/audio/transcriptions',
      'echo-transcribe',
      input('huge.wav', Buffer.alloc(25 * MiB + 1), 'audio/wav', false),
      25 * MiB,
    );
  });
});

describe('readUrl rules of the synchronous calls', () => {
  it('refuse local paths, other schemes, private and link-local addresses without contacting anything', async () => {
    const before = storage.hits;
    const cases: [string, string][] = [
      ['/etc/passwd', 'read_url_invalid'],
      ['file:///etc/passwd', 'read_url_scheme_not_allowed'],
      ['http://10.0.0.8/a.wav', 'read_url_address_not_allowed'],
      ['http://169.254.169.254/latest/meta-data', 'read_url_address_not_allowed'],
      ['http://[fd00::1]/a.wav', 'read_url_address_not_allowed'],
    ];
    for (const [readUrl, code] of cases) {
      const res = await call('POST', '/audio/transcriptions', {
        json: { model: 'echo-transcribe', inputs: [{ readUrl, mimeType: 'audio/wav' }] },
      });
      expectPlatformError(res, 400, code);
      expect(res.data.phase).toBe('input_validation');
      expect(res.text).not.toContain(readUrl);
    }
    // one refused input: the good one beside it is not read either
    const good = input('good.png', makePng(), 'image/png');
    expectPlatformError(
      await call('POST', '/chat/completions', {
        json: {
          model: 'atlas-vision',
          messages: [{ role: 'user', content: 'hi' }],
          inputs: [good, { readUrl: 'http://192.168.1.1/x.png', mimeType: 'image/png' }],
        },
      }),
      400,
      'read_url_address_not_allowed',
    );
    expect(storage.hits).toBe(before);
  });

  it('check sha256 and byteSize against the content read', async () => {
    const png = makePng(32, 32);
    const wrongSha = await call('POST', '/ocr', {
      json: { model: 'glyph-ocr', inputs: [{ ...input('s.png', png, 'image/png'), sha256: 'c'.repeat(64) }] },
    });
    expectPlatformError(wrongSha, 422, 'read_url_checksum_mismatch');
    expect(wrongSha.data.phase).toBe('input_fetch');
    // the signed storage URL is never echoed
    expect(wrongSha.text).not.toContain('X-Signature');
    expectPlatformError(
      await call('POST', '/ocr', {
        json: {
          model: 'glyph-ocr',
          inputs: [{ ...input('z.png', png, 'image/png'), byteSize: png.length - 1 }],
        },
      }),
      422,
      'read_url_size_mismatch',
    );
    expectPlatformError(
      await call('POST', '/ocr', {
        json: {
          model: 'glyph-ocr',
          inputs: [{ readUrl: `${storage.origin}/bucket/missing.png`, mimeType: 'image/png' }],
        },
      }),
      422,
      'read_url_unreadable',
    );
  });
});

describe('authorization', () => {
  const bodies: Record<string, Json> = {
    '/chat/completions': { model: 'atlas-chat', messages: [{ role: 'user', content: 'hi' }] },
    '/embeddings': { model: 'vector-embed', input: 'hi' },
    '/rerank': { model: 'vector-rerank', query: 'q', documents: ['d'] },
    '/ocr': { model: 'glyph-ocr', inputs: [] },
    '/audio/transcriptions': { model: 'echo-transcribe', inputs: [] },
  };

  it('every call needs a usable session; a recovery reference never authorizes one', async () => {
    for (const path of SYNC_PATHS) {
      const json = bodies[path];
      expectPlatformError(await call('POST', path, { json, sessionId: '' }), 401, 'runtime_session_required');
      expectPlatformError(
        await call('POST', path, { json, sessionId: 'rs_forged' }),
        401,
        'runtime_session_invalid',
      );
      const recovery = await call('POST', path, {
        json,
        sessionId: '',
        headers: { 'X-Platform-Job-Recovery-Ref': recoveryRef },
      });
      expectPlatformError(recovery, 403, 'job_recovery_ref_not_allowed');
      expect(recovery.text).not.toContain(recoveryRef);
      expectPlatformError(
        await call('POST', path, { json, headers: { 'X-Platform-Job-Recovery-Ref': recoveryRef } }),
        400,
        'conflicting_runtime_credentials',
      );
    }
  });
});

describe('scenarios', () => {
  const embed = (scenario: string) =>
    call('POST', '/embeddings', {
      json: { model: 'vector-embed', input: 'hi' },
      headers: { 'X-Simulator-Scenario': scenario },
    });

  it('answer 400, 402, 429 and 503 with Retry-After, 504 on a billed call, and no idempotency conflict (nothing is idempotent)', async () => {
    expectPlatformError(await embed('invalid_request'), 400, 'invalid_request');
    expectPlatformError(await embed('insufficient_balance'), 402, 'insufficient_balance');
    const limited = await embed('rate_limited');
    expectPlatformError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('2');
    const down = await embed('unavailable');
    expectPlatformError(down, 503, 'service_unavailable');
    expect(down.headers.get('retry-after')).toBe('5');
    expectPlatformError(await embed('gateway_timeout'), 504, 'gateway_timeout');
    expect((await embed('idempotency_conflict')).status).toBe(200);
  });
});

describe('what was read', () => {
  it('is not kept: no temporary file and no asset remains after the calls above', () => {
    expect(readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
    expect(readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
  });
});
