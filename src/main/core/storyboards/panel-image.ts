import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DraftMedia } from '../../../shared/bridge/domains/studio.js';
import { AppError } from '../errors.js';
import type { StagedFiles } from '../storage/staged-files.js';
import type { Panel } from './storyboard-schemas.js';

/** A panel image larger than this is refused before and while it is read. */
export const MAX_PANEL_IMAGE_BYTES = 20 * 1024 * 1024;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const MIME_SIGNATURES: Readonly<Record<string, (bytes: Buffer) => boolean>> = {
  'image/png': (b) => b.subarray(0, 8).equals(PNG_SIGNATURE),
  'image/jpeg': (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
};

/**
 * Downloads a panel's image from its signed address (no grant, no cookie, no redirect followed),
 * capped, and checks it is exactly what the board said: byte size, sha256 and type (by its bytes).
 */
export async function downloadPanelImage(image: Panel['image'], panelLabel: string): Promise<Buffer> {
  const refuse = (why: string) =>
    new AppError('download.verification_failed', `The image of ${panelLabel} could not be used: ${why}.`);
  const url = new URL(image.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('its address is not http(s)');
  if (image.byteSize > MAX_PANEL_IMAGE_BYTES) throw refuse('it is larger than 20 MiB');
  const sniff = MIME_SIGNATURES[image.mimeType];
  if (!sniff) throw refuse(`its type ${image.mimeType} is not an image Framewright takes as a frame`);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
  } catch {
    throw new AppError('download.failed', `The image of ${panelLabel} could not be downloaded. Try again.`);
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new AppError(
      'download.failed',
      `The image of ${panelLabel} could not be downloaded (HTTP ${response.status}). Try again.`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += (chunk as Uint8Array).length;
    if (size > image.byteSize) {
      await response.body?.cancel().catch(() => undefined);
      throw refuse('it is larger than the board said');
    }
    chunks.push(Buffer.from(chunk as Uint8Array));
  }
  const bytes = Buffer.concat(chunks);
  if (bytes.length !== image.byteSize) throw refuse('its size is not the one the board said');
  if (createHash('sha256').update(bytes).digest('hex') !== image.sha256)
    throw refuse('its content is not the one the board said (sha256)');
  if (!sniff(bytes)) throw refuse(`its bytes are not ${image.mimeType}`);
  return bytes;
}

/** Stages verified image bytes as one of the person's files (a composer file, like a dropped image). */
export async function stageImage(
  staged: Pick<StagedFiles, 'stageCopy'>,
  workDir: string,
  bytes: Buffer,
  fileName: string,
): Promise<DraftMedia> {
  await mkdir(workDir, { recursive: true });
  const dir = await mkdtemp(path.join(workDir, 'panel-'));
  try {
    const file = path.join(dir, fileName);
    await writeFile(file, bytes, { mode: 0o600 });
    return await staged.stageCopy(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
