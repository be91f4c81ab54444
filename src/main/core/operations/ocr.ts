import { readApiUsage } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { OcrResponse } from '../../../shared/api/ocr.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import { checkProbedFile, withUploadedInput } from './inputs.js';
import { InputLimitError, journaledCall, callAnswer, type Answer } from './service-common.js';

export interface OcrOptions {
  task?: string;
  /** Metering page count (does not select pages). */
  pages?: number;
}

export interface OcrBox {
  text: string;
  bbox: [number, number, number, number];
  confidence?: number;
  page?: number;
}

export interface OcrResult {
  /** The model's own JSON, as it came. */
  raw: Record<string, unknown>;
  text?: string;
  /** Blocks that carry a 4-number `bbox` (x1, y1, x2, y2). */
  boxes: OcrBox[];
  inputField: 'input_image_asset_id' | 'document_asset_id';
  /** The uploaded asset's id (public interface), or the stored object's sha256 (platform runtime). */
  assetId: string;
}

/** An OCR input checked before anything is sent or stored. */
export interface CheckedOcrInput {
  file: ProbedFile;
  isDocument: boolean;
  inputField: OcrResult['inputField'];
}

export function ocrCapabilities(service: ServiceEntry): { tasks?: string[]; supportsDocument: boolean } {
  const usage = readApiUsage(service.apiUsageContract);
  return { tasks: usage.ocrTasks, supportsDocument: usage.supportsDocumentAsset };
}

export function boxesOf(body: OcrResponse): OcrBox[] {
  const out: OcrBox[] = [];
  const take = (blocks: OcrResponse['blocks'], page?: number) => {
    for (const block of blocks ?? []) {
      if (block.bbox?.length === 4 && block.bbox.every((n) => Number.isFinite(n)))
        out.push({
          text: block.text ?? '',
          bbox: block.bbox as [number, number, number, number],
          confidence: block.confidence,
          page,
        });
    }
  };
  if (body.pages?.some((p) => p.blocks?.length)) for (const p of body.pages) take(p.blocks, p.page);
  else take(body.blocks);
  return out;
}

/**
 * The local checks of an OCR call: `task` among the model's, `pages` a whole number, the file an
 * image (or a document where the service states support, and `documents` allows it) within the
 * role's format and size.
 */
export async function checkOcrInput(
  service: ServiceEntry,
  filePath: string,
  options: OcrOptions,
  documents = true,
): Promise<CheckedOcrInput> {
  const caps = ocrCapabilities(service);
  if (options.task !== undefined && caps.tasks && !caps.tasks.includes(options.task))
    throw new InputLimitError('task', `task must be one of ${caps.tasks.join(', ')} (got ${options.task}).`);
  if (options.pages !== undefined && (!Number.isInteger(options.pages) || options.pages < 1))
    throw new InputLimitError('pages', `pages must be a whole number of at least 1 (got ${options.pages}).`);
  const probed = await probeMedia(filePath);
  const takesDocuments = caps.supportsDocument && documents;
  const isDocument = probed.kind === 'document';
  if (isDocument && !takesDocuments)
    throw new InputLimitError(
      'file',
      caps.supportsDocument
        ? `${service.modelAlias} reads images only here.`
        : `${service.modelAlias} reads images only; it does not state support for documents.`,
    );
  if (!isDocument && probed.kind !== 'image')
    throw new InputLimitError(
      'file',
      `${probed.fileName} is ${probed.mimeType}; OCR takes an image${takesDocuments ? ' or a document' : ''}.`,
    );
  const file = checkProbedFile(service, probed, isDocument ? 'input_document' : 'input_image');
  return { file, isDocument, inputField: isDocument ? 'document_asset_id' : 'input_image_asset_id' };
}

/**
 * One OCR call with its journal row (the input's type, size and sha256 and `sourceFields`, never
 * the image or the text read), sent by `send`; the model's JSON as it came, with its boxes.
 */
export async function journaledOcr(
  journal: Journal,
  profileId: string,
  service: ServiceEntry,
  input: CheckedOcrInput & { assetId: string; sourceFields: Record<string, unknown> },
  options: OcrOptions,
  send: () => Promise<Answer<OcrResponse>>,
): Promise<OcrResult> {
  const { file } = input;
  const raw = (await journaledCall(
    journal,
    { profileId },
    {
      operation: 'ocr',
      model: service.modelAlias,
      request: {
        ...input.sourceFields,
        mimeType: file.mimeType,
        byteSize: file.byteSize,
        sha256: file.sha256,
        ...(options.task !== undefined ? { task: options.task } : {}),
        ...(options.pages !== undefined ? { pages: options.pages } : {}),
      },
      summarize: (r: OcrResponse) => ({
        response: {
          textLength: typeof r.text === 'string' ? r.text.length : 0,
          blockCount: r.pages?.length
            ? r.pages.reduce((sum, p) => sum + (p.blocks?.length ?? 0), 0)
            : (r.blocks?.length ?? 0),
          ...(r.pages ? { pageCount: r.pages.length } : {}),
        },
        ...(isRecord(r.usage) ? { usage: r.usage } : {}),
      }),
    },
    send,
  )) as Record<string, unknown>;
  const parsed = raw as OcrResponse;
  return {
    raw,
    text: parsed.text,
    boxes: boxesOf(parsed),
    inputField: input.inputField,
    assetId: input.assetId,
  };
}

/**
 * OCR of a local image (or a document where the service states support): checks, uploads
 * (reusing a still-valid asset), then `POST /ocr`. The model's JSON is returned as it came.
 */
export async function runOcr(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  filePath: string,
  options: OcrOptions = {},
): Promise<OcrResult> {
  const checked = await checkOcrInput(service, filePath, options);
  return withUploadedInput(journal, client, service, checked.file, (asset) => {
    const body: Record<string, unknown> = { model: service.modelAlias, [checked.inputField]: asset.assetId };
    if (options.task !== undefined) body.task = options.task;
    if (options.pages !== undefined) body.pages = options.pages;
    return journaledOcr(
      journal,
      client.profileId,
      service,
      { ...checked, assetId: asset.assetId, sourceFields: { [checked.inputField]: asset.assetId } },
      options,
      () => callAnswer(client, () => client.ocr(body), OcrResponse, 'OCR'),
    );
  });
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
