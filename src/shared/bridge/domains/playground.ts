import { z } from 'zod';
import {
  PLAYGROUND_CHUNK_BYTES,
  PLAYGROUND_MAX_FILE_BYTES,
  SERVICE_CALL_OPERATIONS,
  type ServiceCallOperationName,
} from '../names.js';

/**
 * The Playground: every synchronous service (chat and vision, embeddings, rerank, OCR,
 * transcription, document parse) and the asynchronous image and audio jobs, each driven by the
 * service's live contract. Files reach the core's one staging store through
 * `bridge.stageFile(file, 'playground')` (or in bounded chunks, `playground.files.put`) and are
 * known to the renderer only by the id the core issued.
 */

const Alias = z.string().min(1).max(200);
const FileId = z.uuid();
const Json = z.record(z.string(), z.unknown());

export {
  PLAYGROUND_CHUNK_BYTES,
  PLAYGROUND_MAX_FILE_BYTES,
  SERVICE_CALL_OPERATIONS,
  type ServiceCallOperationName,
};

export const PlaygroundService = z.object({
  modelAlias: z.string(),
  serviceKind: z.string(),
  displayName: z.string(),
  /** Callable: only a service that says `available: true`. */
  available: z.boolean(),
  /** Why a service is not callable: it says `available: false`, or does not say. */
  availability: z.enum(['available', 'not_available', 'not_stated']),
  apiUsageContract: Json.nullable(),
  mediaSpecContract: Json.nullable(),
});
export type PlaygroundService = z.infer<typeof PlaygroundService>;

export const PlaygroundFile = z.object({
  fileId: FileId,
  fileName: z.string(),
  byteSize: z.number().int().nonnegative(),
});
export type PlaygroundFile = z.infer<typeof PlaygroundFile>;

export const ChatMessageView = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  text: z.string(),
  /** Attachment kinds in order (image_url, video_url). */
  attachments: z.array(z.string()),
  finishReason: z.string().nullable(),
  createdAt: z.number(),
});
export type ChatMessageView = z.infer<typeof ChatMessageView>;

export const ConversationSummary = z.object({
  id: z.string(),
  title: z.string(),
  model: z.string(),
  updatedAt: z.number(),
});
export type ConversationSummary = z.infer<typeof ConversationSummary>;

/** One journaled billed call, as the History list shows it (summaries only, never inputs). */
export const ServiceCallView = z.object({
  id: z.number(),
  operation: z.enum(SERVICE_CALL_OPERATIONS),
  model: z.string(),
  state: z.enum(['sent', 'succeeded', 'failed', 'unknown']),
  startedAt: z.number(),
  finishedAt: z.number().nullable(),
  requestId: z.string().nullable(),
  statusCode: z.number().nullable(),
  errorCode: z.string().nullable(),
});
export type ServiceCallView = z.infer<typeof ServiceCallView>;

export const ConversationView = ConversationSummary.extend({
  systemPrompt: z.string().nullable(),
  messages: z.array(ChatMessageView),
});
export type ConversationView = z.infer<typeof ConversationView>;

/** A generated result: a media URL main resolves (never a local path) and the file's name. */
export const GeneratedOutput = z.object({
  url: z.string().nullable(),
  mimeType: z.string().nullable(),
  /** The name of the file in the library (no folder). */
  fileName: z.string().nullable(),
  verified: z.boolean(),
});

export const GenerationResult = z.object({
  state: z.enum(['succeeded', 'failed', 'pending']),
  jobId: z.string().nullable(),
  status: z.string().nullable(),
  message: z.string().nullable(),
  outputs: z.array(GeneratedOutput),
});
export type GenerationResult = z.infer<typeof GenerationResult>;

const Sampling = z.record(z.string().max(100), z.union([z.number(), z.string().max(1000)]));

