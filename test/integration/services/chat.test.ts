import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chatCapabilities, chatTurn, streamChat } from '../../../src/main/core/operations/chat.js';
import { InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { AppError } from '../../../src/main/core/errors.js';
import { makeMp4, makePng } from '../simulator/fixtures.js';
import { FetchRecorder, clientWithToken, loseCachedAsset, openWorld, type ServicesWorld } from './helpers.js';

let world: ServicesWorld;
const recorder = new FetchRecorder();

beforeAll(async () => {
  world = await openWorld();
  recorder.install();
});
afterAll(async () => {
  recorder.uninstall();
  await world.close();
});
afterEach(() => recorder.reset());

const messageCount = () =>
  world.core.journal.database.prepare('SELECT count(*) FROM conversation_messages').pluck().get() as number;

describe('chat', () => {
  it('reads the capabilities from the live contract', () => {
    expect(chatCapabilities(world.service('atlas-chat'))).toMatchObject({
      partTypes: ['text'],
      samplingFields: expect.arrayContaining(['temperature', 'top_p']),
      inlineImages: false,
    });
    expect(chatCapabilities(world.service('atlas-vision'))).toMatchObject({
      partTypes: ['text', 'image_url', 'video_url'],
      samplingFields: ['temperature', 'max_tokens'],
      inlineImages: true,
    });
  });

  it('streams tokens incrementally, then saves the user message and the whole reply', async () => {
    const times: number[] = [];
    const tokens: string[] = [];
    const turn = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-chat'),
      system: 'You are terse.',
      text: 'Describe a lighthouse.',
      sampling: { temperature: 0.2 },
      onToken: (t) => {
        tokens.push(t);
        times.push(Date.now());
      },
    });
    expect(tokens.length).toBeGreaterThan(5);
    // the pieces arrived over time, not in one piece at the end
    expect(times.at(-1)! - times[0]!).toBeGreaterThan(0);
    expect(tokens.join('')).toBe(turn.assistant.text);
    expect(turn.assistant.text).toContain('Describe a lighthouse.');
    expect(turn.assistant.finishReason).toBe('stop');
    expect(turn.conversation.systemPrompt).toBe('You are terse.');
    const again = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-chat'),
      conversationId: turn.conversation.id,
      text: 'And at night?',
    });
    // system + 2 earlier + the new user message were sent
    expect(again.assistant.text).toContain('The conversation has 4 messages');
    const saved = world.core.journal.conversations.getWithMessages(turn.conversation.id)!;
    expect(saved.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(world.core.journal.conversations.search('lighthouse').map((c) => c.id)).toContain(
      turn.conversation.id,
    );
  });

  it('a cancel mid-stream stops it and saves nothing', async () => {
    const before = messageCount();
    const controller = new AbortController();
    const tokens: string[] = [];
    const error = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-chat'),
      text: 'Tell me a long story about the sea.',
      signal: controller.signal,
      onToken: (t) => {
        tokens.push(t);
        if (tokens.length === 3) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('chat.cancelled');
    // not one token is delivered after the cancel
    expect(tokens.length).toBe(3);
    expect(messageCount()).toBe(before);
  });

  it('a stream that breaks before it finishes is an error and saves nothing', async () => {
    const before = messageCount();
    // a fetch that cuts the event stream after its first bytes
    const original = globalThis.fetch;
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const response = await original(input, init);
      if (!response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      const reader = response.body!.getReader();
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (sent >= 2) {
            await reader.cancel();
            controller.error(new Error('socket hang up'));
            return;
          }
          const { value, done } = await reader.read();
          if (done) return controller.close();
          sent += 1;
          controller.enqueue(value);
        },
      });
      return new Response(body, { status: response.status, headers: response.headers });
    }) as typeof fetch;
    try {
      const error = await chatTurn(world.core.journal, world.client, {
        service: world.service('atlas-chat'),
        text: 'This reply will break.',
      }).catch((e: unknown) => e);
      expect((error as AppError).code).toBe('chat.stream_broken');
    } finally {
      globalThis.fetch = original;
    }
    expect(messageCount()).toBe(before);
  });

  it('refuses sampling fields the contract does not allow, before sending', async () => {
    for (const [alias, field] of [
      ['atlas-vision', 'top_p'],
      ['atlas-chat', 'seed'],
      ['atlas-chat', 'top_k'],
    ] as const) {
      recorder.reset();
      const error = await chatTurn(world.core.journal, world.client, {
        service: world.service(alias),
        text: 'hi',
        sampling: { [field]: 1 },
      }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InputLimitError);
      expect((error as Error).message).toContain(`${field} is not accepted by ${alias}`);
      expect(recorder.calls).toEqual([]);
    }
  });

  it('attaches an image and a video to a vision model as uploaded asset URLs, or an image inline', async () => {
    const png = world.file('still.png', makePng(64, 48));
    const mp4 = world.file('clip.mp4', makeMp4(1));
    const turn = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-vision'),
      text: 'What is in these?',
      attachments: [{ filePath: png }, { filePath: mp4 }],
    });
    expect(turn.assistant.text).toContain('2 attached media items');
    const parts = turn.user.content as { type: string; image_url?: { url: string } }[];
    expect(parts.map((p) => p.type)).toEqual(['text', 'image_url', 'video_url']);
    expect(parts[1]!.image_url!.url).toMatch(/\/assets\/[^/]+\/content\?model=atlas-vision$/);
    expect(recorder.sent.filter((c) => c.path === '/assets/input')).toHaveLength(2);
    const inline = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-vision'),
      text: 'And this?',
      attachments: [{ filePath: png, inline: true }],
    });
    expect((inline.user.content as { image_url?: { url: string } }[])[1]!.image_url!.url).toMatch(
      /^data:image\/png;base64,/,
    );
  });

  it('a cached attachment the service no longer knows (404 asset_not_found) is forgotten, uploaded again once and the turn sent once more', async () => {
    const png = world.file('lost-still.png', makePng(40, 30, [30, 60, 90]));
    const turn = () =>
      chatTurn(world.core.journal, world.client, {
        service: world.service('atlas-vision'),
        text: 'Describe it',
        attachments: [{ filePath: png }],
      });
    const first = await turn();
    const firstUrl = (first.user.content as { image_url?: { url: string } }[])[1]!.image_url!.url;
    const assetId = /\/assets\/([^/]+)\/content/.exec(firstUrl)![1]!;
    loseCachedAsset(world, 'atlas-vision', decodeURIComponent(assetId), 'still-lost');
    recorder.reset();
    const again = await turn();
    expect(recorder.sent.map((c) => c.path)).toEqual([
      '/chat/completions',
      '/assets/input',
      '/chat/completions',
    ]);
    const url = (again.user.content as { image_url?: { url: string } }[])[1]!.image_url!.url;
    expect(url).not.toContain('still-lost');
    expect(world.core.journal.uploads.get(world.profileId, 'atlas-vision', 'still-lost')).toBeUndefined();
  });

  it("uploads again only once: a second 404 (here an earlier message holds another identity's asset) is passed on and nothing is saved", async () => {
    const service = world.service('atlas-vision');
    const mine = world.file('mine.png', makePng(20, 20, [1, 2, 3]));
    const theirs = world.file('theirs.png', makePng(20, 20, [3, 2, 1]));
    const conversation = (
      await chatTurn(world.core.journal, world.client, {
        service,
        text: 'one',
        attachments: [{ filePath: mine }],
      })
    ).conversation;
    // the same profile under another key: its own upload of `theirs` is cached for that key
    const other = clientWithToken(world.sim, 'other-identity', world.profileId);
    await chatTurn(world.core.journal, other, {
      service,
      text: 'cache',
      attachments: [{ filePath: theirs }],
    });
    const saved = messageCount();
    recorder.reset();
    const error = await chatTurn(world.core.journal, other, {
      service,
      conversationId: conversation.id,
      text: 'two',
      attachments: [{ filePath: theirs }],
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 404, apiCode: 'asset_not_found' });
    expect((error as Error).message).toMatch(
      /No asset with this id is available to this identity.*Not found for this profile and model/s,
    );
    expect(recorder.sent.map((c) => c.path)).toEqual([
      '/chat/completions',
      '/assets/input',
      '/chat/completions',
    ]);
    expect(messageCount()).toBe(saved);
  });

  it('refuses media for a text-only model before uploading', async () => {
    const png = world.file('text-only.png', makePng(8, 8));
    recorder.reset();
    const error = await chatTurn(world.core.journal, world.client, {
      service: world.service('atlas-chat'),
      text: 'see',
      attachments: [{ filePath: png }],
    }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/cannot be attached: atlas-chat takes text parts/);
    expect(recorder.calls).toEqual([]);
  });

  it('a model whose contract does not stream gets stream: false and one JSON completion', async () => {
    const plain = {
      ...world.service('atlas-chat'),
      apiUsageContract: { operations: { chat: { stream: false } }, contentPartTypes: ['text'] },
    };
    const tokens: string[] = [];
    const turn = await chatTurn(world.core.journal, world.client, {
      service: plain,
      text: 'no stream please',
      onToken: (t) => tokens.push(t),
    });
    expect(tokens).toEqual([turn.assistant.text]);
    expect(turn.assistant.finishReason).toBe('stop');
  });

  it('streamChat alone returns the whole reply', async () => {
    const reply = await streamChat(world.client, {
      model: 'atlas-chat',
      messages: [{ role: 'user', content: 'ping' }],
    });
    expect(reply.finishReason).toBe('stop');
    expect(reply.usage).toMatchObject({ total_tokens: expect.any(Number) });
  });
});
