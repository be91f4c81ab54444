import { describe, expect, it } from 'vitest';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import {
  audioProfile,
  buildAudioBody,
  speechLimits,
} from '../../../src/main/core/operations/audio-generation.js';
import { chatCapabilities, validateSampling } from '../../../src/main/core/operations/chat.js';
import { checkField } from '../../../src/main/core/operations/contract-fields.js';
import { parsePageRange, validateParseOptions } from '../../../src/main/core/operations/document-parse.js';
import { similarityMatrix, validateEmbeddingInputs } from '../../../src/main/core/operations/embeddings.js';
import { validateImageDraft } from '../../../src/main/core/operations/image-generation.js';
import { documentsFromFile, parseCsv, validateRerank } from '../../../src/main/core/operations/rerank.js';
import { chooseService, InputLimitError } from '../../../src/main/core/operations/service-common.js';
import { isCallable, serviceAvailability } from '../../../src/shared/api/service-availability.js';
import {
  transcriptExports,
  validateTranscriptionOptions,
} from '../../../src/main/core/operations/transcription.js';
import { SERVICES } from '../../../src/simulator/catalog.js';

const service = (alias: string) => SERVICES.find((s) => s.modelAlias === alias) as ServiceEntry;
const refuses = (run: () => unknown, message: RegExp) => expect(run).toThrow(message);

