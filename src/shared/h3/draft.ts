/**
 * The video draft shared by the renderer (live form) and main (guard before sending).
 *
 * Media are described by what a local probe found in the file's content, never by its name.
 */
import type { ReferenceTrim } from './reference-trim.js';

export type MediaKind = 'image' | 'video' | 'audio';

/** A local file after probing. `mimeType` is detected from content (not from the extension). */
export interface ProbedMedia {
  /** Local id, unique within the draft; key of the `uploaded` map when building requests. */
  id: string;
  fileName: string;
  mimeType: string;
  byteSize: number;
  kind: MediaKind;
  width?: number;
  height?: number;
  durationSeconds?: number;
  hasAudioTrack?: boolean;
  sha256?: string;
  /** A reference video or audio trimmed in Create: only this range is sent (the rules see its length). */
  trim?: ReferenceTrim;
}

/** A reference in the composer; its position in `VideoDraft.references` fixes its number within its kind. */
export type ProbedReference = ProbedMedia;

export interface VideoDraft {
  /** Public model alias from discovery. */
  model: string;
  generationMode: string;
  /** As written by the creator; limits are checked after trimming. */
  prompt: string;
  orientation: string;
  seconds: number;
  resolutionTier: string;
  /** `undefined` or `null`: the platform decides. */
  seed?: number | null;
  /** Any other parameter the live contract publishes, by its request field name. */
  extra?: Record<string, unknown>;
  firstFrame?: ProbedMedia;
  lastFrame?: ProbedMedia;
  references: ProbedReference[];
}

export type ReferenceRole = 'reference_image' | 'reference_video' | 'reference_audio';
export type FrameRole = 'first_frame' | 'last_frame';
export type InputRole = FrameRole | ReferenceRole;

export const ROLE_BY_KIND: Readonly<Record<MediaKind, ReferenceRole>> = {
  image: 'reference_image',
  video: 'reference_video',
  audio: 'reference_audio',
};

export const KIND_BY_ROLE: Readonly<Record<ReferenceRole, MediaKind>> = {
  reference_image: 'image',
  reference_video: 'video',
  reference_audio: 'audio',
};

const MIME_ALIASES: Readonly<Record<string, string>> = {
  'image/jpg': 'image/jpeg',
  'image/pjpeg': 'image/jpeg',
  'image/x-png': 'image/png',
  'audio/x-wav': 'audio/wav',
  'audio/wave': 'audio/wav',
  'audio/vnd.wave': 'audio/wav',
  'audio/mp3': 'audio/mpeg',
  'audio/x-mp3': 'audio/mpeg',
  'audio/mpeg3': 'audio/mpeg',
  'audio/x-mpeg': 'audio/mpeg',
  'audio/x-flac': 'audio/flac',
  'audio/x-m4a': 'audio/mp4',
  'audio/m4a': 'audio/mp4',
  'audio/x-aac': 'audio/aac',
  'audio/aacp': 'audio/aac',
  'audio/x-ogg': 'audio/ogg',
  'application/ogg': 'audio/ogg',
  'audio/opus': 'audio/ogg',
};

/**
 * Canonical form of a MIME type for comparisons: lower case, parameters dropped
 * (`audio/ogg; codecs=opus` -> `audio/ogg`), common aliases folded (`audio/x-m4a` -> `audio/mp4`).
 */
export function normalizeMimeType(mimeType: string): string {
  const bare = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  return MIME_ALIASES[bare] ?? bare;
}

export const QUICKTIME_MIME = 'video/quicktime';

/** A QuickTime (.mov) file, by detected content type. */
export function isQuickTime(media: Pick<ProbedMedia, 'mimeType'>): boolean {
  return normalizeMimeType(media.mimeType) === QUICKTIME_MIME;
}

/**
 * The kind a reference counts as. An audio-bearing `.mov` is a reference AUDIO (its original
 * bytes stay `reference_audio` and it does not use a video slot); every other file counts as
 * its probed kind — including a `.mov` without an audio track, which is a video (and invalid as
 * a reference unless the contract accepts QuickTime video).
 */
export function referenceKind(ref: Pick<ProbedMedia, 'mimeType' | 'kind' | 'hasAudioTrack'>): MediaKind {
  if (isQuickTime(ref)) return ref.hasAudioTrack === true ? 'audio' : 'video';
  return ref.kind;
}

export function referenceRole(ref: Pick<ProbedMedia, 'mimeType' | 'kind' | 'hasAudioTrack'>): ReferenceRole {
  return ROLE_BY_KIND[referenceKind(ref)];
}
