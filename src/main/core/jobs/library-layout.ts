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

/** `<library>/<YYYY-MM-DD>/<jobId>/`, by the day the job was accepted (UTC). */
export function jobFolder(libraryDir: string, jobId: string, acceptedAt: number): string {
  const day = new Date(acceptedAt).toISOString().slice(0, 10);
  const folder = path.join(libraryDir, day, safeSegment(jobId, 'job'));
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
