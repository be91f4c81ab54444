import { DocumentParseRequest, DocumentParseResponse } from '../../shared/api/document-parse.js';
import { PublicError } from '../../shared/api/errors.js';
import type { StoredAsset } from '../assets/asset-store.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import type { Identity } from '../identities.js';
import type { NewJobSpec } from '../jobs/create-job.js';
import { RenderCache } from '../media/render-cache.js';
import { seededRandom } from '../fake-data.js';
import { newId, parseWith, readJsonObject, sendJson } from '../http.js';
import { resolveModel } from '../models.js';
import { ownedInputAsset } from '../rules/owned-assets.js';

/** The simulated parse of a stored document (the same answer for the same bytes and options). */
export function documentParseOf(
  body: DocumentParseRequest,
  service: CatalogService,
  asset: StoredAsset,
): DocumentParseResponse {
  const first = body.page_range?.start_page ?? 1;
  const last = body.page_range?.end_page ?? Math.min(body.pages ?? 1, 500);
  const random = seededRandom('parse:' + asset.sha256);
  const title = body.original_name ?? `document-${asset.sha256.slice(0, 8)}`;
  const pages = [];
  for (let page = first; page <= last; page += 1) {
    const paragraph = `Simulated ${body.language === 'ch' ? 'Chinese' : 'English'} text of page ${page}; checksum ${asset.sha256.slice(0, 8)}; figure ${Math.floor(random() * 100)}.`;
    pages.push({
      page,
      markdown: `## Page ${page}\n\n${paragraph}\n\n| item | value |\n|---|---|\n| page | ${page} |`,
      blocks: [
        { type: 'heading', text: `Page ${page}`, bbox: [72, 72, 540, 100] },
        { type: 'paragraph', text: paragraph, bbox: [72, 120, 540, 220] },
        { type: 'table', text: `item,value\npage,${page}`, bbox: [72, 240, 540, 320] },
      ],
    });
  }
  return {
    id: newId('parse'),
    object: 'document.parse.result',
    model: service.modelAlias,
    documentAssetId: asset.assetId,
    pageCount: pages.length,
    markdown: `# ${title}\n\n` + pages.map((p) => p.markdown).join('\n\n'),
    pages,
    preset: body.preset ?? 'hybrid-medium',
    language: body.language ?? 'en',
    usage: { pages: pages.length },
  };
}

async function parseDocument(rc: RequestContext): Promise<void> {
  const body = parseWith(DocumentParseRequest, await readJsonObject(rc.req));
  const service = resolveModel(body.model, ['document_parse']);
  const asset = ownedInputAsset(
    rc.state,
    rc.identity,
    service.modelAlias,
    body.input_document_asset_id,
    'input_document_asset_id',
  );
  sendJson(rc.res, 200, documentParseOf(body, service, asset), { 'X-Request-Id': rc.requestId });
}

/**
 * A `document_parse` job (the platform runtime's form of the parse): the same request and rules,
 * its answer rendered as one `application/json` result of the job.
 */
export function prepareDocumentParseJob(
  raw: Record<string, unknown>,
  service: CatalogService,
  state: SimulatorState,
  identity: Identity,
): NewJobSpec {
  const body = parseWith(DocumentParseRequest, raw);
  const asset = ownedInputAsset(
    state,
    identity,
    service.modelAlias,
    body.input_document_asset_id,
    'input_document_asset_id',
  );
  const result = documentParseOf(body, service, asset);
  return {
    service,
    object: 'document.parse.job',
    pacing: 'image',
    task: { type: 'document', key: RenderCache.keyOf({ renderer: 'document/1', result }), result },
  };
}

export const documentRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/documents/parse',
    routeClass: 'write',
    handler: parseDocument,
    doc: {
      operationId: 'parseDocument',
      summary: 'Structured document parse of an uploaded document',
      tags: ['synchronous'],
      requestBody: { contentType: 'application/json', schema: DocumentParseRequest },
      responses: {
        200: { description: 'Structured artifacts', schema: DocumentParseResponse },
        400: { description: 'Field invalid', schema: PublicError },
        404: { description: 'Unknown or not owned', schema: PublicError },
      },
    },
  },
];
