import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DraftMedia } from '../../../shared/bridge/domains/studio.js';
import { resolvesOnlyToPublicAddresses } from '../api-clients/outbound-address.js';
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
 * Where Storyboard Helper serves its panel images below its business address
 * (`GET {base}/images/{panelId}.png`, signed).
 */
export function panelImagePathPrefix(helperBaseUrl: string): string {
  return `${new URL(helperBaseUrl).pathname.replace(/\/+$/, '')}/images/`;
}

/**
 * Where a board's panel images may be read from. A board is someone else's data: its image
 * addresses must not make this process fetch an address of its own network (server-side request
 * forgery). Images at Storyboard Helper's own origin, as configured here, are read whatever its
 * address (the operator chose it: a local helper may be on loopback), and only under
 * `imagePathPrefix`; any other origin only where `otherPublicOrigins` allows it, and
 * then only when every address its name resolves to is public.
 */
export interface PanelImageSource {
  helperOrigin: string;
  /** The path images are under at that origin ({@link panelImagePathPrefix}; `/`: any). */
  imagePathPrefix: string;
  /** The platform backend: false (its configured helper only). A desktop reaching the hosted helper through the relay: true. */
  otherPublicOrigins: boolean;
}

/** Refuses an image address outside the source's rules, before anything is contacted. */
export async function checkPanelImageAddress(
  address: string,
  source: PanelImageSource,
  panelLabel: string,
): Promise<URL> {
  const refuse = (why: string) =>
    new AppError(
      'inter_app.not_found',
      `The image of ${panelLabel} is not read: ${why}. Nothing was created.`,
    );
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw refuse('its address is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('its address is not http(s)');
  if (url.username || url.password) throw refuse('its address carries user information');
  if (url.origin === source.helperOrigin) {
    if (!url.pathname.startsWith(source.imagePathPrefix))
      throw refuse("it is not one of Storyboard Helper's panel images");
    return url;
  }
  if (!source.otherPublicOrigins) throw refuse("it is not at Storyboard Helper's address");
  if (!(await resolvesOnlyToPublicAddresses(url.hostname)))
    throw refuse('its address is on this machine or a private network');
  return url;
}

/**
 * Downloads a panel's image from its signed address (no grant, no cookie, no redirect followed),
 * only where `source` allows it, capped, and checks it is exactly what the board said: byte size,
 * sha256 and type (by its bytes).
 */
export async function downloadPanelImage(
  image: Panel['image'],
  panelLabel: string,
  source: PanelImageSource,
): Promise<Buffer> {
  const refuse = (why: string) =>
    new AppError('download.verification_failed', `The image of ${panelLabel} could not be used: ${why}.`);
  const url = await checkPanelImageAddress(image.url, source, panelLabel);
  if (image.byteSize > MAX_PANEL_IMAGE_BYTES) throw refuse('it is larger than 20 MiB');
  const sniff = MIME_SIGNATURES[image.mimeType];
  if (!sniff) throw refuse(`its type ${image.mimeType} is not an image Framewright takes as a frame`);
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(60_000) });
  } catch {
    throw new AppError('download.failed', `The image of ${panelLabel} could not be downloaded. Try again.`);
  }
  // a redirect is never followed (`redirect: 'manual'`): it could lead anywhere
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
