import type { z } from 'zod';
import { ChatCompletionResponse } from '../../shared/api/chat.js';
import { EmbeddingsResponse } from '../../shared/api/embeddings.js';
import { OcrResponse } from '../../shared/api/ocr.js';
import { RerankResponse } from '../../shared/api/rerank.js';
import {
  TRANSCRIPTION_MAX_BYTES,
  TRANSCRIPTION_MIME_TYPES,
  TranscriptionResponse,
} from '../../shared/api/transcription.js';
import { uploadLimitsFor, type CatalogService } from '../catalog.js';
import { invalidField } from '../errors.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import { resolveModel } from '../models.js';
import { answerChat, checkSamplingFields, contentPartTypes } from '../routes/chat.js';
import { checkOcrTask, ocrResponse } from '../routes/ocr.js';
import { embeddingsResponse, rerankResponse } from '../routes/retrieval.js';
import { checkTranscriptionOptions, transcriptionResponse } from '../routes/transcription.js';
import { PlatformError } from './errors.js';
import {
  checkAcceptedType,
  checkDeclaredType,
  discardContents,
  readInputs,
  unsupportedType,
} from './read-inputs.js';
import { READ_URL_MAX_BYTES, type ReadUrlContent } from './read-url.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { checkAttribution } from './runtime-job-routes.js';
import { errorDoc } from './schemas.js';
import {
  RuntimeChatRequest,
  RuntimeEmbeddingsRequest,
  RuntimeOcrRequest,
  RuntimeRerankRequest,
  RuntimeTranscriptionRequest,
  type RuntimeCallInput,
} from './sync-schemas.js';

/**
 * The runtime's synchronous calls: the public interface's chat, embeddings, rerank, OCR and
 * transcription, answered by the same computations, for a user session; media comes as JSON
 * `inputs[]` of `{readUrl, mimeType}` that are really read (and never kept).
 */

/** Public asset-id fields: the runtime reads its media from `readUrl`, never from a personal asset. */
const ASSET_ID_FIELDS = ['input_image_asset_id', 'image_asset_id', 'document_asset_id'];

function refuseAssetIds(raw: Record<string, unknown>): void {
  const field = ASSET_ID_FIELDS.find((f) => f in raw);
  if (field)
    throw new PlatformError(
      400,
      'asset_id_not_accepted',
      `${field} is a public-interface asset id; the runtime reads media from inputs[] ({readUrl, mimeType}).`,
      { phase: 'input_validation', details: { field } },
    );
}

function exactlyOne(inputs: readonly RuntimeCallInput[], what: string): RuntimeCallInput {
  if (inputs.length !== 1)
    throw new PlatformError(
      400,
      'invalid_input_count',
      `Send exactly one ${what} in inputs (got ${inputs.length}).`,
      {
        phase: 'input_validation',
        details: { field: 'inputs', count: inputs.length },
      },
    );
  return inputs[0]!;
}

/**
 * The upload role (`input_image`, `input_video`) of `roles` whose formats take the input's declared
 * `mimeType`, with its size bound (the public upload limits of the service); 415 when none does.
 */
function uploadRoleOf(
  service: CatalogService,
  input: RuntimeCallInput,
  roles: readonly string[],
  index: number,
): { role: string; maxBytes: number } {
  const limits = uploadLimitsFor(service);
  const said = input.mimeType.split(';')[0]!.trim().toLowerCase();
  const role = roles.find((r) => limits[r]?.formats?.includes(said));
  if (!role)
    throw unsupportedType(
      input.mimeType,
      roles.flatMap((r) => limits[r]?.formats ?? []),
      `inputs.${index}`,
    );
  return { role, maxBytes: limits[role]!.maxBytes ?? READ_URL_MAX_BYTES };
}

