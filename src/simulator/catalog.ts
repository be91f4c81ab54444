import { createHash } from 'node:crypto';
import type { CatalogVoice, PublicModel, ServiceEntry } from '../shared/api/discovery.js';
import type { MediaSpecContract, RoleUploadLimit } from '../shared/api/media-spec-contract.js';
import { OPTIMIZATION_PROFILE } from '../shared/api/prompt-optimization.js';
import { H3_PROMPT_CODE_POINTS } from '../shared/api/spec-limits.js';

/**
 * Discovery data of the simulator: public aliases only, several services per kind, some not
 * available. The H3 rules the simulator enforces are read from the contract published here.
 */

const MiB = 1024 * 1024;

export const H3_ALIAS = 'h3-video';
export const H3_FPS = 24;
export const H3_MAX_FRAMES = 362;
export const H3_CANVASES = {
  '768p': { landscape: { width: 1376, height: 768 }, portrait: { width: 768, height: 1376 } },
} as const;

export const IMAGE_FORMATS = ['image/png', 'image/jpeg', 'image/webp'];
export const H3_AUDIO_FORMATS = [
  'audio/wav',
  'audio/mpeg',
  'audio/flac',
  'audio/x-m4a',
  'audio/mp4',
  'audio/aac',
  'audio/ogg',
  'video/quicktime',
];

/** Limits of the general upload rule (used when a contract publishes none). */
export const GENERAL_UPLOAD_LIMITS: Record<string, RoleUploadLimit> = {
  input_image: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
  input_audio: { formats: ['audio/wav'], maxBytes: 25 * MiB },
  input_video: { formats: ['video/mp4'], maxBytes: 128 * MiB },
};

export const H3_FORBIDDEN_FIELDS = [
  'fps',
  'frame_rate',
  'frameRate',
  'frames',
  'frame_count',
  'frameCount',
  'num_frames',
  'numFrames',
  'width',
  'height',
  'steps',
  'num_inference_steps',
  'numInferenceSteps',
  'inference_steps',
  'device',
  'devices',
  'gpu',
  'gpus',
  'num_gpus',
  'runtime',
  'runtimeSettings',
  'runtime_settings',
  'precision',
  'dtype',
];

export const H3_MEDIA_SPEC_CONTRACT: MediaSpecContract = {
  version: '2026-11-01',
  profile: 'h3',
  requiredFields: ['model', 'prompt', 'generationMode', 'resolutionTier', 'orientation', 'seconds'],
  forbiddenFields: H3_FORBIDDEN_FIELDS,
  parameters: [
    {
      name: 'generationMode',
      type: 'enum',
      required: true,
      description: 'How the video is generated; decides which inputs are taken.',
      values: ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'],
      default: 't2v',
    },
    {
      name: 'resolutionTier',
      type: 'enum',
      required: true,
      description: 'Output resolution tier.',
      values: ['768p'],
      default: '768p',
    },
    {
      name: 'orientation',
      type: 'enum',
      required: true,
      description: 'Landscape 1376x768 or portrait 768x1376.',
      values: ['landscape', 'portrait'],
      default: 'landscape',
    },
    {
      name: 'seconds',
      type: 'integer',
      required: true,
      description: 'Requested length; the final media duration and frame count may differ.',
      minimum: 5,
      maximum: 15,
      default: 5,
    },
    {
      name: 'seed',
      type: 'integer',
      required: false,
      description: 'Omitted means the platform decides; keep it unchanged on an idempotent retry.',
      minimum: 0,
      maximum: 2147483647,
    },
    {
      name: 'prompt',
      type: 'string',
      required: true,
      description: '1..7000 Unicode code points after trimming.',
      maxLength: H3_PROMPT_CODE_POINTS.max,
    },
    {
      name: 'input_image_asset_id',
      type: 'string',
      required: true,
      description: 'First-frame image asset.',
      modes: ['i2v', 'first_last_frame_video'],
    },
    {
      name: 'end_image_asset_id',
      type: 'string',
      required: true,
      description: 'Last-frame image asset.',
      modes: ['first_last_frame_video'],
    },
    {
      name: 'referenceInputs',
      type: 'array',
      required: true,
      description: 'Typed references (reference_image, reference_video, reference_audio).',
      modes: ['universal_reference_video'],
    },
  ],
  prompt: { minCodePoints: H3_PROMPT_CODE_POINTS.min, maxCodePoints: H3_PROMPT_CODE_POINTS.max, trim: true },
  modes: {
    t2v: { frames: {} },
    i2v: { frames: { input_image_asset_id: 'first_frame' } },
    first_last_frame_video: {
      frames: { input_image_asset_id: 'first_frame', end_image_asset_id: 'last_frame' },
    },
    universal_reference_video: {
      referenceInputs: {
        maxItems: 12,
        maxImages: 9,
        maxImagesWithVideo: 8,
        maxVideos: 1,
        maxAudios: 3,
        minVisual: 1,
      },
    },
  },
  effectiveSpec: { fps: H3_FPS, maxFrames: H3_MAX_FRAMES, canvases: H3_CANVASES },
  uploadLimits: {
    first_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    last_frame: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
    reference_image: { formats: IMAGE_FORMATS, maxBytes: 30 * MiB },
    reference_video: { formats: ['video/mp4'], maxBytes: 50 * MiB },
    reference_audio: {
      formats: H3_AUDIO_FORMATS,
      maxBytes: 15 * MiB,
      minSeconds: 2,
      maxSeconds: 15,
      maxTotalSeconds: 15,
      maxCount: 3,
      movWithAudioField: 'audio',
    },
  },
};

