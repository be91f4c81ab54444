import { z } from 'zod';

export const TRANSCRIPTION_MAX_BYTES = 25 * 1024 * 1024;
export const TRANSCRIPTION_MIME_TYPES = [
  'audio/wav',
  'audio/x-wav',
  'audio/mpeg',
  'audio/mp3',
  'audio/mp4',
  'audio/x-m4a',
  'audio/webm',
  'audio/ogg',
  'audio/flac',
] as const;
/** Extensions that make an `application/octet-stream` part acceptable. */
export const TRANSCRIPTION_EXTENSIONS = [
  '.wav',
  '.mp3',
  '.mp4',
  '.m4a',
  '.webm',
  '.ogg',
  '.oga',
  '.flac',
] as const;

/** Non-file fields of the multipart `POST /audio/transcriptions` body (plus one `file`). */
export const TranscriptionFields = z.object({
  model: z.string().min(1),
  /** Only when the model supports it. */
  language: z.string().min(1).optional(),
  /** Only when the model supports it. */
  response_format: z.string().min(1).optional(),
});
export type TranscriptionFields = z.infer<typeof TranscriptionFields>;

/** OpenAPI shape of the multipart body. */
export const TranscriptionMultipart = TranscriptionFields.extend({
  file: z.string().meta({ format: 'binary', description: 'one non-empty audio file, at most 25 MiB' }),
});

export const TranscriptionSegment = z
  .object({ id: z.int(), start: z.number(), end: z.number(), text: z.string() })
  .loose();

export const TranscriptionResponse = z
  .object({
    text: z.string(),
    language: z.string(),
    duration: z.number(),
    segments: z.array(TranscriptionSegment),
  })
  .loose();
export type TranscriptionResponse = z.infer<typeof TranscriptionResponse>;
