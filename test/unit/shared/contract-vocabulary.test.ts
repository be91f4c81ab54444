import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';
import { chatCapabilities } from '../../../src/main/core/operations/chat.js';
import { uploadLimitFor } from '../../../src/main/core/operations/inputs.js';
import type { ServiceEntry } from '../../../src/shared/api/discovery.js';
import {
  conflictMeaning,
  contractParameterOf,
  readApiUsage,
  readMediaSpec,
  readPromptOptimization,
  readUploadLimits,
} from '../../../src/shared/api/contract-vocabulary.js';
import { H3_DEFAULTS, H3_MODES, resolveEffectiveLimits } from '../../../src/shared/h3/effective-limits.js';

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
  const chat = (apiUsageContract: Record<string, unknown>): ServiceEntry => ({
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
    const service = { modelAlias: 'x', serviceKind: 'ocr', mediaSpecContract: contract } as ServiceEntry;
    expect(uploadLimitFor(service, 'input_image')).toEqual({ formats: ['image/png'], maxBytes: 1024 });
    expect(uploadLimitFor(service, 'input_audio')?.formats).toEqual(['audio/wav']);
  });
});

describe('mediaSpecContract and promptOptimization keys: read in the vocabulary, each with its fallback', () => {
  const H3_ROLES = Object.keys(H3_DEFAULTS.optimization.roles);

  it('a mediaSpecContract without any key (or with other types) gets every fallback', () => {
    const empty = {
      version: undefined,
      profile: undefined,
      requiredFields: [],
      forbiddenFields: [],
      parameters: [],
      prompt: {},
      modes: {},
      canvases: {},
      fps: undefined,
      maxFrames: undefined,
      uploadLimits: {},
      limits: {},
      speakers: undefined,
    };
    expect(readMediaSpec(undefined)).toEqual(empty);
    expect(readMediaSpec(null)).toEqual(empty);
    expect(readMediaSpec({})).toEqual(empty);
    expect(
      readMediaSpec({
        version: 3,
        profile: ['h3'],
        requiredFields: 'prompt',
        parameters: [{ name: 'seconds' }, 'seed'],
        prompt: { maxCodePoints: 'long', trim: 'no' },
        modes: { t2v: { frames: 'none' } },
        effectiveSpec: { fps: '24', canvases: { '768p': { landscape: { width: 'wide' } } } },
        limits: { textMaxCharacters: '600', instructMaxCharacters: 0 },
        speakers: 'Vivian',
      }),
    ).toEqual({ ...empty, canvases: { '768p': {} } });
    // a speakers list keeps its strings only; limits that are not positive numbers are not limits
    expect(readMediaSpec({ speakers: ['Vivian', 7, null, 'Ryan'] }).speakers).toEqual(['Vivian', 'Ryan']);
    expect(readMediaSpec({ limits: [600] }).limits).toEqual({});
    expect(readMediaSpec({ limits: { textMaxCharacters: -1, instructMaxCharacters: NaN } }).limits).toEqual(
      {},
    );
    // and the limits are then the document's H3 numbers
    const limits = resolveEffectiveLimits({ parameters: 'none', prompt: 7, effectiveSpec: [] });
    expect([limits.prompt, limits.seconds, limits.fps, limits.resolutionTiers]).toEqual([
      H3_DEFAULTS.prompt,
      H3_DEFAULTS.seconds,
      H3_DEFAULTS.fps,
      H3_DEFAULTS.resolutionTiers,
    ]);
    expect(Object.keys(limits.modes)).toEqual(H3_MODES);
  });

  it('each published mediaSpecContract key is read under its name', () => {
    const spec = readMediaSpec({
      version: '2',
      profile: 'speech',
      requiredFields: ['prompt'],
      forbiddenFields: ['fps'],
      parameters: [{ name: 'seconds', type: 'integer', minimum: 4 }],
      prompt: { minCodePoints: 2, maxCodePoints: 900, trim: false },
      modes: { edit: { frames: { input_image_asset_id: 'first_frame' }, maxInputImages: 3 } },
      effectiveSpec: {
        fps: 30,
        maxFrames: 480,
        canvases: { '1080p': { square: { width: 1080, height: 1080 } } },
      },
      limits: { textMaxCharacters: 300, instructMaxCharacters: 80 },
      speakers: ['Vivian', 'Ryan'],
    });
    expect(spec).toMatchObject({
      version: '2',
      profile: 'speech',
      requiredFields: ['prompt'],
      forbiddenFields: ['fps'],
      prompt: { minCodePoints: 2, maxCodePoints: 900, trim: false },
      modes: { edit: { frames: { input_image_asset_id: 'first_frame' }, maxInputImages: 3 } },
      canvases: { '1080p': { square: { width: 1080, height: 1080 } } },
      fps: 30,
      maxFrames: 480,
      limits: { textMaxCharacters: 300, instructMaxCharacters: 80 },
      speakers: ['Vivian', 'Ryan'],
    });
    expect(contractParameterOf(spec, 'seconds')?.minimum).toBe(4);
    expect(contractParameterOf(spec, 'seed')).toBeUndefined();
  });

  it('a promptOptimization object without any key gets every fallback; no object means no optimizer', () => {
    expect(readPromptOptimization(undefined, H3_ROLES)).toEqual({
      available: false,
      profileNames: [],
      sources: [],
      clientTimeoutSeconds: undefined,
      originalPrompt: {},
      clientRequestId: {},
    });
    const silent = readPromptOptimization({}, H3_ROLES);
    expect(silent.available).toBe(true);
    expect(silent.sources).toEqual([
      {
        modes: undefined,
        styleAllowed: undefined,
        styleMinCodePoints: undefined,
        styleMaxCodePoints: undefined,
        roles: {},
        modeRoles: {},
        maxItems: undefined,
        minVisual: undefined,
      },
    ]);
    // and the optimizer's limits are then H3's
    const { optimization } = resolveEffectiveLimits(undefined, { clientTimeoutSeconds: 'slow' });
    expect(optimization).toMatchObject({
      available: true,
      profileNames: H3_DEFAULTS.optimization.profileNames,
      clientTimeoutSeconds: H3_DEFAULTS.optimization.clientTimeoutSeconds,
      style: H3_DEFAULTS.optimization.style,
      roles: H3_DEFAULTS.optimization.roles,
      clientRequestId: H3_DEFAULTS.optimization.clientRequestId,
    });
    expect(readPromptOptimization({ available: false }, H3_ROLES).available).toBe(false);
    expect(readPromptOptimization({ enabled: false }, H3_ROLES).available).toBe(false);
  });

  it('each published promptOptimization key is read under its name, top level then profiles', () => {
    const po = readPromptOptimization(
      {
        profiles: [{ name: 'typed-media/v2', modes: ['i2v'], style: { allowed: false, maxLength: 80 } }],
        clientTimeoutSeconds: 240,
        originalPromptMaxCodePoints: 5000,
        clientRequestId: { minLength: 10, pattern: '^[a-z]+$' },
        roles: { reference_image: 6, i2v: { first_frame: { min: 1 }, maxItems: 2 } },
        maxReferenceInputs: 10,
      },
      H3_ROLES,
    );
    expect(po.profileNames).toEqual(['typed-media/v2']);
    expect(po.clientTimeoutSeconds).toBe(240);
    expect(po.originalPrompt).toEqual({ maxCodePoints: 5000 });
    expect(po.clientRequestId).toEqual({ minLength: 10, pattern: '^[a-z]+$' });
    expect(po.sources[0]).toMatchObject({
      roles: { reference_image: 6 },
      modeRoles: { i2v: { roles: { first_frame: { min: 1 } }, maxItems: 2 } },
      maxItems: 10,
    });
    expect(po.sources[1]).toMatchObject({ modes: ['i2v'], styleAllowed: false, styleMaxCodePoints: 80 });
  });
});