const H3_PROMPT_OPTIMIZATION = {
  available: true,
  profiles: [
    {
      name: OPTIMIZATION_PROFILE,
      generationModes: ['t2v', 'i2v', 'first_last_frame_video', 'universal_reference_video'],
      roles: {
        t2v: {},
        i2v: { first_frame: { min: 1, max: 1 } },
        first_last_frame_video: { first_frame: { min: 1, max: 1 }, last_frame: { min: 1, max: 1 } },
        universal_reference_video: {
          reference_image: { min: 0, max: 9, maxWithVideo: 8 },
          reference_video: { min: 0, max: 1 },
          reference_audio: { min: 0, max: 3 },
          minVisual: 1,
          maxItems: 12,
        },
      },
      mediaSpecKeys: ['resolutionTier', 'orientation', 'seconds'],
    },
  ],
  clientTimeoutSeconds: 180,
  expectedDurationSeconds: { min: 0, max: 180 },
  originalPromptMaxCodePoints: H3_PROMPT_CODE_POINTS.max,
  optimizedPromptTargetCodePoints: 6000,
  optimizedPromptMaxCodePoints: H3_PROMPT_CODE_POINTS.max,
  styleAllowed: true,
  styleMaxCodePoints: 200,
  audioReferencePolicies: ['preserve_without_understanding'],
  clientRequestId: { minLength: 8, maxLength: 128, pattern: '^[A-Za-z0-9._:-]+$' },
  idempotencyKeyEqualsClientRequestId: true,
};

/** A service entry plus what the simulator needs to serve it. */
export interface CatalogService extends ServiceEntry {
  modelAlias: string;
  serviceKind: string;
  available: boolean;
  publicationId: string;
}

function publicationId(alias: string): string {
  return (
    'pub_' +
    createHash('sha256')
      .update('publication:' + alias)
      .digest('hex')
      .slice(0, 12)
  );
}

interface ServiceInput {
  modelAlias: string;
  serviceKind: string;
  available: boolean;
  serviceDisplayName: string;
  endpoints?: Record<string, string>;
  apiUsageContract?: Record<string, unknown>;
  mediaSpecContract?: Record<string, unknown>;
  promptOptimization?: Record<string, unknown>;
}

function service(entry: ServiceInput): CatalogService {
  return {
    id: `svc_${entry.modelAlias}`,
    object: 'service',
    publicationId: publicationId(entry.modelAlias),
    ...entry,
  };
}

const asyncRead = (path: string) => ({
  pattern: 'asynchronous-read',
  create: `POST ${path}`,
  poll: 'GET /jobs/{jobId}?model=<alias> (use jobUrl as returned)',
  download: 'GET /assets/{assetId}/content?model=<alias>',
  idempotencyHeader: 'Idempotency-Key',
});

