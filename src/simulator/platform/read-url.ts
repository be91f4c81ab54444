import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { BlockList, isIP } from 'node:net';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { newId } from '../http.js';
import { normaliseMime } from '../assets/upload-policy.js';
import { probeMedia, type ProbeResult } from '../media/probe.js';
import { PlatformError } from './errors.js';

/** Largest content a `readUrl` may have (the public interface's largest reference, a video). */
export const READ_URL_MAX_BYTES = 64 * 1024 * 1024;
/** How long one `readUrl` may take to read (the processing time of the request). */
export const READ_URL_TIMEOUT_MS = 30_000;

/** In local simulation the application's own storage is on loopback: only these are read. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

/** Private, link-local and other internal ranges: named in the refusal. */
const INTERNAL = new BlockList();
for (const [net, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['0.0.0.0', 8],
] as const)
  INTERNAL.addSubnet(net, prefix, 'ipv4');
INTERNAL.addSubnet('fc00::', 7, 'ipv6');
INTERNAL.addSubnet('fe80::', 10, 'ipv6');
INTERNAL.addAddress('::', 'ipv6');

const refuse = (code: string, message: string, details: Record<string, unknown>) =>
  new PlatformError(400, code, message, { phase: 'input_validation', details });

/**
 * 400 `read_url_expired` when the application's own `expiresAt` for a `readUrl` has passed (by the
 * simulator clock): the spec wants the address readable for the processing time, so a signed
 * address already expired is refused before anything is contacted, like a refused address.
 */
export function checkReadUrlExpiry(expiresAt: string | undefined, nowMs: number, field: string): void {
  if (expiresAt === undefined || Date.parse(expiresAt) > nowMs) return;
  throw refuse(
    'read_url_expired',
    `${field} has passed: the readUrl is no longer readable by the platform.`,
    {
      field,
      expiresAt,
    },
  );
}

/**
 * Checks a `readUrl` before anything is contacted: http or https, a loopback address (by IP
 * literal or `localhost`). Local paths, other schemes, private, link-local and every other
 * address are refused here, without a connection or a name lookup.
 */
export function checkReadUrlAddress(readUrl: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(readUrl);
  } catch {
    throw refuse('read_url_invalid', `${field} is not an absolute URL (local paths are not read).`, {
      field,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse('read_url_scheme_not_allowed', `${field} must be http or https (got ${url.protocol}).`, {
      field,
      scheme: url.protocol.replace(/:$/, ''),
    });
  if (url.username || url.password)
    throw refuse('read_url_invalid', `${field} must not carry user information.`, { field });
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  const loopback =
    host.toLowerCase() === 'localhost' ||
    (family !== 0 && LOOPBACK.check(host, family === 6 ? 'ipv6' : 'ipv4'));
  if (loopback) return url;
  if (family !== 0 && INTERNAL.check(host, family === 6 ? 'ipv6' : 'ipv4'))
    throw refuse(
      'read_url_address_not_allowed',
      `${field} points at a private or link-local address; the platform does not read internal addresses.`,
      { field },
    );
  throw refuse(
    'read_url_address_not_allowed',
    `${field} must point at the application's storage on loopback in local simulation.`,
    { field },
  );
}

export interface ReadUrlContent {
  path: string;
  byteSize: number;
  sha256: string;
  /** Detected from the content (undefined when not recognised). */
  mimeType?: string;
  probe?: ProbeResult;
}

const unreadable = (field: string, reason: string) =>
  new PlatformError(422, 'read_url_unreadable', `${field} could not be read: ${reason}.`, {
    phase: 'input_fetch',
    retryable: true,
    details: { field },
  });

/**
 * Reads a checked `readUrl` into `dir` with a size bound (`maxBytes`, at most the platform's) and
 * a time bound (no redirects are followed), then detects its type and probes audio and video. The
 * caller removes the file.
 */
export async function fetchReadUrl(
  url: URL,
  field: string,
  dir: string,
  maxBytes: number = READ_URL_MAX_BYTES,
): Promise<ReadUrlContent> {
  let res: Response;
  try {
    res = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(READ_URL_TIMEOUT_MS) });
  } catch {
    throw unreadable(field, 'the connection failed or timed out');
  }
  if (res.status !== 200 || !res.body) {
    await res.body?.cancel();
    throw unreadable(field, `the storage answered HTTP ${res.status}`);
  }
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > maxBytes) {
    await res.body.cancel();
    throw tooLarge(field, maxBytes);
  }
  const file = path.join(dir, newId('readurl'));
  const hash = createHash('sha256');
  let byteSize = 0;
  const out = createWriteStream(file);
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      byteSize += chunk.length;
      if (byteSize > maxBytes) throw tooLarge(field, maxBytes);
      hash.update(chunk);
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
    await new Promise<void>((resolve, reject) =>
      out.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  } catch (error) {
    out.destroy();
    await rm(file, { force: true });
    if (error instanceof PlatformError) throw error;
    throw unreadable(field, 'the transfer was interrupted');
  }
  const detected = await fileTypeFromFile(file);
  const mimeType = detected ? normaliseMime(detected.mime) : undefined;
  const probe = mimeType && /^(audio|video|image)\//.test(mimeType) ? await probeMedia(file) : undefined;
  return { path: file, byteSize, sha256: hash.digest('hex'), mimeType, probe };
}

function tooLarge(field: string, maxBytes: number): PlatformError {
  return new PlatformError(422, 'read_url_too_large', `${field} is larger than ${maxBytes} bytes.`, {
    phase: 'input_fetch',
    details: { field, maxBytes },
  });
}

/** The given `sha256` and `byteSize` must equal the read content. */
export function checkReadUrlFacts(
  content: ReadUrlContent,
  expected: { sha256?: string; byteSize?: number },
  field: string,
): void {
  if (expected.byteSize !== undefined && expected.byteSize !== content.byteSize)
    throw new PlatformError(
      422,
      'read_url_size_mismatch',
      `${field}: byteSize does not match the content read.`,
      {
        phase: 'input_fetch',
        details: { field, expected: expected.byteSize, actual: content.byteSize },
      },
    );
  if (expected.sha256 !== undefined && expected.sha256 !== content.sha256)
    throw new PlatformError(
      422,
      'read_url_checksum_mismatch',
      `${field}: sha256 does not match the content read.`,
      {
        phase: 'input_fetch',
        details: { field },
      },
    );
}
