import { z } from 'zod';
import { FreeFormObject } from './common.js';

export const ChatRole = z.enum(['system', 'user', 'assistant', 'tool']);

/** Content part; allowed `type`s depend on the service (e.g. text, image_url, video_url). */
export const ChatContentPart = z
  .object({
    type: z.string().min(1),
    text: z.string().optional(),
    image_url: z.object({ url: z.string() }).loose().optional(),
    video_url: z.object({ url: z.string() }).loose().optional(),
  })
  .loose();
export type ChatContentPart = z.infer<typeof ChatContentPart>;

export const ChatMessage = z
  .object({
    role: ChatRole,
    content: z
      .union([z.string(), z.array(ChatContentPart)])
      .nullable()
      .optional(),
  })
  .loose();
export type ChatMessage = z.infer<typeof ChatMessage>;

/** Sampling fields are accepted only when the model's contract allows them, so the body stays open. */
export const ChatCompletionRequest = z
  .object({
    model: z.string().min(1),
    messages: z.array(ChatMessage).min(1),
    stream: z.boolean().default(false),
  })
  .loose();
export type ChatCompletionRequest = z.infer<typeof ChatCompletionRequest>;

export const ChatToolCall = z
  .object({
    id: z.string(),
    type: z.string(),
    function: z.object({ name: z.string(), arguments: z.string() }).loose(),
  })
  .loose();

export const ChatCompletionResponse = z
  .object({
    id: z.string(),
    object: z.string(),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z
        .object({
          index: z.int(),
          finish_reason: z.string().nullable(),
          message: z
            .object({
              role: z.string(),
              content: z.string().nullable(),
              tool_calls: z.array(ChatToolCall).optional(),
            })
            .loose(),
        })
        .loose(),
    ),
    /** Token-usage object; its fields are not shown by the spec. */
    usage: FreeFormObject,
  })
  .loose();
export type ChatCompletionResponse = z.infer<typeof ChatCompletionResponse>;

/**
 * One server-sent event `data:` payload of a streamed completion (format not shown by the spec;
 * the simulator sends OpenAI-style chunks and ends with `data: [DONE]`).
 */
export const ChatCompletionChunk = z
  .object({
    id: z.string(),
    object: z.string(),
    created: z.int(),
    model: z.string(),
    choices: z.array(
      z
        .object({
          index: z.int(),
          delta: z.object({ role: z.string().optional(), content: z.string().optional() }).loose(),
          finish_reason: z.string().nullable(),
        })
        .loose(),
    ),
    usage: FreeFormObject.optional(),
  })
  .loose();
export type ChatCompletionChunk = z.infer<typeof ChatCompletionChunk>;