export const VOICES: CatalogVoice[] = [
  {
    voiceId: 'amber',
    version: 2,
    previewAssetId: 'voicepreview_amber_v2',
    displayName: 'Amber',
    primaryLanguage: 'en',
    supportedLanguages: ['en', 'fr'],
    description: 'Warm, clear narration voice.',
    tags: ['narration', 'warm'],
  },
  {
    voiceId: 'basalt',
    version: 1,
    previewAssetId: 'voicepreview_basalt_v1',
    displayName: 'Basalt',
    primaryLanguage: 'en',
    supportedLanguages: ['en'],
    description: 'Low, calm voice for trailers.',
    tags: ['trailer', 'deep'],
  },
  {
    voiceId: 'cirrus',
    version: 1,
    previewAssetId: 'voicepreview_cirrus_v1',
    displayName: 'Cirrus',
    primaryLanguage: 'zh',
    supportedLanguages: ['zh', 'en'],
    description: 'Bright, fast conversational voice.',
    tags: ['conversational'],
  },
];

/** Speech services whose model scope serves the voice previews (`previewAssetId`). */
export const VOICE_PREVIEW_MODELS = ['cadence-speech'];

/** Flite voice that renders each published speaker (synthetic speech). */
export const VOICE_RENDER: Record<string, string> = { amber: 'slt', basalt: 'kal', cirrus: 'awb' };

const SAMPLING_FIELDS = [
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'presence_penalty',
  'frequency_penalty',
];
const PLATFORM_MANAGED_SAMPLING = [
  'seed',
  'n',
  'top_k',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'repetition_penalty',
];

