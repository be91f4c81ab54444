import { ChatCompletionRequest, ChatCompletionResponse, type ChatMessage } from '../../shared/api/chat.js';
import { PublicError } from '../../shared/api/errors.js';
import type { ServerResponse } from 'node:http';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import { invalidField } from '../errors.js';
import { newId, parseWith, readJsonObject, sendJson, sleep } from '../http.js';
import { resolveModel } from '../models.js';
import { countTokens } from '../fake-data.js';
import { ownedInputAsset } from '../rules/owned-assets.js';

/** Sampling field names the gateway knows; each model's contract says which it accepts. */
const KNOWN_SAMPLING = [
  'temperature',
  'top_p',
  'max_tokens',
  'stop',
  'presence_penalty',
  'frequency_penalty',
  'seed',
  'n',
  'top_k',
  'logit_bias',
  'logprobs',
  'top_logprobs',
  'repetition_penalty',
];
/** Delay between streamed tokens at time scale 1. */
const TOKEN_SECONDS = 0.04;

function textOf(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  if (!message.content) return '';
  return message.content
    .map((part) => (part.type === 'text' ? (part.text ?? '') : `[${part.type}]`))
    .join(' ');
}

/** Media URLs must be this gateway's asset content URLs of the caller (images may be inline data). */
function checkMediaUrl(
  rc: RequestContext,
  model: string,
  url: string,
  kind: 'image' | 'video',
  field: string,
): void {
  if (kind === 'image' && /^data:image\/(png|jpeg|webp);base64,/i.test(url)) return;
  const base = rc.state.baseUrl + '/assets/';
  if (!url.startsWith(base)) {
    throw invalidField(
      'external_url_rejected',
      field,
      'Only platform asset content URLs (or inline image data) are accepted; external URLs are rejected.',
    );
  }
  const parsed = new URL(url);
  const match = /\/assets\/([^/]+)\/content$/.exec(parsed.pathname);
  if (!match || parsed.searchParams.get('model') !== model) {
    throw invalidField(
      'external_url_rejected',
      field,
      'The asset URL must be a content URL in this model scope.',
    );
  }
  ownedInputAsset(rc.state, rc.identity, model, decodeURIComponent(match[1]!), field, kind);
}

/** Sampling fields are accepted only when the model's contract lists them (platform-managed or unsupported otherwise). */
export function checkSamplingFields(raw: Record<string, unknown>, service: CatalogService): void {
  const allowedSampling =
    ((service.apiUsageContract ?? {}) as { samplingFields?: string[] }).samplingFields ?? [];
  for (const field of KNOWN_SAMPLING) {
    if (field in raw && !allowedSampling.includes(field)) {
      throw invalidField(
        'sampling_field_not_allowed',
        field,
        `${field} is not accepted by ${service.modelAlias} (platform-managed or unsupported).`,
        {
          allowed: allowedSampling,
        },
      );
    }
  }
}

/** The content part types the model's contract accepts (text only when it says nothing). */
export function contentPartTypes(service: CatalogService): string[] {
  return ((service.apiUsageContract ?? {}) as { contentPartTypes?: string[] }).contentPartTypes ?? ['text'];
}

/**
 * Answers a chat completion: the simulated reply (quoting the last user message and counting the
 * attached media), as JSON or, when `stream` is true, as server-sent chunks ending with `[DONE]`.
 * The public and the runtime chat both answer through it.
 */
export async function answerChat(
  res: ServerResponse,
  state: SimulatorState,
  requestId: string,
  service: CatalogService,
  body: Pick<ChatCompletionRequest, 'messages' | 'stream'>,
  mediaCount: number,
): Promise<void> {
  const lastUser = [...body.messages].reverse().find((m) => m.role === 'user');
  const said = lastUser ? textOf(lastUser).trim().replace(/\s+/g, ' ') : '';
  const excerpt = [...said].slice(0, 120).join('');
  const reply =
    `This is a simulated reply from ${service.modelAlias}. ` +
    (excerpt ? `You wrote: "${excerpt}". ` : 'There was no user message. ') +
    (mediaCount > 0 ? `I looked at ${mediaCount} attached media item${mediaCount === 1 ? '' : 's'}. ` : '') +
    `The conversation has ${body.messages.length} message${body.messages.length === 1 ? '' : 's'}.`;
  const promptTokens = body.messages.reduce((sum, m) => sum + countTokens(textOf(m)), 0);
  const completionTokens = countTokens(reply);
  const usageBody = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
  const id = newId('chatcmpl');
  const created = Math.floor(state.clock.nowMs() / 1000);
  if (!body.stream) {
    const response: ChatCompletionResponse = {
      id,
      object: 'chat.completion',
      created,
      model: service.modelAlias,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } }],
      usage: usageBody,
    };
    sendJson(res, 200, response, { 'X-Request-Id': requestId });
    return;
  }
  res.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    Connection: 'keep-alive',
    'X-Request-Id': requestId,
  });
  const chunk = (delta: Record<string, string>, finish: string | null, extra: Record<string, unknown> = {}) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: service.modelAlias, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`;
  res.write(chunk({ role: 'assistant' }, null));
  const pieces = reply.match(/\S+\s*/g) ?? [reply];
  for (const piece of pieces) {
    if (res.destroyed) return;
    await sleep(TOKEN_SECONDS * state.timeScale * 1000);
    res.write(chunk({ content: piece }, null));
  }
  res.write(chunk({}, 'stop', { usage: usageBody }));
  res.end('data: [DONE]\n\n');
}

async function chat(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  const body = parseWith(ChatCompletionRequest, raw);
  const service = resolveModel(body.model, ['text_chat', 'vision_chat']);
  checkSamplingFields(raw, service);
  const partTypes = contentPartTypes(service);
  body.messages.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, p) => {
      const field = `messages.${m}.content.${p}`;
      if (!partTypes.includes(part.type)) {
        throw invalidField(
          'content_part_not_supported',
          `${field}.type`,
          `Part type ${part.type} is not accepted by ${service.modelAlias}.`,
          {
            allowed: partTypes,
          },
        );
      }
      if (part.type === 'text' && typeof part.text !== 'string')
        throw invalidField('invalid_request', `${field}.text`, 'A text part needs text.');
      if (part.type === 'image_url') {
        if (!part.image_url?.url)
          throw invalidField('invalid_request', `${field}.image_url.url`, 'image_url.url is required.');
        checkMediaUrl(rc, service.modelAlias, part.image_url.url, 'image', `${field}.image_url.url`);
      }
      if (part.type === 'video_url') {
        if (!part.video_url?.url)
          throw invalidField('invalid_request', `${field}.video_url.url`, 'video_url.url is required.');
        checkMediaUrl(rc, service.modelAlias, part.video_url.url, 'video', `${field}.video_url.url`);
      }
    });
  });
  const media = body.messages
    .flatMap((m) => (Array.isArray(m.content) ? m.content : []))
    .filter((p) => p.type !== 'text').length;
  await answerChat(rc.res, rc.state, rc.requestId, service, body, media);
}

export const chatRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/chat/completions',
    routeClass: 'write',
    handler: chat,
    doc: {
      operationId: 'createChatCompletion',
      summary: 'Chat (text and vision); server-sent events when stream is true',
      tags: ['synchronous'],
      requestBody: { contentType: 'application/json', schema: ChatCompletionRequest },
      responses: {
        200: {
          description: 'Chat response, or text/event-stream of chunks ending with data: [DONE]',
          schema: ChatCompletionResponse,
        },
        400: { description: 'Field invalid', schema: PublicError },
        404: { description: 'Unknown model', schema: PublicError },
      },
    },
  },
];
