import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { mediaSignatureOf } from '../../../src/main/core/library/media-resolver.js';
import {
  PLAYGROUND_CHUNK_BYTES,
  type GenerationResult,
} from '../../../src/shared/bridge/domains/playground.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { makePdf, makePng, makeWav } from '../simulator/fixtures.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let dir: string;
let sim: RunningSimulator;
let core: AppCore;

beforeAll(async () => {
  dir = tempFolder('fw-playground-');
  sim = await openSimulator({ timeScale: 0.05 });
  core = await createAppCore({
    dataDir: dir,
    host: BROWSER_HOST,
    launchSimulator: async () => ({ ...sim, close: async () => undefined }),
    secretStore: new UnavailableSecretStore('tests'),
    resumeOnStart: false,
    engine: { pollBackoff: { initialMs: 50, maxMs: 200, factor: 1.5, jitter: 0.1 } },
  });
});
afterAll(async () => {
  await core.close();
  await sim.close();
});

async function call<T = Record<string, unknown>>(method: string, params: unknown): Promise<T> {
  const answer = await core.dispatcher.dispatch(method, params);
  if (!answer.ok) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
  return answer.result as T;
}

/** Sends a file the way the renderer does: base64 chunks of at most PLAYGROUND_CHUNK_BYTES. */
async function put(fileName: string, bytes: Buffer): Promise<string> {
  let uploadId: string | undefined;
  let offset = 0;
  for (;;) {
    const chunk = bytes.subarray(offset, offset + PLAYGROUND_CHUNK_BYTES);
    const last = offset + chunk.length >= bytes.length;
    const answer = await call<{ uploadId: string; file: { fileId: string } | null }>('playground.files.put', {
      uploadId,
      fileName,
      offset,
      dataBase64: chunk.toString('base64'),
      last,
    });
    uploadId = answer.uploadId;
    offset += chunk.length;
    if (last) return answer.file!.fileId;
  }
}