export const SERVICES: CatalogService[] = [
  service({
    modelAlias: H3_ALIAS,
    serviceKind: 'video_generation',
    available: true,
    serviceDisplayName: 'H3 Video',
    endpoints: {
      create: '/media/generations',
      poll: '/jobs/{jobId}',
      content: '/assets/{assetId}/content',
      upload: '/assets/input',
      promptOptimization: '/media/prompt-optimizations',
      admissionPreview: '/admission/preview',
    },
    apiUsageContract: {
      version: '2026-11-01',
      operations: {
        create: { ...asyncRead('/media/generations'), successStatus: 202 },
        upload: {
          method: 'POST',
          path: '/assets/input?model=<alias>',
          fields: ['file', 'image', 'video', 'audio'],
        },
        optimizePrompt: { method: 'POST', path: '/media/prompt-optimizations', successStatus: 201 },
      },
      fields: H3_MEDIA_SPEC_CONTRACT.requiredFields?.concat([
        'seed',
        'input_image_asset_id',
        'end_image_asset_id',
        'referenceInputs',
      ]),
      examples: [
        {
          model: H3_ALIAS,
          prompt: 'A lighthouse at dusk',
          generationMode: 't2v',
          resolutionTier: '768p',
          orientation: 'landscape',
          seconds: 5,
        },
      ],
      outputs: { kinds: ['video'], mimeType: 'video/mp4', audio: 'stereo AAC' },
    },
    mediaSpecContract: H3_MEDIA_SPEC_CONTRACT,
    promptOptimization: H3_PROMPT_OPTIMIZATION,
  }),
  service({
    modelAlias: 'h3-video-preview',
    serviceKind: 'video_generation',
    available: false,
    serviceDisplayName: 'H3 Video (preview channel)',
    endpoints: { create: '/media/generations' },
    mediaSpecContract: H3_MEDIA_SPEC_CONTRACT,
    promptOptimization: { available: false },
  }),
  service({
    modelAlias: 'lumen-image',
    serviceKind: 'image_generation',
    available: true,
    serviceDisplayName: 'Lumen Image',
    endpoints: { create: '/images/generations', upload: '/assets/input' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { create: { ...asyncRead('/images/generations'), successStatus: 202 } },
    },
    mediaSpecContract: {
      version: '2026-11-01',
      profile: 'lumen-image',
      requiredFields: ['model', 'prompt'],
      parameters: [
        {
          name: 'generationMode',
          type: 'enum',
          required: false,
          values: ['t2i', 'i2i'],
          default: 't2i',
          description: 'Text or image to image.',
        },
        {
          name: 'imageCount',
          type: 'integer',
          required: false,
          minimum: 1,
          maximum: 4,
          default: 1,
          description: 'Images per job.',
        },
        {
          name: 'orientation',
          type: 'enum',
          required: false,
          values: ['square', 'landscape', 'portrait'],
          default: 'square',
          description: 'Canvas shape.',
        },
        {
          name: 'outputSizeCode',
          type: 'enum',
          required: false,
          values: ['1k'],
          default: '1k',
          description: 'Output size class.',
        },
        {
          name: 'qualityTier',
          type: 'enum',
          required: false,
          values: ['standard', 'high'],
          default: 'standard',
          description: 'Quality tier.',
        },
        {
          name: 'seed',
          type: 'integer',
          required: false,
          minimum: 0,
          maximum: 2147483647,
          description: 'Seed.',
        },
        {
          name: 'prompt',
          type: 'string',
          required: true,
          maxLength: 2000,
          description: '1..2000 code points after trimming.',
        },
      ],
      prompt: { minCodePoints: 1, maxCodePoints: 2000, trim: true },
      modes: {
        t2i: { frames: {} },
        i2i: { frames: { input_image_asset_id: 'input_image' }, maxInputImages: 4 },
      },
      effectiveSpec: {
        canvases: {
          '1k': {
            square: { width: 1024, height: 1024 },
            landscape: { width: 1344, height: 768 },
            portrait: { width: 768, height: 1344 },
          },
        },
      },
      uploadLimits: { input_image: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB } },
    },
  }),
  service({
    modelAlias: 'lumen-image-xl',
    serviceKind: 'image_generation',
    available: false,
    serviceDisplayName: 'Lumen Image XL',
    endpoints: { create: '/images/generations' },
  }),
  service({
    modelAlias: 'cadence-speech',
    serviceKind: 'audio_generation',
    available: true,
    serviceDisplayName: 'Cadence Speech',
    endpoints: { create: '/audio/generations', voices: '/audio/voices' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { create: { ...asyncRead('/audio/generations'), successStatus: 202 } },
    },
    mediaSpecContract: {
      version: '2026-11-01',
      profile: 'speech',
      requiredFields: ['model', 'text'],
      parameters: [
        {
          name: 'generationMode',
          type: 'enum',
          required: false,
          values: ['speech'],
          default: 'speech',
          description: 'Text to speech.',
        },
        {
          name: 'voiceMode',
          type: 'enum',
          required: false,
          values: ['text', 'custom_voice', 'voice_design'],
          default: 'text',
          description: 'How the voice is chosen.',
        },
        {
          name: 'text',
          type: 'string',
          required: true,
          maxLength: 600,
          description: 'Text to speak, at most 600 characters.',
        },
        {
          name: 'speaker',
          type: 'enum',
          required: false,
          values: VOICES.map((v) => v.voiceId),
          modes: ['custom_voice'],
          description: 'Required with custom_voice.',
        },
        {
          name: 'instruct',
          type: 'string',
          required: false,
          maxLength: 160,
          modes: ['voice_design'],
          description: 'Voice description, required with voice_design.',
        },
        { name: 'seed', type: 'integer', required: false, description: 'Seed.' },
      ],
      speakers: VOICES.map((v) => v.voiceId),
      limits: { textMaxCharacters: 600, instructMaxCharacters: 160 },
    },
  }),
  service({
    modelAlias: 'cadence-music',
    serviceKind: 'audio_generation',
    available: true,
    serviceDisplayName: 'Cadence Music',
    endpoints: { create: '/audio/generations' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { create: { ...asyncRead('/audio/generations'), successStatus: 202 } },
    },
    mediaSpecContract: {
      version: '2026-11-01',
      profile: 'music',
      requiredFields: ['model', 'prompt'],
      parameters: [
        {
          name: 'generationMode',
          type: 'enum',
          required: false,
          values: ['music'],
          default: 'music',
          description: 'Music.',
        },
        {
          name: 'prompt',
          type: 'string',
          required: true,
          maxLength: 1000,
          description: 'Music description.',
        },
        {
          name: 'seconds',
          type: 'integer',
          required: false,
          minimum: 5,
          maximum: 30,
          default: 10,
          description: 'Length.',
        },
        { name: 'seed', type: 'integer', required: false, description: 'Seed.' },
      ],
    },
  }),
  service({
    modelAlias: 'cadence-foley',
    serviceKind: 'audio_generation',
    available: true,
    serviceDisplayName: 'Cadence Foley',
    endpoints: { create: '/audio/generations', upload: '/assets/input' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { create: { ...asyncRead('/audio/generations'), successStatus: 202 } },
    },
    mediaSpecContract: {
      version: '2026-11-01',
      profile: 'foley',
      requiredFields: ['model', 'input_video_asset_id'],
      parameters: [
        {
          name: 'generationMode',
          type: 'enum',
          required: false,
          values: ['foley'],
          default: 'foley',
          description: 'Video Foley.',
        },
        { name: 'input_video_asset_id', type: 'string', required: true, description: 'Video to score.' },
        {
          name: 'prompt',
          type: 'string',
          required: false,
          maxLength: 1000,
          description: 'Sound description.',
        },
        {
          name: 'seconds',
          type: 'integer',
          required: false,
          minimum: 1,
          maximum: 15,
          description: 'Defaults to the video length (at most 15).',
        },
        { name: 'seed', type: 'integer', required: false, description: 'Seed.' },
      ],
      uploadLimits: { input_video: { formats: ['video/mp4'], maxBytes: 128 * MiB } },
    },
  }),
  service({
    modelAlias: 'folio-parse',
    serviceKind: 'document_parse',
    available: true,
    serviceDisplayName: 'Folio Document Parse',
    endpoints: { parse: '/documents/parse', upload: '/assets/input' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { parse: { method: 'POST', path: '/documents/parse', synchronous: true } },
    },
    mediaSpecContract: {
      version: '2026-11-01',
      profile: 'document',
      requiredFields: ['model', 'input_document_asset_id'],
      parameters: [
        {
          name: 'language',
          type: 'enum',
          required: false,
          values: ['ch', 'en'],
          description: 'Document language.',
        },
        {
          name: 'pages',
          type: 'integer',
          required: false,
          minimum: 1,
          maximum: 500,
          description: 'Page count.',
        },
        {
          name: 'preset',
          type: 'enum',
          required: false,
          values: ['hybrid-medium', 'hybrid-high'],
          description: 'Parse preset.',
        },
      ],
      uploadLimits: {
        input_document: { formats: ['application/pdf'], maxBytes: 64 * MiB },
        input_image: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
      },
    },
  }),
  service({
    modelAlias: 'atlas-chat',
    serviceKind: 'text_chat',
    available: true,
    serviceDisplayName: 'Atlas Chat',
    endpoints: { chat: '/chat/completions' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { chat: { method: 'POST', path: '/chat/completions', stream: true } },
      contentPartTypes: ['text'],
      samplingFields: SAMPLING_FIELDS,
      platformManagedFields: PLATFORM_MANAGED_SAMPLING,
    },
  }),
  service({
    modelAlias: 'atlas-vision',
    serviceKind: 'vision_chat',
    available: true,
    serviceDisplayName: 'Atlas Vision',
    endpoints: { chat: '/chat/completions', upload: '/assets/input' },
    apiUsageContract: {
      version: '2026-11-01',
      operations: { chat: { method: 'POST', path: '/chat/completions', stream: true } },
      contentPartTypes: ['text', 'image_url', 'video_url'],
      mediaUrls: 'platform asset content URLs of this identity and model; images may be inline data: URLs',
      inlineImages: true,
      samplingFields: ['temperature', 'max_tokens'],
      platformManagedFields: PLATFORM_MANAGED_SAMPLING.concat([
        'top_p',
        'stop',
        'presence_penalty',
        'frequency_penalty',
      ]),
    },
  }),
  service({
    modelAlias: 'atlas-chat-large',
    serviceKind: 'text_chat',
    available: false,
    serviceDisplayName: 'Atlas Chat Large',
    endpoints: { chat: '/chat/completions' },
  }),
  service({
    modelAlias: 'vector-embed',
    serviceKind: 'embeddings',
    available: true,
    serviceDisplayName: 'Vector Embeddings',
    endpoints: { embeddings: '/embeddings' },
    apiUsageContract: { version: '2026-11-01', dimensions: 256, maxItems: 64, maxCharactersPerItem: 8192 },
  }),
  service({
    modelAlias: 'vector-rerank',
    serviceKind: 'rerank',
    available: true,
    serviceDisplayName: 'Vector Rerank',
    endpoints: { rerank: '/rerank' },
    apiUsageContract: {
      version: '2026-11-01',
      supportsTopN: true,
      queryMax: 1024,
      maxDocuments: 256,
      documentMax: 8192,
      totalMax: 65536,
    },
  }),
  service({
    modelAlias: 'vector-rerank-lite',
    serviceKind: 'rerank',
    available: true,
    serviceDisplayName: 'Vector Rerank Lite',
    endpoints: { rerank: '/rerank' },
    apiUsageContract: {
      version: '2026-11-01',
      supportsTopN: false,
      queryMax: 1024,
      maxDocuments: 256,
      documentMax: 8192,
      totalMax: 65536,
    },
  }),
  service({
    modelAlias: 'glyph-ocr',
    serviceKind: 'ocr',
    available: true,
    serviceDisplayName: 'Glyph OCR',
    endpoints: { ocr: '/ocr', upload: '/assets/input' },
    apiUsageContract: { version: '2026-11-01', tasks: ['ocr', 'layout'], supportsDocumentAsset: true },
    mediaSpecContract: {
      version: '2026-11-01',
      uploadLimits: {
        input_image: { formats: IMAGE_FORMATS, maxBytes: 16 * MiB },
        input_document: { formats: ['application/pdf'], maxBytes: 64 * MiB },
      },
    },
  }),
  service({
    modelAlias: 'echo-transcribe',
    serviceKind: 'audio_transcription',
    available: true,
    serviceDisplayName: 'Echo Transcribe',
    endpoints: { transcriptions: '/audio/transcriptions' },
    apiUsageContract: {
      version: '2026-11-01',
      multipart: true,
      maxFileBytes: 25 * MiB,
      supportsLanguage: true,
      languages: ['en', 'zh', 'fr', 'de', 'es'],
      responseFormats: ['json', 'verbose_json'],
    },
  }),
  service({
    modelAlias: 'echo-transcribe-mini',
    serviceKind: 'audio_transcription',
    available: true,
    serviceDisplayName: 'Echo Transcribe Mini',
    endpoints: { transcriptions: '/audio/transcriptions' },
    apiUsageContract: {
      version: '2026-11-01',
      multipart: true,
      maxFileBytes: 25 * MiB,
      supportsLanguage: false,
      responseFormats: [],
    },
  }),
];

