import { readApiUsage } from '../../../shared/api/contract-vocabulary.js';
import { openAsBlob } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import {
  TRANSCRIPTION_EXTENSIONS,
  TRANSCRIPTION_MAX_BYTES,
  TRANSCRIPTION_MIME_TYPES,
  TranscriptionResponse,
} from '../../../shared/api/transcription.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import { sha256OfFile } from '../media-tools/probe-media.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { InputLimitError, journaledCall, readAnswer, sendWithRetry, type Answer } from './service-common.js';
import { WORKING_CALL_TIMEOUT_MS } from '../../../shared/wait-defaults.js';

export interface TranscriptionOptions {
  language?: string;
  responseFormat?: string;
}

export interface TranscriptionResult {
  response: TranscriptionResponse;
  /** The MIME type the file was sent as. */
  sentAs: string;
  exports: { txt: string; srt: string; vtt: string };
}

/** What the model takes, from its contract: `language` and `response_format` only when supported. */
export function transcriptionCapabilities(service: ServiceEntry): {
  supportsLanguage: boolean;
  languages?: string[];
  responseFormats: string[];
  maxBytes: number;
} {
  const usage = readApiUsage(service.apiUsageContract);
  return {
    supportsLanguage: usage.supportsLanguage,
    languages: usage.languages,
    responseFormats: usage.responseFormats,
    maxBytes: Math.min(usage.maxFileBytes ?? TRANSCRIPTION_MAX_BYTES, TRANSCRIPTION_MAX_BYTES),
  };
}

const DETECTED_TO_LISTED: Record<string, string> = {
  'audio/wav': 'audio/wav',
  'audio/x-wav': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/mpeg': 'audio/mpeg',
  'audio/mp3': 'audio/mpeg',
  'audio/mp4': 'audio/mp4',
  'audio/x-m4a': 'audio/x-m4a',
  'audio/m4a': 'audio/x-m4a',
  'video/mp4': 'audio/mp4',
  'audio/webm': 'audio/webm',
  'video/webm': 'audio/webm',
  'audio/ogg': 'audio/ogg',
  'audio/opus': 'audio/ogg',
  'audio/x-flac': 'audio/flac',
  'audio/flac': 'audio/flac',
};

/**
 * The MIME type to send a file as: its detected content type when that is one of the listed
 * audio types, else `application/octet-stream` only when its extension is a supported one.
 * Anything else, an empty file or one past 25 MiB is refused here, before sending.
 */
export async function transcriptionMimeType(
  filePath: string,
  maxBytes = TRANSCRIPTION_MAX_BYTES,
): Promise<string> {
  const name = path.basename(filePath);
  const info = await stat(filePath).catch(() => undefined);
  if (!info?.isFile()) throw new AppError('file.not_found', `No such file: ${filePath}`);
  if (info.size === 0) throw new InputLimitError('file', `${name} is empty.`);
  if (info.size > maxBytes)
    throw new InputLimitError(
      'file',
      `${name} is ${info.size} bytes; transcription takes one file of at most ${maxBytes} bytes (25 MiB).`,
    );
  const detected = (await fileTypeFromFile(filePath).catch(() => undefined))?.mime;
  const listed = detected ? DETECTED_TO_LISTED[detected] : undefined;
  if (listed && (TRANSCRIPTION_MIME_TYPES as readonly string[]).includes(listed)) return listed;
  const extension = path.extname(name).toLowerCase();
  if (!detected && (TRANSCRIPTION_EXTENSIONS as readonly string[]).includes(extension))
    return 'application/octet-stream';
  throw new InputLimitError(
    'file',
    `${name}${detected ? ` is ${detected}, which` : ' is not a recognised audio file and'} is not accepted for transcription. Accepted: ${TRANSCRIPTION_MIME_TYPES.join(', ')} (or a file with extension ${TRANSCRIPTION_EXTENSIONS.join(', ')}).`,
  );
}

/** Checks the options against the model's contract before anything is sent. */
export function validateTranscriptionOptions(service: ServiceEntry, options: TranscriptionOptions): void {
  const caps = transcriptionCapabilities(service);
  if (options.language !== undefined) {
    if (!caps.supportsLanguage)
      throw new InputLimitError('language', `${service.modelAlias} does not take a language.`);
    if (caps.languages && !caps.languages.includes(options.language))
      throw new InputLimitError(
        'language',
        `language must be one of ${caps.languages.join(', ')} for ${service.modelAlias} (got ${options.language}).`,
      );
  }
  if (options.responseFormat !== undefined && !caps.responseFormats.includes(options.responseFormat))
    throw new InputLimitError(
      'response_format',
      caps.responseFormats.length === 0
        ? `${service.modelAlias} does not take a response_format.`
        : `response_format must be one of ${caps.responseFormats.join(', ')} (got ${options.responseFormat}).`,
    );
}

