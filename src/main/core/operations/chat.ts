import { readApiUsage } from '../../../shared/api/contract-vocabulary.js';
import { readFile } from 'node:fs/promises';
import { createParser } from 'eventsource-parser';
import {
  ChatCompletionChunk,
  ChatCompletionResponse,
  type ChatContentPart,
  type ChatMessage,
} from '../../../shared/api/chat.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { AppError } from '../errors.js';
import type { Conversation, ConversationMessage } from '../journal/conversations-repository.js';
import type { Journal } from '../journal/open-journal.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import { ResponseShapeError } from '../api-clients/api-errors.js';
import { BodyTooLargeError, MAX_JSON_BODY_BYTES, MAX_SSE_EVENT_BYTES } from '../api-clients/capped-body.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import type { UploadedInput } from '../uploads/upload-input.js';
import { checkProbedFile, withUploadedInputs } from './inputs.js';
import { InputLimitError, readJson, sendWithRetry } from './service-common.js';
import { WORKING_CALL_TIMEOUT_MS } from '../../../shared/wait-defaults.js';

export type SamplingValue = number | string | string[];

export interface ChatCapabilities {
  /** Content part types the model takes (e.g. text, image_url, video_url). */
  partTypes: string[];
  /** Sampling fields the model's contract allows; no others are ever offered or sent. */
  samplingFields: string[];
  /** Images may be sent inline as data: URLs. */
  inlineImages: boolean;
  streaming: boolean;
}

export function chatCapabilities(service: ServiceEntry): ChatCapabilities {
  const usage = readApiUsage(service.apiUsageContract);
  return {
    partTypes: usage.contentPartTypes,
    samplingFields: usage.samplingFields,
    inlineImages: usage.inlineImages,
    streaming: usage.chatStreams,
  };
}

/** Refuses any sampling field the model's contract does not allow (platform-managed fields included). */
export function validateSampling(service: ServiceEntry, sampling: Record<string, SamplingValue> = {}): void {
  const allowed = chatCapabilities(service).samplingFields;
  for (const [field, value] of Object.entries(sampling)) {
    if (!allowed.includes(field))
      throw new InputLimitError(
        field,
        `${field} is not accepted by ${service.modelAlias}${allowed.length ? ` (it takes ${allowed.join(', ')})` : ' (it takes no sampling fields)'}.`,
      );
    if (typeof value === 'number' && !Number.isFinite(value))
      throw new InputLimitError(field, `${field} must be a number.`);
  }
}

export interface StreamedReply {
  id?: string;
  content: string;
  finishReason: string | null;
  usage?: Record<string, unknown>;
}

/** The text of a message's content (parts other than text are shown as [type]). */
export function textOfContent(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  if (!content) return '';
  return content.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join(' ');
}

/**
 * `POST /chat/completions` with `stream: true` (unless the body says false): server-sent events parsed by eventsource-parser;
 * `onToken` gets each piece as it arrives. The reply is returned only when the stream finished
 * (a finish_reason or `[DONE]`); an abort throws `chat.cancelled`, a broken stream `chat.stream_broken`,
 * an event over 1 MiB or a reply stream over 16 MiB (decompressed) `api.body_too_large`.
 */
export async function streamChat(
  client: PublicApiClient,
  body: Record<string, unknown>,
  options: { signal?: AbortSignal; onToken?: (token: string) => void } = {},
): Promise<StreamedReply> {
  const signal = options.signal ?? AbortSignal.timeout(WORKING_CALL_TIMEOUT_MS);
  let response: Response;
  try {
    response = await sendWithRetry(
      () => client.chatCompletions({ ...body, stream: body.stream ?? true }, { signal }),
      { signal, clock: client.clock, operation: 'Chat' },
    );
  } catch (error) {
    if (options.signal?.aborted) throw cancelled();
    throw error;
  }
  const type = response.headers.get('content-type') ?? '';
  // a service that does not stream answers one JSON completion
  if (!type.startsWith('text/event-stream'))
    return replyOfCompletion(await readJson(response, ChatCompletionResponse, 'Chat'), options.onToken);
  return readChatEvents(
    response.body as unknown as AsyncIterable<Uint8Array>,
    () => response.body?.cancel().catch(() => undefined) ?? Promise.resolve(),
    options,
  );
}

