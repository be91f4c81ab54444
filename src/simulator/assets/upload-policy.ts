import type { AssetKind } from '../../shared/api/assets.js';
import type { RoleUploadLimit } from '../../shared/api/media-spec-contract.js';
import { ROLE_KIND } from '../catalog.js';

/** Normalises detected MIME types to the names the contracts publish. */
export function normaliseMime(mime: string): string {
  const map: Record<string, string> = {
    'audio/x-wav': 'audio/wav',
    'audio/vnd.wave': 'audio/wav',
    'audio/wave': 'audio/wav',
    'audio/x-flac': 'audio/flac',
    'audio/opus': 'audio/ogg',
    'audio/x-aac': 'audio/aac',
    'audio/mp3': 'audio/mpeg',
  };
  return map[mime] ?? mime;
}

export function kindOfMime(mime: string): AssetKind | undefined {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/pdf') return 'document';
  return undefined;
}

export interface UploadCandidate {
  role: string;
  limit: RoleUploadLimit;
}

/** Roles of the service that take this detected format and kind. */
export function candidateRoles(
  limits: Record<string, RoleUploadLimit>,
  mime: string,
  kind: AssetKind,
): UploadCandidate[] {
  return Object.entries(limits)
    .filter(([role, limit]) => ROLE_KIND[role] === kind && (limit.formats ?? []).includes(mime))
    .map(([role, limit]) => ({ role, limit }));
}

export function acceptedFormats(limits: Record<string, RoleUploadLimit>): string[] {
  return [...new Set(Object.values(limits).flatMap((limit) => limit.formats ?? []))];
}

export function largestLimit(limits: Record<string, RoleUploadLimit>): number {
  return Math.max(0, ...Object.values(limits).map((limit) => limit.maxBytes ?? 0));
}