/** Reads the inputs, checks each against its declared type, then lets `use` answer from them; the read files are always removed. */
async function withInputs<T>(
  pc: PlatformContext,
  inputs: readonly RuntimeCallInput[],
  maxBytesOf: (index: number) => number,
  use: (contents: ReadUrlContent[]) => T | Promise<T>,
): Promise<T> {
  const contents = await readInputs(pc.state, inputs, 'inputs', maxBytesOf);
  try {
    contents.forEach((content, index) =>
      checkDeclaredType(content, inputs[index]!.mimeType, `inputs.${index}`),
    );
    return await use(contents);
  } finally {
    await discardContents(contents);
  }
}

const undecodable = (index: number, kind: string) =>
  new PlatformError(422, 'undecodable_media', `inputs.${index}: the ${kind} could not be decoded.`, {
    phase: 'input_validation',
    details: { field: `inputs.${index}` },
  });

/** `POST /chat/completions`: text parts in `messages`, images and videos (vision models) in `inputs`. */
async function chat(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const raw = await readJsonObject(pc.req);
  const body = parseWith(RuntimeChatRequest, raw);
  checkAttribution(pc, body);
  const service = resolveModel(body.model, ['text_chat', 'vision_chat']);
  checkSamplingFields(raw, service);
  body.messages.forEach((message, m) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part, p) => {
      const field = `messages.${m}.content.${p}`;
      if (part.type !== 'text')
        throw invalidField(
          'media_part_not_accepted',
          `${field}.type`,
          'In the runtime, media is sent as inputs[] ({readUrl, mimeType}), not as message parts.',
        );
      if (typeof part.text !== 'string')
        throw invalidField('invalid_request', `${field}.text`, 'A text part needs text.');
    });
  });
  const inputs = body.inputs ?? [];
  const partTypes = contentPartTypes(service);
  const roles = [
    ...(partTypes.includes('image_url') ? ['input_image'] : []),
    ...(partTypes.includes('video_url') ? ['input_video'] : []),
  ];
  if (inputs.length > 0 && roles.length === 0)
    throw new PlatformError(
      400,
      'inputs_not_supported',
      `${service.modelAlias} takes text only; send no inputs.`,
      {
        phase: 'input_validation',
        details: { field: 'inputs' },
      },
    );
  const limits = inputs.map((input, index) => uploadRoleOf(service, input, roles, index));
  await withInputs(
    pc,
    inputs,
    (i) => limits[i]!.maxBytes,
    (contents) =>
      contents.forEach((content, index) => {
        if (limits[index]!.role === 'input_video' && !content.probe?.hasVideo)
          throw undecodable(index, 'video');
      }),
  );
  await answerChat(pc.res, pc.state, pc.requestId, service, body, inputs.length);
}

/** `POST /embeddings`: the public limits (<= 64 items of <= 8192 characters). */
async function embeddings(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const body = parseWith(RuntimeEmbeddingsRequest, await readJsonObject(pc.req));
  checkAttribution(pc, body);
  const service = resolveModel(body.model, ['embeddings']);
  sendJson(pc.res, 200, embeddingsResponse(service, body.input), { 'X-Request-Id': pc.requestId });
}

/** `POST /rerank`: the public limits (query <= 1024, <= 256 documents, 65536 characters together). */
async function rerank(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const body = parseWith(RuntimeRerankRequest, await readJsonObject(pc.req));
  checkAttribution(pc, body);
  const service = resolveModel(body.model, ['rerank']);
  sendJson(pc.res, 200, rerankResponse(service, body), { 'X-Request-Id': pc.requestId });
}

/** `POST /ocr`: exactly one image in `inputs` (the model's upload formats and size). */
async function ocr(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const raw = await readJsonObject(pc.req);
  refuseAssetIds(raw);
  const body = parseWith(RuntimeOcrRequest, raw);
  checkAttribution(pc, body);
  const service = resolveModel(body.model, ['ocr']);
  checkOcrTask(service, body.task);
  const input = exactlyOne(body.inputs, 'image');
  const limit = uploadRoleOf(service, input, ['input_image'], 0);
  const response = await withInputs(
    pc,
    [input],
    () => limit.maxBytes,
    ([content]) =>
      ocrResponse(
        service,
        { sha256: content!.sha256, mimeType: content!.mimeType! },
        1,
        body.pages,
        'inputs',
      ),
  );
  sendJson(pc.res, 200, response, { 'X-Request-Id': pc.requestId });
}