describe('local limits (pure, nothing to send)', () => {
  it('embeddings: 1..64 non-empty texts of at most 8192 code points', () => {
    expect(() => validateEmbeddingInputs(Array(64).fill('x'))).not.toThrow();
    refuses(() => validateEmbeddingInputs(Array(65).fill('x')), /At most 64/);
    expect(() => validateEmbeddingInputs(['𝒜'.repeat(8192)])).not.toThrow();
    refuses(() => validateEmbeddingInputs(['𝒜'.repeat(8193)]), /8193/);
    expect(() => validateEmbeddingInputs([' '])).toThrow(InputLimitError);
  });

  it('rerank: query 1024, 256 documents, 65,536 in all, top_n only where supported', () => {
    expect(() => validateRerank({ query: 'q'.repeat(1024), documents: ['d'] })).not.toThrow();
    refuses(() => validateRerank({ query: 'q'.repeat(1025), documents: ['d'] }), /1025/);
    refuses(() => validateRerank({ query: 'q', documents: Array(257).fill('d') }), /256/);
    const docs = [...Array(7).fill('d'.repeat(8192)), 'd'.repeat(7168)];
    expect(() => validateRerank({ query: 'q'.repeat(1024), documents: docs })).not.toThrow();
    refuses(() => validateRerank({ query: 'q'.repeat(1025), documents: docs }), /1025/);
    refuses(() => validateRerank({ query: 'q'.repeat(1024), documents: [...docs, 'x'] }), /65537/);
    refuses(
      () => validateRerank({ query: 'q', documents: ['d'], topN: 1 }, service('vector-rerank-lite')),
      /top_n/,
    );
    expect(() =>
      validateRerank({ query: 'q', documents: ['d'], topN: 1 }, service('vector-rerank')),
    ).not.toThrow();
  });

  it('document parse: pages and page range 1..500, language and preset enums', () => {
    for (const pages of [1, 500]) expect(() => validateParseOptions({ pages })).not.toThrow();
    for (const pages of [0, 501, 1.5]) refuses(() => validateParseOptions({ pages }), /1 to 500/);
    refuses(() => validateParseOptions({ pageRange: { start: 3, end: 2 } }), /not be after/);
    refuses(() => validateParseOptions({ language: 'de' }), /ch or en/);
    expect(parsePageRange(' 7 - 9 ')).toEqual({ start: 7, end: 9 });
  });

  it('speech: text 600 and instruct 160 (never above the document limits), voice fields by mode', () => {
    const speech = service('cadence-speech');
    expect(audioProfile(speech)).toBe('speech');
    expect(speechLimits(speech)).toEqual({ textMax: 600, instructMax: 160 });
    expect(buildAudioBody(speech, { text: 'x'.repeat(600) })).toEqual({
      model: 'cadence-speech',
      text: 'x'.repeat(600),
    });
    refuses(() => buildAudioBody(speech, { text: 'x'.repeat(601) }), /601/);
    expect(
      buildAudioBody(speech, { voiceMode: 'voice_design', instruct: 'i'.repeat(160), text: 't' }),
    ).toMatchObject({
      instruct: 'i'.repeat(160),
    });
    refuses(
      () => buildAudioBody(speech, { voiceMode: 'voice_design', instruct: 'i'.repeat(161), text: 't' }),
      /161/,
    );
    refuses(() => buildAudioBody(speech, { voiceMode: 'text', speaker: 'amber', text: 't' }), /custom_voice/);
    const loose = {
      ...speech,
      mediaSpecContract: {
        profile: 'speech',
        parameters: [{ name: 'text', type: 'string', maxLength: 5000 }],
      },
    };
    expect(speechLimits(loose as ServiceEntry).textMax).toBe(600);
  });

  it('images: fields and values only as the contract publishes them', () => {
    const lumen = service('lumen-image');
    expect(validateImageDraft(lumen, { prompt: 'x', imageCount: 4, orientation: 'portrait' })).toBe('t2i');
    refuses(() => validateImageDraft(lumen, { prompt: 'x', imageCount: 5 }), /at most 4/);
    refuses(
      () => validateImageDraft(lumen, { prompt: 'x', resolutionTier: '1k' }),
      /does not take resolutionTier/,
    );
    refuses(() => checkField(lumen, 'seed', 1.5), /whole number/);
  });

  it('chat: capabilities and sampling from the contract', () => {
    expect(chatCapabilities(service('atlas-chat')).partTypes).toEqual(['text']);
    expect(() =>
      validateSampling(service('atlas-vision'), { temperature: 0.1, max_tokens: 10 }),
    ).not.toThrow();
    refuses(() => validateSampling(service('atlas-vision'), { top_p: 0.1 }), /top_p is not accepted/);
    refuses(() => validateSampling(service('atlas-chat'), { logit_bias: 'x' }), /logit_bias/);
  });

  it('transcription options only where the model supports them', () => {
    expect(() =>
      validateTranscriptionOptions(service('echo-transcribe'), { language: 'fr', responseFormat: 'json' }),
    ).not.toThrow();
    refuses(
      () => validateTranscriptionOptions(service('echo-transcribe-mini'), { language: 'en' }),
      /language/,
    );
  });

  it('chooses a service by alias among kinds, never an unavailable one', () => {
    const all = SERVICES as ServiceEntry[];
    expect(chooseService(all, ['text_chat']).modelAlias).toBe('atlas-chat');
    expect(() => chooseService(all, ['text_chat'], 'atlas-chat-large')).toThrow(/not available/);
    expect(() => chooseService(all, ['rerank'], 'atlas-chat')).toThrow(/No rerank service/);
  });

  it('a service without `available` is listed, never picked: only available: true is callable', () => {
    const unstated = (alias: string) => {
      const { available: _dropped, ...rest } = service(alias);
      return rest as ServiceEntry;
    };
    const list = [unstated('atlas-chat'), service('atlas-vision'), unstated('h3-video')];
    expect(chooseService(list, ['text_chat', 'vision_chat']).modelAlias).toBe('atlas-vision');
    expect(() => chooseService(list, ['text_chat'], 'atlas-chat')).toThrow(/does not say it is available/);
    expect(() => chooseService(list, ['video_generation'], 'h3-video')).toThrow(
      /does not say it is available/,
    );
    expect(serviceAvailability(list[0]!)).toBe('not_stated');
    expect(serviceAvailability(service('atlas-chat-large'))).toBe('not_available');
    expect(isCallable({ available: 'true' })).toBe(false);
  });
});

describe('formats', () => {
  it('cosine similarity matrix is symmetric with ones on the diagonal', () => {
    const m = similarityMatrix([
      [1, 0],
      [0, 1],
      [1, 1],
    ]);
    expect(m[0]).toEqual([1, 0, 0.707107]);
    expect(m[2]![0]).toBe(m[0]![2]);
  });

  it('CSV with quotes, commas, CRLF and a named column', () => {
    expect(parseCsv('a,"b,c"\r\n"d ""e""",f')).toEqual([
      ['a', 'b,c'],
      ['d "e"', 'f'],
    ]);
    expect(documentsFromFile('x.csv', '\uFEFFtitle,document\nA,first\nB,"sec\nond"\n')).toEqual([
      'first',
      'sec\nond',
    ]);
  });

  it('SRT and VTT timestamps', () => {
    const out = transcriptExports({
      text: 'a b',
      segments: [
        { id: 0, start: 0, end: 1.2345, text: 'a' },
        { id: 1, start: 61, end: 62, text: 'b' },
      ],
    });
    expect(out.srt).toBe('1\n00:00:00,000 --> 00:00:01,235\na\n\n2\n00:01:01,000 --> 00:01:02,000\nb\n');
    expect(out.vtt.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:01.235\na\n')).toBe(true);
  });
});
