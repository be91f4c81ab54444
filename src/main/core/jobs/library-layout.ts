import { createHash } from 'node:crypto';
import path from 'node:path';

const EXTENSIONS: Record<string, string> = {
  'video/mp4': '.mp4',
  'video/quicktime': '.mov',
  'video/webm': '.webm',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'audio/mpeg': '.mp3',
  'audio/wav': '.wav',
  'audio/x-wav': '.wav',
  'audio/mp4': '.m4a',
  'audio/aac': '.aac',
  'audio/ogg': '.ogg',
  'audio/flac': '.flac',
  'application/json': '.json',
  'application/pdf': '.pdf',
  'text/plain': '.txt',
  'text/markdown': '.md',
};

/**
 * A name from the network made safe as one path segment: no separators, no `..`, no control or
 * reserved characters, bounded length. Never empty.
 */
export function safeSegment(name: string, fallback = 'item'): string {
  const cleaned = name
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[\u0000-\u001f\u007f<>:"/\\|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 120);
  if (!cleaned || /^\.+$/.test(cleaned)) return fallback;
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\..*)?$/i.test(cleaned)) return `_${cleaned}`;
  return cleaned;
}

export function extensionFor(mimeType: string | undefined): string {
  return (mimeType && EXTENSIONS[mimeType.toLowerCase()]) ?? '.bin';
}

/** Longest encoded segment kept whole; longer ones end in `~` and a hash of the whole name. */
const MAX_ENCODED = 120;

/**
 * A name from the network as one path segment, injectively: two different names never give the
 * same segment, on case-sensitive and case-insensitive file systems alike. Lowercase letters,
 * digits, `-` and `_` stay; an uppercase letter becomes `^` and the letter in lowercase; anything
 * else (`.` `/` `%` `^` `~`, spaces, other scripts) becomes `%XX` per UTF-8 byte. So `a/b` is
 * `a%2Fb` and `a_b` stays `a_b`; no segment is `.`, `..`, empty or a reserved device name.
 */
export function injectiveSegment(name: string): string {
  let encoded = '';
  for (const char of name) {
    if (/^[a-z0-9_-]$/.test(char)) encoded += char;
    else if (/^[A-Z]$/.test(char)) encoded += `^${char.toLowerCase()}`;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        encoded += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (encoded === '') return '%';
  // Windows device names (con, nul, com1, ...) are refused as folder names: mark them
  if (/^(con|prn|aux|nul|com\d|lpt\d)$/.test(encoded)) encoded = `%${encoded}`;
  if (encoded.length <= MAX_ENCODED) return encoded;
  const digest = createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32);
  return `${encoded.slice(0, MAX_ENCODED - 33)}~${digest}`;
}

/**
 * `<library>/<YYYY-MM-DD>/<profile>/<jobId>/`, by the day the job was accepted (UTC). The profile
 * and the job id are encoded injectively ({@link injectiveSegment}): two jobs never share a folder,
 * whatever their profiles or ids.
 */
export function jobFolder(libraryDir: string, profileId: string, jobId: string, acceptedAt: number): string {
  const day = new Date(acceptedAt).toISOString().slice(0, 10);
  const folder = path.join(libraryDir, day, injectiveSegment(profileId), injectiveSegment(jobId));
  const resolved = path.resolve(folder);
  if (!resolved.startsWith(path.resolve(libraryDir) + path.sep)) throw new Error('Unsafe job folder.');
  return resolved;
}

/** `<n>-<assetId><ext>`: ordered like the job's outputs, named by the result id. */
export function outputFileName(position: number, assetId: string, mimeType: string | undefined): string {
  return `${position + 1}-${safeSegment(assetId, 'output')}${extensionFor(mimeType)}`;
}

export const SIDECAR_NAME = 'framewright.json';
/** Downloads in progress, inside the library root so the final rename stays on one filesystem. */
export const INCOMING_DIR = '.incoming';
