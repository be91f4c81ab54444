import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/platform/api-errors.js';
import { chatCapabilities } from '../../../src/main/core/services/chat.js';
import { uploadLimitFor } from '../../../src/main/core/services/inputs.js';
import type { PublicService } from '../../../src/shared/api/discovery.js';
import {
  conflictMeaning,
  readApiUsage,
  readUploadLimits,
} from '../../../src/shared/api/contract-vocabulary.js';

const conflict = (apiCode: string) =>
  new ApiError({ status: 409, apiCode, message: 'Refused.', requestId: 'req_1', retryable: false });

describe('409 by its code', () => {
  it('tells an idempotency conflict from "service not available"; an unknown code is unrecognised', () => {
    expect(conflictMeaning('idempotency_conflict')).toBe('idempotency_conflict');
    expect(conflictMeaning('service_not_available')).toBe('service_not_available');
    expect(conflictMeaning('something_else')).toBe('unrecognised');
  });

  it('"service not available" says so and what to do; an idempotency conflict says the key was used', () => {
    expect(conflict('service_not_available').message).toMatch(
      /not available right now; choose a service that is available/,
    );
    expect(conflict('idempotency_conflict').message).toMatch(/already used with a different body/);
    expect(conflict('something_else').message).toMatch(/see the code above/);
    expect(conflict('service_not_available').kind).toBe('conflict');
  });
});

describe('contract vocabulary: every key read in one place, with its fallback', () => {
  const chat = (apiUsageContract: Record<string, unknown>): PublicService => ({
    modelAlias: 'some-vision',
    serviceKind: 'vision_chat',
    available: true,
    apiUsageContract,
  });

  it('inline images come from the inlineImages flag, never from prose', () => {
    const prose = { contentPartTypes: ['text', 'image_url'], mediaUrls: 'images may be inline data: URLs' };
    expect(chatCapabilities(chat(prose)).inlineImages).toBe(false);
    expect(chatCapabilities(chat({ ...prose, inlineImages: true })).inlineImages).toBe(true);
    // the flag without an image part type offers nothing
    expect(readApiUsage({ contentPartTypes: ['text'], inlineImages: true }).inlineImages).toBe(false);
    expect(
      chatCapabilities(chat({ contentPartTypes: ['text', 'image_url'], mediaUrls: 'no inline data' }))
        .inlineImages,
    ).toBe(false);
  });

  it('a contract that lacks a key (or gives another type) gets the documented fallback', () => {
    expect(readApiUsage(undefined)).toEqual({
      contentPartTypes: ['text'],
      samplingFields: [],
      inlineImages: false,
      chatStreams: true,
      supportsTopN: false,
      ocrTasks: undefined,
      supportsDocumentAsset: false,
      maxItems: undefined,
      maxCharactersPerItem: undefined,
      maxFileBytes: undefined,
      supportsLanguage: false,
      languages: undefined,
      responseFormats: [],
    });
    const odd = readApiUsage({
      samplingFields: 'temperature',
      supportsTopN: 'yes',
      maxItems: -1,
      operations: { chat: { stream: false } },
    });
    expect([odd.samplingFields, odd.supportsTopN, odd.maxItems, odd.chatStreams]).toEqual([
      [],
      false,
      undefined,
      false,
    ]);
  });

  it('uploadLimits: a well-formed rule is read, a malformed one falls back to the general limit', () => {
    const contract = {
      uploadLimits: {
        input_image: { formats: ['image/png'], maxBytes: 1024 },
        input_audio: { maxBytes: 'big' },
      },
    };
    expect(readUploadLimits(contract)).toEqual({ input_image: { formats: ['image/png'], maxBytes: 1024 } });
    const service = { modelAlias: 'x', serviceKind: 'ocr', mediaSpecContract: contract } as PublicService;
    expect(uploadLimitFor(service, 'input_image')).toEqual({ formats: ['image/png'], maxBytes: 1024 });
    expect(uploadLimitFor(service, 'input_audio')?.formats).toEqual(['audio/wav']);
  });
});
