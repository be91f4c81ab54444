import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { PublicError } from '../../shared/api/errors.js';
import {
  TRANSCRIPTION_EXTENSIONS,
  TRANSCRIPTION_MAX_BYTES,
  TRANSCRIPTION_MIME_TYPES,
  TranscriptionFields,
  TranscriptionMultipart,
  TranscriptionResponse,
} from '../../shared/api/transcription.js';
import { discardFiles, receiveMultipart } from '../assets/multipart.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef } from '../context.js';
import { ApiError, assetRejected, invalidField } from '../errors.js';
import { seededRandom } from '../fake-data.js';
import { parseWith, sendJson } from '../http.js';
import { probeMedia } from '../media/probe.js';
import { resolveModel } from '../models.js';

const WORDS = [
  'the',
  'studio',
  'light',
  'river',
  'camera',
  'moves',
  'slowly',
  'across',
  'a',
  'quiet',
  'morning',
  'scene',
  'voice',
  'returns',
  'again',
];
const SEGMENT_SECONDS = 5;

/** `language` and `response_format` only where the model's contract supports them. */
export function checkTranscriptionOptions(
  service: CatalogService,
  body: Pick<TranscriptionFields, 'language' | 'response_format'>,
): void {
  const usage = (service.apiUsageContract ?? {}) as {
    supportsLanguage?: boolean;
    languages?: string[];
    responseFormats?: string[];
  };
  if (body.language !== undefined) {
    if (!usage.supportsLanguage)
      throw invalidField('field_not_supported', 'language', `${service.modelAlias} does not take language.`);
    if (usage.languages && !usage.languages.includes(body.language)) {
      throw invalidField(
        'invalid_language',
        'language',
        `language must be one of ${usage.languages.join(', ')}.`,
      );
    }
  }
  if (body.response_format !== undefined && !(usage.responseFormats ?? []).includes(body.response_format)) {
    throw invalidField(
      'field_not_supported',
      'response_format',
      `response_format must be one of ${(usage.responseFormats ?? []).join(', ') || '(none)'}.`,
    );
  }
}

/** The transcription of an audio (stable fake words per content, one segment per 5 s of its duration). */
export function transcriptionResponse(
  sha256: string,
  durationSeconds: number,
  language: string | undefined,
): TranscriptionResponse {
  const duration = Math.round(durationSeconds * 1000) / 1000;
  const random = seededRandom('transcribe:' + sha256);
  const segments = [];
  for (let start = 0, id = 0; start < duration; start += SEGMENT_SECONDS, id += 1) {
    const end = Math.min(duration, start + SEGMENT_SECONDS);
    const count = 4 + Math.floor(random() * 6);
    const text = Array.from({ length: count }, () => WORDS[Math.floor(random() * WORDS.length)]!).join(' ');
    segments.push({ id, start, end, text: text.charAt(0).toUpperCase() + text.slice(1) + '.' });
  }
  return { text: segments.map((s) => s.text).join(' '), language: language ?? 'en', duration, segments };
}

async function transcribe(rc: RequestContext): Promise<void> {
  const { files, fields } = await receiveMultipart(rc.req, rc.state.dirs.tmp, TRANSCRIPTION_MAX_BYTES);
  try {
    const body = parseWith(TranscriptionFields, fields);
    const service = resolveModel(body.model, ['audio_transcription']);
    checkTranscriptionOptions(service, body);
    const audio = files.filter((f) => f.fieldName === 'file');
    if (audio.length !== 1 || files.length !== 1) {
      throw new ApiError(400, 'invalid_file_count', 'Send exactly one file in the "file" field.', {
        details: { field: 'file' },
      });
    }
    const file = audio[0]!;
    if (file.byteSize === 0)
      throw new ApiError(400, 'empty_file', 'The file is empty.', { details: { field: 'file' } });
    const declared = file.declaredType.split(';')[0]!.trim();
    const extension = path.extname(file.filename).toLowerCase();
    const typeOk =
      (TRANSCRIPTION_MIME_TYPES as readonly string[]).includes(declared) ||
      (declared === 'application/octet-stream' &&
        (TRANSCRIPTION_EXTENSIONS as readonly string[]).includes(extension));
    if (!typeOk) {
      throw new ApiError(
        415,
        'unsupported_media_type',
        `Audio type ${declared || '(none)'} is not accepted${declared === 'application/octet-stream' ? ' without a supported file extension' : ''}.`,
        {
          details: { accepted: [...TRANSCRIPTION_MIME_TYPES], extensions: [...TRANSCRIPTION_EXTENSIONS] },
        },
      );
    }
    // the bytes are sniffed before ffprobe sees them: a text file (an ffmpeg concat list, an HLS
    // playlist naming other paths or URLs) or any non-media content is refused unprobed
    const detected = await fileTypeFromFile(file.tmpPath);
    if (!detected || !/^(audio|video)\/|^application\/ogg$/.test(detected.mime))
      throw new ApiError(
        415,
        'unsupported_media_type',
        `The file content is not audio (${detected?.mime ?? 'unrecognised'}).`,
        {
          details: { accepted: [...TRANSCRIPTION_MIME_TYPES], extensions: [...TRANSCRIPTION_EXTENSIONS] },
        },
      );
    const probe = await probeMedia(file.tmpPath);
    if (!probe?.hasAudio || probe.durationSeconds === undefined) {
      throw assetRejected('undecodable_media', 'The audio could not be decoded.', { field: 'file' });
    }
    const response = transcriptionResponse(file.sha256, probe.durationSeconds, body.language);
    sendJson(rc.res, 200, response, { 'X-Request-Id': rc.requestId });
  } finally {
    await discardFiles(files);
  }
}

export const transcriptionRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/audio/transcriptions',
    routeClass: 'write',
    handler: transcribe,
    doc: {
      operationId: 'createTranscription',
      summary: 'Speech to text (multipart, one file <= 25 MiB)',
      tags: ['synchronous'],
      requestBody: { contentType: 'multipart/form-data', schema: TranscriptionMultipart },
      responses: {
        200: { description: 'Transcription', schema: TranscriptionResponse },
        400: { description: 'Field invalid', schema: PublicError },
        413: { description: 'Too large', schema: PublicError },
        415: { description: 'Unsupported type', schema: PublicError },
      },
    },
  },
];