/** The reply of one JSON chat completion (its whole content is one token). */
export function replyOfCompletion(
  whole: ChatCompletionResponse,
  onToken?: (token: string) => void,
): StreamedReply {
  const content = whole.choices[0]?.message.content ?? '';
  if (content) onToken?.(content);
  return {
    id: whole.id,
    content,
    finishReason: whole.choices[0]?.finish_reason ?? null,
    usage: whole.usage,
  };
}

/**
 * Reads a chat completion's server-sent events (parsed by eventsource-parser) until a
 * finish_reason or `[DONE]`; `onToken` gets each piece as it arrives. `cancel` stops the stream
 * when reading ends early. An abort throws `chat.cancelled`, a broken stream `chat.stream_broken`,
 * an event over 1 MiB or a reply stream over 16 MiB `api.body_too_large`.
 */
export async function readChatEvents(
  chunks: AsyncIterable<Uint8Array>,
  cancel: () => Promise<unknown>,
  options: { signal?: AbortSignal; onToken?: (token: string) => void } = {},
): Promise<StreamedReply> {
  let content = '';
  let id: string | undefined;
  let finishReason: string | null = null;
  let usage: Record<string, unknown> | undefined;
  let done = false;
  let problem: Error | undefined;
  /** Bytes received since the last complete event: one event may not exceed MAX_SSE_EVENT_BYTES. */
  let eventBytes = 0;
  let totalBytes = 0;
  const parser = createParser({
    onEvent(event) {
      eventBytes = 0;
      // nothing is delivered after a cancel, even from events already received in the same read
      if (done || problem || options.signal?.aborted) return;
      if (event.data === '[DONE]') {
        done = true;
        return;
      }
      let json: unknown;
      try {
        json = JSON.parse(event.data);
      } catch {
        problem = new ResponseShapeError('Chat stream', `an event is not JSON: ${event.data.slice(0, 60)}`);
        return;
      }
      const chunk = ChatCompletionChunk.safeParse(json);
      if (!chunk.success) {
        problem = new ResponseShapeError('Chat stream', chunk.error.issues[0]?.message ?? 'invalid chunk');
        return;
      }
      id ??= chunk.data.id;
      if (chunk.data.usage) usage = chunk.data.usage;
      for (const choice of chunk.data.choices) {
        if (choice.index !== 0) continue;
        const piece = choice.delta.content;
        if (piece) {
          content += piece;
          options.onToken?.(piece);
        }
        if (choice.finish_reason) finishReason = choice.finish_reason;
      }
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const bytes of chunks) {
      eventBytes += bytes.byteLength;
      totalBytes += bytes.byteLength;
      parser.feed(decoder.decode(bytes, { stream: true }));
      if (problem) throw problem;
      // checked after decompression; the stream is cancelled, not read further
      if (eventBytes > MAX_SSE_EVENT_BYTES)
        throw new BodyTooLargeError('Chat stream', MAX_SSE_EVENT_BYTES, 'event');
      if (totalBytes > MAX_JSON_BODY_BYTES)
        throw new BodyTooLargeError('Chat stream', MAX_JSON_BODY_BYTES, 'reply stream');
      if (done) break;
    }
  } catch (error) {
    await cancel();
    if (options.signal?.aborted) throw cancelled();
    if (error instanceof AppError) throw error;
    throw new AppError(
      'chat.stream_broken',
      `The reply stream broke before it finished (${error instanceof Error ? error.message : String(error)}); nothing was saved.`,
    );
  }
  if (options.signal?.aborted) throw cancelled();
  if (!done && finishReason === null)
    throw new AppError('chat.stream_broken', 'The reply stream ended before it finished; nothing was saved.');
  return { id, content, finishReason, usage };
}

/** The error of a reply the person cancelled. */
export function cancelled(): AppError {
  return new AppError('chat.cancelled', 'The reply was cancelled; nothing was saved.');
}

export interface ChatAttachment {
  filePath: string;
  /** Send an image inline as a data: URL (only where the model allows inline images). */
  inline?: boolean;
}

export interface ChatTurnInput {
  service: ServiceEntry;
  /** Continue this conversation; a new one is created (on success) when absent. */
  conversationId?: string;
  /** System prompt of a new conversation. */
  system?: string;
  text: string;
  attachments?: ChatAttachment[];
  sampling?: Record<string, SamplingValue>;
  signal?: AbortSignal;
  onToken?: (token: string) => void;
  onStep?: (step: string) => void;
}

export interface ChatTurnResult {
  conversation: Conversation;
  user: ConversationMessage;
  assistant: ConversationMessage;
}

const INLINE_MAX_BYTES = 4 * 1024 * 1024;

export interface CheckedAttachment {
  attachment: ChatAttachment;
  file: ProbedFile;
  type: 'image_url' | 'video_url';
}

/** Probes and checks every attachment against the model's part types and upload limits (nothing sent). */
export async function checkAttachments(
  service: ServiceEntry,
  attachments: ChatAttachment[],
): Promise<CheckedAttachment[]> {
  const caps = chatCapabilities(service);
  const probed: (CheckedAttachment & { role: string })[] = [];
  for (const attachment of attachments) {
    const file = await probeMedia(attachment.filePath);
    const type = file.kind === 'image' ? 'image_url' : file.kind === 'video' ? 'video_url' : undefined;
    if (!type || !caps.partTypes.includes(type))
      throw new InputLimitError(
        'attachments',
        `${file.fileName} (${file.mimeType}) cannot be attached: ${service.modelAlias} takes ${caps.partTypes.join(', ')} parts.`,
      );
    if (attachment.inline) {
      if (type !== 'image_url' || !caps.inlineImages)
        throw new InputLimitError(
          'attachments',
          `${service.modelAlias} does not take ${file.fileName} inline; attach it as an upload.`,
        );
      if (file.byteSize > INLINE_MAX_BYTES)
        throw new InputLimitError(
          'attachments',
          `${file.fileName} is too large to send inline (at most ${INLINE_MAX_BYTES} bytes).`,
        );
    }
    probed.push({ attachment, file, type, role: type === 'image_url' ? 'input_image' : 'input_video' });
  }
  for (const { file, role } of probed) checkProbedFile(service, file, role);
  return probed;
}

/**
 * Builds the user message's content: plain text, or parts with the uploaded assets' URLs (in the
 * order of the uploaded attachments) or inline images.
 */
async function userContent(
  client: PublicApiClient,
  service: ServiceEntry,
  text: string,
  checked: CheckedAttachment[],
  uploaded: UploadedInput[],
): Promise<ChatMessage['content']> {
  if (checked.length === 0) return text;
  const parts: ChatContentPart[] = [];
  if (text.trim()) parts.push({ type: 'text', text });
  let next = 0;
  for (const { attachment, file, type } of checked) {
    const url = attachment.inline
      ? `data:${file.mimeType};base64,${(await readFile(file.path)).toString('base64')}`
      : client.contentUrl({ assetId: uploaded[next++]!.assetId, model: service.modelAlias });
    parts.push(type === 'image_url' ? { type, image_url: { url } } : { type, video_url: { url } });
  }
  return parts;
}

/** What a backend sends for one turn, after every local check passed. */
export interface ChatSendArgs {
  service: ServiceEntry;
  text: string;
  /** The attachments, probed and checked against the model's part types and upload limits. */
  checked: CheckedAttachment[];
  /** The system prompt and the conversation's earlier messages, as stored. */
  history: ChatMessage[];
  sampling?: Record<string, SamplingValue>;
  signal?: AbortSignal;
  onToken?: (token: string) => void;
  onStep?: (step: string) => void;
}

/** Sends one turn to a backend: the user message's content as sent (and stored), and the complete reply. */
export type ChatSender = (
  args: ChatSendArgs,
) => Promise<{ content: ChatMessage['content']; reply: StreamedReply }>;

/**
 * One chat turn over any backend: checks (nothing sent when they fail), `send` (attachments and
 * the streamed reply, the backend's way), and only then the user message and the complete reply
 * written to the journal in one transaction. A cancelled or broken stream writes nothing.
 */
export async function chatTurnWith(
  journal: Journal,
  profileId: string,
  send: ChatSender,
  input: ChatTurnInput,
): Promise<ChatTurnResult> {
  const { service } = input;
  if (!input.text.trim() && !input.attachments?.length)
    throw new InputLimitError('message', 'Write a message (or attach media) first.');
  validateSampling(service, input.sampling);
  const existing = input.conversationId
    ? journal.conversations.getWithMessages(input.conversationId)
    : undefined;
  if (input.conversationId && !existing)
    throw new AppError('chat.not_found', `No conversation ${input.conversationId} in this journal.`);
  if (existing && existing.profileId !== profileId)
    throw new AppError('chat.not_found', 'That conversation belongs to another profile.');
  const system = existing ? existing.systemPrompt : input.system?.trim() || undefined;
  input.onStep?.('attachments');
  const checked = await checkAttachments(service, input.attachments ?? []);
  const history: ChatMessage[] = [];
  if (system) history.push({ role: 'system', content: system });
  for (const m of existing?.messages ?? [])
    history.push({ role: m.role, content: m.content as ChatMessage['content'] });
  const { content, reply } = await send({
    service,
    text: input.text,
    checked,
    history,
    sampling: input.sampling,
    signal: input.signal,
    onToken: input.onToken,
    onStep: input.onStep,
  });
  return journal.transaction(() => {
    const conversation =
      existing ??
      journal.conversations.create({
        profileId,
        model: service.modelAlias,
        title: [...(input.text.trim() || 'Media').replace(/\s+/g, ' ')].slice(0, 60).join(''),
        systemPrompt: system,
      });
    const [user, assistant] = journal.conversations.appendTurn(conversation.id, [
      { role: 'user', content, text: textOfContent(content) },
      {
        role: 'assistant',
        content: reply.content,
        text: reply.content,
        model: service.modelAlias,
        finishReason: reply.finishReason ?? undefined,
        usage: reply.usage,
      },
    ]);
    return { conversation: journal.conversations.get(conversation.id)!, user: user!, assistant: assistant! };
  });
}

/**
 * The public interface's way of sending a turn: attachments uploaded (an attachment cached from
 * the journal that the service no longer knows is uploaded again once) and named by their content
 * URLs, or inline images; the reply streamed where the model's contract says it streams.
 */
function publicChatSender(journal: Journal, client: PublicApiClient): ChatSender {
  return ({ service, text, checked, history, sampling, signal, onToken, onStep }) => {
    const toUpload = checked.filter((c) => !c.attachment.inline).map((c) => c.file);
    return withUploadedInputs(journal, client, service, toUpload, async (uploaded) => {
      const content = await userContent(client, service, text, checked, uploaded);
      onStep?.('streaming');
      const reply = await streamChat(
        client,
        // a model whose contract says it does not stream answers one JSON completion
        {
          model: service.modelAlias,
          messages: [...history, { role: 'user', content }],
          ...(sampling ?? {}),
          stream: chatCapabilities(service).streaming,
        },
        { signal, onToken },
      );
      return { content, reply };
    });
  };
}

/**
 * One chat turn over the public interface: checks (nothing sent when they fail), uploads
 * attachments, streams the reply, and only then writes the user message and the complete reply
 * to the journal in one transaction. A cancelled or broken stream writes nothing.
 */
export function chatTurn(
  journal: Journal,
  client: PublicApiClient,
  input: ChatTurnInput,
): Promise<ChatTurnResult> {
  return chatTurnWith(journal, client.profileId, publicChatSender(journal, client), input);
}