export function findService(alias: string): CatalogService | undefined {
  return SERVICES.find((entry) => entry.modelAlias === alias);
}

/** The public view of a service (no simulator-only fields). */
export function publicService(entry: CatalogService): ServiceEntry {
  const { publicationId: _publicationId, ...rest } = entry;
  return structuredClone(rest);
}

export function listModels(): PublicModel[] {
  return SERVICES.map((entry) => {
    const model: PublicModel = { id: entry.modelAlias, object: 'model', owned_by: 'framewright-simulator' };
    const contract = entry.mediaSpecContract as MediaSpecContract | undefined;
    if (contract?.parameters) {
      model.mediaSpecContract = {
        version: contract.version ?? '1',
        parameters: contract.parameters.map((p) => ({
          name: p.name,
          type: p.type,
          required: p.required ?? false,
          description: p.description ?? '',
        })),
      };
    }
    return model;
  });
}

export function findVoice(voiceId: string): CatalogVoice | undefined {
  return VOICES.find((voice) => voice.voiceId === voiceId);
}

/** Upload limits per role of a service: its contract's, or the general ones. */
export function uploadLimitsFor(entry: CatalogService): Record<string, RoleUploadLimit> {
  const contract = entry.mediaSpecContract as MediaSpecContract | undefined;
  return contract?.uploadLimits ?? GENERAL_UPLOAD_LIMITS;
}

export function mediaSpecContractOf(entry: CatalogService): MediaSpecContract | undefined {
  return entry.mediaSpecContract as MediaSpecContract | undefined;
}

/** The asset kind each upload/input role takes. */
export const ROLE_KIND: Record<string, 'image' | 'video' | 'audio' | 'document'> = {
  first_frame: 'image',
  last_frame: 'image',
  reference_image: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
  input_image: 'image',
  input_video: 'video',
  input_audio: 'audio',
  input_document: 'document',
};
