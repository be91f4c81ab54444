import { describe, expect, it } from 'vitest';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';

const KEY = 'sk-endpoint-test-key';

/** A client over a fake fetch that records each request and answers 200 `{}`. */
function recordingClient() {
  const sent: { method: string; url: string; headers: Headers; body: unknown }[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    sent.push({
      method: init?.method ?? 'GET',
      url: String(input),
      headers: new Headers(init?.headers),
      body: init?.body,
    });
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  const client = new PublicApiClient(
    { profileId: 'p1', kind: 'personal', baseUrl: 'https://gateway.example/v1/', secret: async () => KEY },
    { fetchImpl },
  );
  return { client, sent };
}

describe('the synchronous endpoints are methods of the client', () => {
  it('sends each JSON call to its path of the spec, with the key, as one POST', async () => {
    const { client, sent } = recordingClient();
    const body = { model: 'm', input: ['x'] };
    await client.embeddings(body);
    await client.rerank(body);
    await client.ocr(body);
    await client.parseDocument(body);
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://gateway.example/v1/embeddings',
      'POST https://gateway.example/v1/rerank',
      'POST https://gateway.example/v1/ocr',
      'POST https://gateway.example/v1/documents/parse',
    ]);
    for (const request of sent) {
      expect(request.headers.get('authorization')).toBe(`Bearer ${KEY}`);
      expect(request.headers.get('content-type')).toBe('application/json');
      expect(JSON.parse(String(request.body))).toEqual(body);
    }
  });

  it('asks for a streamed chat reply, sends audio as multipart, and reads voices by encoded id', async () => {
    const { client, sent } = recordingClient();
    await client.chatCompletions({ model: 'c', messages: [], stream: true });
    const form = new FormData();
    form.set('model', 't');
    await client.transcribe(form);
    await client.listVoices();
    await client.getVoice('voice/one two');
    expect(sent.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST https://gateway.example/v1/chat/completions',
      'POST https://gateway.example/v1/audio/transcriptions',
      'GET https://gateway.example/v1/audio/voices',
      'GET https://gateway.example/v1/audio/voices/voice%2Fone%20two',
    ]);
    expect(sent[0]!.headers.get('accept')).toBe('text/event-stream');
    // no Content-Type of our own: fetch writes the multipart boundary
    expect(sent[1]!.headers.get('content-type')).toBeNull();
    expect(sent[1]!.body).toBe(form);
  });

  it('keeps the caller’s cancel signal', async () => {
    const controller = new AbortController();
    controller.abort();
    let seen: AbortSignal | undefined;
    const spy = new PublicApiClient(
      { profileId: 'p1', kind: 'personal', baseUrl: 'https://gateway.example/v1', secret: async () => KEY },
      {
        fetchImpl: (async (_input: string | URL | Request, init?: RequestInit) => {
          seen = init?.signal ?? undefined;
          return new Response('{}');
        }) as typeof fetch,
      },
    );
    await spy.embeddings({}, { signal: controller.signal });
    expect(seen).toBe(controller.signal);
  });
});
