import { open } from 'node:fs/promises';
import { PublicError } from '../../shared/api/errors.js';
import { OcrRequest, OcrResponse } from '../../shared/api/ocr.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef } from '../context.js';
import { invalidField } from '../errors.js';
import { seededRandom } from '../fake-data.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import { resolveModel } from '../models.js';
import { ownedInputAsset } from '../rules/owned-assets.js';

/** Page count of a PDF from its page tree (`/Count N`), 1 when it cannot be read; at most 500. */
async function documentPageCount(filePath: string): Promise<number> {
  const file = await open(filePath, 'r');
  const buffer = Buffer.alloc(1024 * 1024);
  let head: string;
  try {
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead).toString('latin1');
  } finally {
    await file.close();
  }
  const counts = [...head.matchAll(/\/Count\s+(\d+)/g)].map((m) => Number(m[1]));
  return Math.min(500, Math.max(1, ...counts));
}

/** `task` must be one the model's contract lists. */
export function checkOcrTask(service: CatalogService, task: string | undefined): void {
  const tasks = ((service.apiUsageContract ?? {}) as { tasks?: string[] }).tasks;
  if (task !== undefined && tasks && !tasks.includes(task)) {
    throw invalidField('invalid_task', 'task', `task must be one of ${tasks.join(', ')}.`, {
      allowed: tasks,
    });
  }
}

/**
 * The model's own JSON for one image or document (stable fake text per content): `pageCount`
 * pages; `pages` only meters (1 when omitted or not positive) and never selects pages.
 */
export function ocrResponse(
  service: CatalogService,
  content: { sha256: string; mimeType: string },
  pageCount: number,
  meteredPages: number | undefined,
  input: string,
): OcrResponse & { model: string; usage: Record<string, unknown> } {
  const pages = meteredPages !== undefined && meteredPages > 0 ? meteredPages : 1;
  const random = seededRandom('ocr:' + content.sha256);
  const pageBodies = Array.from({ length: pageCount }, (_, i) => {
    const lines = [
      `SIMULATED OCR · page ${i + 1}`,
      `Asset ${content.sha256.slice(0, 12)} (${content.mimeType})`,
      `Reference number ${Math.floor(random() * 900000 + 100000)}`,
    ];
    const blocks = lines.map((text, j) => ({
      text,
      bbox: [40, 40 + j * 48, 40 + text.length * 14, 76 + j * 48],
      confidence: Math.round((0.9 + random() * 0.09) * 1000) / 1000,
    }));
    return { page: i + 1, text: lines.join('\n'), blocks };
  });
  return {
    model: service.modelAlias,
    text: pageBodies.map((p) => p.text).join('\n\n'),
    blocks: pageBodies.flatMap((p) => p.blocks),
    pages: pageBodies,
    usage: { pages, input },
  };
}

async function ocr(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  const body = parseWith(OcrRequest, raw);
  const service = resolveModel(body.model, ['ocr']);
  const usage = (service.apiUsageContract ?? {}) as { supportsDocumentAsset?: boolean };
  const given = (['input_image_asset_id', 'image_asset_id', 'document_asset_id'] as const).filter(
    (f) => body[f] !== undefined,
  );
  if (given.length === 0)
    throw invalidField(
      'missing_field',
      'input_image_asset_id',
      'Send input_image_asset_id (or image_asset_id, or document_asset_id where supported).',
    );
  if (given.length > 1)
    throw invalidField(
      'invalid_input_composition',
      given[1]!,
      `Send one input only (got ${given.join(', ')}).`,
    );
  const field = given[0]!;
  if (field === 'document_asset_id' && !usage.supportsDocumentAsset) {
    throw invalidField(
      'field_not_supported',
      field,
      `${service.modelAlias} does not state support for document_asset_id.`,
    );
  }
  checkOcrTask(service, body.task);
  const asset = ownedInputAsset(
    rc.state,
    rc.identity,
    service.modelAlias,
    body[field]!,
    field,
    field === 'document_asset_id' ? 'document' : 'image',
  );
  const pageCount = field === 'document_asset_id' ? await documentPageCount(asset.path) : 1;
  const response = ocrResponse(service, asset, pageCount, body.pages, field);
  sendJson(rc.res, 200, response, { 'X-Request-Id': rc.requestId });
}

export const ocrRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/ocr',
    routeClass: 'write',
    handler: ocr,
    doc: {
      operationId: 'ocr',
      summary: "OCR of an uploaded image (the model's own JSON, forwarded)",
      tags: ['synchronous'],
      requestBody: { contentType: 'application/json', schema: OcrRequest },
      responses: {
        200: { description: 'OCR response', schema: OcrResponse },
        400: { description: 'Field invalid', schema: PublicError },
        404: { description: 'Unknown or not owned', schema: PublicError },
      },
    },
  },
];
