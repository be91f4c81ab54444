import { rm } from 'node:fs/promises';
import { normaliseMime } from '../assets/upload-policy.js';
import type { SimulatorState } from '../context.js';
import { PlatformError } from './errors.js';
import {
  checkReadUrlAddress,
  checkReadUrlExpiry,
  checkReadUrlFacts,
  fetchReadUrl,
  READ_URL_MAX_BYTES,
  type ReadUrlContent,
} from './read-url.js';

/** What a synchronous call or an optimization names about one `readUrl` it wants read. */
export interface ReadRequest {
  readUrl: string;
  sha256?: string;
  byteSize?: number;
  /** When the application's signed address stops being readable (an expired one is refused unread). */
  expiresAt?: string;
}

/**
 * Reads every `readUrl` of a call that keeps nothing (synchronous calls, optimization): all
 * addresses (and `expiresAt`s) are checked before any is contacted (one refused, none is read), then each is read
 * within its bound (`maxBytesOf`, at most the platform's) and its given `sha256`/`byteSize`
 * compared. On any failure the files already
 * read are removed; on success the caller removes them with `discardContents`.
 */
export async function readInputs(
  state: SimulatorState,
  items: readonly ReadRequest[],
  field: string,
  maxBytesOf: (index: number) => number = () => READ_URL_MAX_BYTES,
): Promise<ReadUrlContent[]> {
  const urls = items.map((item, index) => {
    checkReadUrlExpiry(item.expiresAt, state.clock.nowMs(), `${field}.${index}.expiresAt`);
    return checkReadUrlAddress(item.readUrl, `${field}.${index}.readUrl`);
  });
  const contents: ReadUrlContent[] = [];
  try {
    for (const [index, item] of items.entries()) {
      const content = await fetchReadUrl(
        urls[index]!,
        `${field}.${index}.readUrl`,
        state.dirs.tmp,
        Math.min(maxBytesOf(index), READ_URL_MAX_BYTES),
      );
      contents.push(content);
      checkReadUrlFacts(content, item, `${field}.${index}`);
    }
  } catch (error) {
    await discardContents(contents);
    throw error;
  }
  return contents;
}

export async function discardContents(contents: readonly ReadUrlContent[]): Promise<void> {
  await Promise.all(contents.map((c) => rm(c.path, { force: true })));
}

/** Types a container can hold either way (an audio-only MP4, WebM or Ogg is detected as the video type). */
const SAME_CONTAINER = [
  ['audio/mp4', 'audio/x-m4a', 'video/mp4'],
  ['audio/webm', 'video/webm'],
  ['audio/ogg', 'video/ogg'],
];

/** 422 `read_url_media_mismatch` unless the declared `mimeType` is what was read. */
export function checkDeclaredType(content: ReadUrlContent, declared: string, field: string): void {
  const said = normaliseMime(declared.split(';')[0]!.trim().toLowerCase());
  const found = content.mimeType;
  if (found && (said === found || SAME_CONTAINER.some((f) => f.includes(said) && f.includes(found)))) return;
  throw new PlatformError(
    422,
    'read_url_media_mismatch',
    `${field}.mimeType is ${declared}, but the content read is ${found ?? 'not a recognised media type'}.`,
    { phase: 'input_validation', details: { field: `${field}.mimeType`, detected: found ?? null } },
  );
}

/** 415 `unsupported_media_type`: a declared `mimeType` the service does not take. */
export function unsupportedType(declared: string, accepted: readonly string[], field: string): PlatformError {
  return new PlatformError(
    415,
    'unsupported_media_type',
    `${field}.mimeType ${declared} is not accepted here.`,
    {
      phase: 'input_validation',
      details: { field: `${field}.mimeType`, accepted: [...accepted] },
    },
  );
}

/** Refuses a declared `mimeType` outside `accepted` (checked before anything is read). */
export function checkAcceptedType(declared: string, accepted: readonly string[], field: string): void {
  if (!accepted.includes(declared.split(';')[0]!.trim().toLowerCase()))
    throw unsupportedType(declared, accepted, field);
}