describe('the Playground over the bridge', () => {
  it('lists the services of every playground kind', async () => {
    const list = await call<{ modelAlias: string }[]>('playground.services', {});
    expect(list.map((s) => s.modelAlias)).toEqual(
      expect.arrayContaining([
        'atlas-chat',
        'vector-embed',
        'vector-rerank',
        'glyph-ocr',
        'echo-transcribe',
        'cadence-speech',
        'lumen-image',
        'folio-parse',
      ]),
    );
    expect(list.map((s) => s.modelAlias)).not.toContain('h3-video');
  });

  it('streams a chat reply as events and cancels another with nothing saved', async () => {
    const tokens: string[] = [];
    const off = core.events.subscribe((event, payload) => {
      if (event === 'playground.chat.delta') tokens.push((payload as { token: string }).token);
    });
    const turn = await call<{ conversation: { id: string; messages: { role: string; text: string }[] } }>(
      'playground.chat.send',
      {
        streamId: 's1',
        model: 'atlas-chat',
        text: 'hello there',
        attachments: [],
        sampling: { temperature: 0.5 },
      },
    );
    expect(tokens.join('')).toBe(turn.conversation.messages[1]!.text);
    let cancel: Promise<unknown> | undefined;
    const offCancel = core.events.subscribe((event, payload) => {
      if (event === 'playground.chat.delta' && (payload as { streamId: string }).streamId === 's2')
        cancel ??= call('playground.chat.cancel', { streamId: 's2' });
    });
    const cancelled = call('playground.chat.send', {
      streamId: 's2',
      model: 'atlas-chat',
      conversationId: turn.conversation.id,
      text: 'a long story please',
      attachments: [],
      sampling: {},
    }).catch((e: { code?: string }) => e.code);
    expect(await cancelled).toBe('chat.cancelled');
    expect(await cancel).toEqual({ cancelled: true });
    off();
    offCancel();
    const saved = await call<{ messages: unknown[] }>('playground.conversations.get', {
      id: turn.conversation.id,
    });
    expect(saved.messages).toHaveLength(2);
    expect((await call<unknown[]>('playground.conversations.list', { query: 'hello' })).length).toBe(1);
  });

  it('takes files in chunks (a 1.2 MB WAV) and refuses one past 25 MiB', async () => {
    const wavId = await put('speech.wav', makeWav(75));
    const t = await call<{ segments: unknown[]; exports: { srt: string } }>('playground.transcribe', {
      model: 'echo-transcribe',
      fileId: wavId,
      language: 'en',
    });
    expect(t.segments.length).toBe(15);
    const big = Buffer.alloc(PLAYGROUND_CHUNK_BYTES);
    let uploadId: string | undefined;
    let code: string | undefined;
    for (let offset = 0; offset <= 25 * 1024 * 1024; offset += big.length) {
      try {
        uploadId = (
          await call<{ uploadId: string }>('playground.files.put', {
            uploadId,
            fileName: 'big.wav',
            offset,
            dataBase64: big.toString('base64'),
            last: false,
          })
        ).uploadId;
      } catch (error) {
        code = (error as { code: string }).code;
        break;
      }
    }
    expect(code).toBe('usage.file');
  });

  it('runs OCR, parse, embeddings, rerank, image and speech', async () => {
    const png = await put('page.png', makePng(100, 60));
    const ocr = await call<{ boxes: unknown[] }>('playground.ocr', { model: 'glyph-ocr', fileId: png });
    expect(ocr.boxes.length).toBeGreaterThan(0);
    const pdf = await put('doc.pdf', makePdf());
    const parsed = await call<{ pageCount: number; files: string[] }>('playground.parse', {
      model: 'folio-parse',
      fileId: pdf,
      pageRange: { start: 1, end: 2 },
    });
    expect(parsed.pageCount).toBe(2);
    const e = await call<{ dimensions: number }>('playground.embed', {
      model: 'vector-embed',
      inputs: ['a', 'b'],
    });
    expect(e.dimensions).toBe(256);
    // the History list: the billed call just made, summaries only; a refused input added nothing
    await expect(
      call('playground.embed', { model: 'vector-embed', inputs: Array.from({ length: 65 }, () => 'x') }),
    ).rejects.toMatchObject({ code: 'usage.input' });
    const history = await call<Record<string, unknown>[]>('playground.calls.list', {
      operation: 'embeddings',
    });
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      operation: 'embeddings',
      model: 'vector-embed',
      state: 'succeeded',
      requestId: expect.any(String),
    });
    expect((await call<unknown[]>('playground.calls.list', { operation: 'ocr' })).length).toBe(1);
    await expect(call('playground.calls.list', { operation: 'chat' })).rejects.toBeDefined();
    const r = await call<{ results: unknown[] }>('playground.rerank', {
      model: 'vector-rerank',
      query: 'a',
      documents: ['a', 'b'],
    });
    expect(r.results).toHaveLength(2);
    const image = await call<{ state: string; outputs: { url: string }[] }>('playground.image.generate', {
      model: 'lumen-image',
      prompt: 'a harbour',
      imageCount: 2,
      inputFileIds: [],
    });
    expect(image.state).toBe('succeeded');
    expect(image.outputs.map((o) => o.url)).toEqual([
      expect.stringMatching(/^\/media\/library\/\d+\/\d+\?s=[\w-]+$/),
      expect.any(String),
    ]);
    const voices = await call<{ voiceId: string; hasPreview: boolean }[]>('playground.voices', {});
    expect(voices.length).toBe(3);
    expect(voices.every((v) => v.hasPreview)).toBe(true);
    const preview = await call<{ dataUrl: string }>('playground.voices.preview', {
      voiceId: voices[0]!.voiceId,
      model: 'cadence-speech',
    });
    expect(preview.dataUrl).toMatch(/^data:audio\/[\w.+-]+;base64,/);
    expect(Buffer.from(preview.dataUrl.split(',')[1]!, 'base64').length).toBeGreaterThan(1000);
    const speech = await call<{ state: string }>('playground.audio.generate', {
      model: 'cadence-speech',
      voiceMode: 'custom_voice',
      speaker: 'amber',
      text: 'Hello',
    });
    expect(speech.state).toBe('succeeded');
  });

  it('returns no absolute local path across the bridge: media URLs main resolves, names inside the library', async () => {
    const image = await call<GenerationResult>('playground.image.generate', {
      model: 'lumen-image',
      prompt: 'a lighthouse',
      imageCount: 1,
      inputFileIds: [],
    });
    const speech = await call<GenerationResult>('playground.audio.generate', {
      model: 'cadence-speech',
      voiceMode: 'custom_voice',
      speaker: 'amber',
      text: 'Hello again',
    });
    const parsed = await call<{ folder: string; files: string[] }>('playground.parse', {
      model: 'folio-parse',
      fileId: await put('doc.pdf', makePdf()),
      pageRange: { start: 1, end: 1 },
    });
    for (const answer of [image, speech, parsed]) {
      const text = JSON.stringify(answer);
      expect(text).not.toContain(dir);
      expect(text).not.toContain(core.services.libraryDir);
      expect(text).not.toMatch(/"\/(tmp|home|root|var|Users)\//);
    }
    for (const result of [image, speech]) {
      expect(result.state).toBe('succeeded');
      for (const output of result.outputs) {
        expect(output).not.toHaveProperty('path');
        expect(output.fileName).toMatch(/^[^/\\]+$/);
        // the URL is all the page needs: main resolves it to the library file of that name
        const url = new URL(output.url!, 'http://host.invalid');
        const media = await core.studio.media.resolve(
          url.pathname.replace('/media/', ''),
          mediaSignatureOf(url),
        );
        expect(path.basename(media!.path)).toBe(output.fileName);
        expect(media!.path.startsWith(core.services.libraryDir)).toBe(true);
      }
    }
    expect(path.isAbsolute(parsed.folder)).toBe(false);
    expect(parsed.folder).toMatch(/^documents\//);
    expect(parsed.files.length).toBeGreaterThan(0);
    for (const name of parsed.files) {
      expect(name).toMatch(/^[^/\\]+$/);
      expect(existsSync(path.join(core.services.libraryDir, parsed.folder, name))).toBe(true);
    }
  });
});