/** An audio file checked for transcription before anything is sent or stored. */
export interface CheckedTranscription {
  /** The MIME type to send the file as. */
  mimeType: string;
  sha256: string;
  byteSize: number;
}

/** The local checks of a transcription: the options against the contract, the file's type and size. */
export async function checkTranscription(
  service: ServiceEntry,
  filePath: string,
  options: TranscriptionOptions,
): Promise<CheckedTranscription> {
  validateTranscriptionOptions(service, options);
  const mimeType = await transcriptionMimeType(filePath, transcriptionCapabilities(service).maxBytes);
  return { mimeType, sha256: await sha256OfFile(filePath), byteSize: (await stat(filePath)).size };
}

/**
 * One transcription with its journal row (the file's sha256, size and type, never its name or
 * content; the transcript's length), sent by `send`; with the transcript's exports.
 */
export async function journaledTranscription(
  journal: Journal,
  profileId: string,
  service: ServiceEntry,
  checked: CheckedTranscription,
  options: TranscriptionOptions,
  send: () => Promise<Answer<TranscriptionResponse>>,
): Promise<TranscriptionResult> {
  const request: Record<string, unknown> = {
    sha256: checked.sha256,
    byteSize: checked.byteSize,
    mimeType: checked.mimeType,
    ...(options.language !== undefined ? { language: options.language } : {}),
    ...(options.responseFormat !== undefined ? { responseFormat: options.responseFormat } : {}),
  };
  const body = await journaledCall(
    journal,
    { profileId },
    {
      operation: 'transcription',
      model: service.modelAlias,
      request,
      summarize: (r: TranscriptionResponse) => ({
        response: {
          textLength: r.text.length,
          segmentCount: r.segments.length,
          language: r.language,
          duration: r.duration,
        },
        ...(isRecord(r.usage) ? { usage: r.usage } : {}),
      }),
    },
    send,
  );
  return { response: body, sentAs: checked.mimeType, exports: transcriptExports(body) };
}

/**
 * `POST /audio/transcriptions`: one file streamed from disk as multipart. The call is journaled
 * with the file's sha256 and size (not its name or content) and the transcript's length.
 */
export async function transcribeFile(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  filePath: string,
  options: TranscriptionOptions = {},
): Promise<TranscriptionResult> {
  const checked = await checkTranscription(service, filePath, options);
  const blob = await openAsBlob(filePath, { type: checked.mimeType });
  const form = () => {
    const data = new FormData();
    data.append('model', service.modelAlias);
    if (options.language !== undefined) data.append('language', options.language);
    if (options.responseFormat !== undefined) data.append('response_format', options.responseFormat);
    data.append('file', blob, path.basename(filePath));
    return data;
  };
  return journaledTranscription(
    journal,
    client.profileId,
    service,
    { ...checked, byteSize: blob.size },
    options,
    async () => {
      // no Content-Type: fetch generates the multipart boundary; the file is streamed from disk
      const response = await sendWithRetry(
        () => client.transcribe(form(), { timeoutMs: WORKING_CALL_TIMEOUT_MS }),
        { clock: client.clock, operation: 'Transcription' },
      );
      return readAnswer(response, TranscriptionResponse, 'Transcription');
    },
  );
}

function timestamp(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** Plain text, SRT and WebVTT of a transcription's segments. */
export function transcriptExports(body: Pick<TranscriptionResponse, 'text' | 'segments'>): {
  txt: string;
  srt: string;
  vtt: string;
} {
  const segments = body.segments;
  const srt = segments
    .map((s, i) => `${i + 1}\n${timestamp(s.start, ',')} --> ${timestamp(s.end, ',')}\n${s.text.trim()}\n`)
    .join('\n');
  const vtt =
    'WEBVTT\n\n' +
    segments
      .map((s) => `${timestamp(s.start, '.')} --> ${timestamp(s.end, '.')}\n${s.text.trim()}\n`)
      .join('\n');
  return { txt: body.text.trim() + '\n', srt, vtt };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