/** `POST /audio/transcriptions`: exactly one audio in `inputs` (the public types, <= 25 MiB). */
async function transcribe(pc: PlatformContext): Promise<void> {
  sessionCaller(pc);
  const raw = await readJsonObject(pc.req);
  const body = parseWith(RuntimeTranscriptionRequest, raw);
  checkAttribution(pc, body);
  const service = resolveModel(body.model, ['audio_transcription']);
  checkTranscriptionOptions(service, body);
  const input = exactlyOne(body.inputs, 'audio');
  checkAcceptedType(input.mimeType, TRANSCRIPTION_MIME_TYPES, 'inputs.0');
  const response = await withInputs(
    pc,
    [input],
    () => TRANSCRIPTION_MAX_BYTES,
    ([content]) => {
      const duration = content!.probe?.durationSeconds;
      if (!content!.probe?.hasAudio || duration === undefined) throw undecodable(0, 'audio');
      return transcriptionResponse(content!.sha256, duration, body.language);
    },
  );
  sendJson(pc.res, 200, response, { 'X-Request-Id': pc.requestId });
}

const SESSION_HEADER_DOC = {
  name: 'X-Platform-Runtime-Session-Id',
  required: true,
  description: "the person's RuntimeSession (a job recovery reference cannot authorize this call)",
};
const CALL_ERRORS = {
  400: errorDoc('Invalid field, limit exceeded, or a refused readUrl (scheme, address)'),
  401: errorDoc('Credential or session missing or invalid'),
  402: errorDoc('Insufficient balance'),
  403: errorDoc('A recovery reference cannot authorize this call'),
  404: errorDoc('Model unknown'),
  409: errorDoc('Service not available'),
  413: errorDoc('Body too large'),
  415: errorDoc('Not JSON, or an input type the service does not take'),
  422: errorDoc('readUrl content rejected (unreadable, too large, checksum, size, type)'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('Unavailable (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

function callRoute(
  path: string,
  handler: (pc: PlatformContext) => Promise<void>,
  doc: { operationId: string; summary: string; request: z.ZodType; response: z.ZodType },
): PlatformRoute {
  return {
    method: 'POST',
    path: `/runtime${path}`,
    surface: 'runtime_call',
    handler,
    doc: {
      operationId: doc.operationId,
      summary: doc.summary,
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC],
      requestBody: { schema: doc.request, required: true },
      responses: {
        200: { description: 'The same answer as the public interface', schema: doc.response },
        ...CALL_ERRORS,
      },
    },
  };
}

export const syncCallRoutes: PlatformRoute[] = [
  callRoute('/chat/completions', chat, {
    operationId: 'createRuntimeChatCompletion',
    summary:
      'Chat (text, and vision with images/videos in inputs[]); text/event-stream of chunks ending with data: [DONE] when stream is true',
    request: RuntimeChatRequest,
    response: ChatCompletionResponse,
  }),
  callRoute('/embeddings', embeddings, {
    operationId: 'createRuntimeEmbeddings',
    summary: 'Embeddings (<= 64 items of <= 8192 characters)',
    request: RuntimeEmbeddingsRequest,
    response: EmbeddingsResponse,
  }),
  callRoute('/rerank', rerank, {
    operationId: 'runtimeRerank',
    summary: 'Rerank documents (query <= 1024, <= 256 documents, <= 65536 characters together)',
    request: RuntimeRerankRequest,
    response: RerankResponse,
  }),
  callRoute('/ocr', ocr, {
    operationId: 'runtimeOcr',
    summary: "OCR of exactly one image in inputs[] (the model's own JSON)",
    request: RuntimeOcrRequest,
    response: OcrResponse,
  }),
  callRoute('/audio/transcriptions', transcribe, {
    operationId: 'createRuntimeTranscription',
    summary: 'Speech to text of exactly one audio in inputs[] (<= 25 MiB)',
    request: RuntimeTranscriptionRequest,
    response: TranscriptionResponse,
  }),
];