export const playgroundMethods = {
  'playground.services': {
    params: z.object({}).strict(),
    result: z.array(PlaygroundService),
  },
  'playground.files.put': {
    params: z
      .object({
        uploadId: FileId.optional(),
        fileName: z.string().min(1).max(500),
        offset: z.number().int().nonnegative(),
        dataBase64: z.string().max(Math.ceil((PLAYGROUND_CHUNK_BYTES * 4) / 3) + 4),
        last: z.boolean(),
      })
      .strict(),
    result: z.object({ uploadId: FileId, received: z.number().int(), file: PlaygroundFile.nullable() }),
  },
  'playground.chat.send': {
    params: z
      .object({
        streamId: z.string().min(1).max(100),
        model: Alias,
        conversationId: z.string().max(100).optional(),
        system: z.string().max(20_000).optional(),
        text: z.string().max(200_000),
        attachments: z.array(z.object({ fileId: FileId, inline: z.boolean() }).strict()).max(16),
        sampling: Sampling,
      })
      .strict(),
    result: z.object({ conversation: ConversationView }),
  },
  'playground.chat.cancel': {
    params: z.object({ streamId: z.string().min(1).max(100) }).strict(),
    result: z.object({ cancelled: z.boolean() }),
  },
  'playground.conversations.list': {
    params: z.object({ query: z.string().max(500).optional() }).strict(),
    result: z.array(ConversationSummary),
  },
  'playground.conversations.get': {
    params: z.object({ id: z.string().min(1).max(100) }).strict(),
    result: ConversationView,
  },
  'playground.calls.list': {
    params: z
      .object({
        operation: z.enum(SERVICE_CALL_OPERATIONS).optional(),
        limit: z.number().int().min(1).max(100).optional(),
      })
      .strict(),
    result: z.array(ServiceCallView),
  },
  'playground.embed': {
    params: z.object({ model: Alias, inputs: z.array(z.string().max(40_000)).max(1000) }).strict(),
    result: z.object({
      model: z.string(),
      count: z.number(),
      dimensions: z.number(),
      similarity: z.array(z.array(z.number())),
    }),
  },
  'playground.rerank': {
    params: z
      .object({
        model: Alias,
        query: z.string().max(10_000),
        documents: z.array(z.string().max(40_000)).max(5000),
        topN: z.number().int().optional(),
      })
      .strict(),
    result: z.object({
      model: z.string(),
      results: z.array(z.object({ index: z.number(), score: z.number(), text: z.string() })),
    }),
  },
  'playground.rerank.loadDocuments': {
    params: z.object({ fileId: FileId }).strict(),
    result: z.object({ documents: z.array(z.string()) }),
  },
  'playground.ocr': {
    params: z
      .object({
        model: Alias,
        fileId: FileId,
        task: z.string().max(100).optional(),
        pages: z.number().int().optional(),
      })
      .strict(),
    result: z.object({
      raw: Json,
      text: z.string().nullable(),
      boxes: z.array(
        z.object({
          text: z.string(),
          bbox: z.array(z.number()),
          confidence: z.number().nullable(),
          page: z.number().nullable(),
        }),
      ),
    }),
  },
  'playground.transcribe': {
    params: z
      .object({
        model: Alias,
        fileId: FileId,
        language: z.string().max(50).optional(),
        responseFormat: z.string().max(50).optional(),
      })
      .strict(),
    result: z.object({
      text: z.string(),
      language: z.string(),
      duration: z.number(),
      segments: z.array(z.object({ id: z.number(), start: z.number(), end: z.number(), text: z.string() })),
      exports: z.object({ txt: z.string(), srt: z.string(), vtt: z.string() }),
    }),
  },
  'playground.voices': {
    params: z.object({}).strict(),
    result: z.array(
      z.object({
        voiceId: z.string(),
        displayName: z.string(),
        primaryLanguage: z.string(),
        supportedLanguages: z.array(z.string()),
        description: z.string().nullable(),
        hasPreview: z.boolean(),
      }),
    ),
  },
  'playground.voices.preview': {
    params: z.object({ voiceId: z.string().min(1).max(200), model: Alias }).strict(),
    result: z.object({ dataUrl: z.string() }),
  },
  'playground.audio.generate': {
    params: z
      .object({
        model: Alias,
        voiceMode: z.enum(['text', 'custom_voice', 'voice_design']).optional(),
        text: z.string().max(10_000).optional(),
        speaker: z.string().max(200).optional(),
        instruct: z.string().max(10_000).optional(),
        prompt: z.string().max(20_000).optional(),
        videoFileId: FileId.optional(),
        seconds: z.number().int().optional(),
        seed: z.number().int().optional(),
      })
      .strict(),
    result: GenerationResult,
  },
  'playground.image.generate': {
    params: z
      .object({
        model: Alias,
        prompt: z.string().max(50_000),
        generationMode: z.string().max(100).optional(),
        imageCount: z.number().int().optional(),
        orientation: z.string().max(100).optional(),
        outputSizeCode: z.string().max(100).optional(),
        qualityTier: z.string().max(100).optional(),
        resolutionTier: z.string().max(100).optional(),
        seed: z.number().int().optional(),
        inputFileIds: z.array(FileId).max(16),
      })
      .strict(),
    result: GenerationResult,
  },
  'playground.parse': {
    params: z
      .object({
        model: Alias,
        fileId: FileId,
        language: z.string().max(10).optional(),
        pages: z.number().int().optional(),
        pageRange: z.object({ start: z.number().int(), end: z.number().int() }).strict().optional(),
        preset: z.string().max(100).optional(),
      })
      .strict(),
    result: z.object({
      id: z.string(),
      pageCount: z.number(),
      markdown: z.string(),
      pages: z.array(Json),
      /** Where the result was saved, relative to the library folder (never an absolute path). */
      folder: z.string(),
      /** The names of the saved files in that folder. */
      files: z.array(z.string()),
    }),
  },
} as const;

export const playgroundEvents = {
  /** A piece of a streamed chat reply, as it arrives. */
  'playground.chat.delta': z.object({ streamId: z.string(), token: z.string() }),
} as const;
