import { EmbeddingsRequest, EmbeddingsResponse } from '../../shared/api/embeddings.js';
import { PublicError } from '../../shared/api/errors.js';
import { RerankRequest, RerankResponse } from '../../shared/api/rerank.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef } from '../context.js';
import { invalidField } from '../errors.js';
import { countTokens, embed, lexicalScores } from '../fake-data.js';
import { newId, parseWith, readJsonObject, sendJson } from '../http.js';
import { resolveModel } from '../models.js';

/** The embeddings of `input` by `service` (deterministic unit vectors), as the public and the runtime call answer them. */
export function embeddingsResponse(
  service: CatalogService,
  input: EmbeddingsRequest['input'],
): EmbeddingsResponse {
  const dimensions = Number(
    (service.apiUsageContract as { dimensions?: number } | undefined)?.dimensions ?? 256,
  );
  const inputs = typeof input === 'string' ? [input] : input;
  const tokens = inputs.reduce((sum, text) => sum + countTokens(text), 0);
  return {
    object: 'list',
    model: service.modelAlias,
    data: inputs.map((text, index) => ({ object: 'embedding', index, embedding: embed(text, dimensions) })),
    usage: { prompt_tokens: tokens, total_tokens: tokens },
  };
}

/** The documents ranked by lexical relevance (`top_n` only where the model supports it). */
export function rerankResponse(service: CatalogService, body: RerankRequest): RerankResponse {
  const supportsTopN = Boolean(
    (service.apiUsageContract as { supportsTopN?: boolean } | undefined)?.supportsTopN,
  );
  if (body.top_n !== undefined && !supportsTopN) {
    throw invalidField('field_not_supported', 'top_n', `${service.modelAlias} does not support top_n.`);
  }
  const scores = lexicalScores(body.query, body.documents);
  const ranked = scores
    .map((score, index) => ({ index, relevance_score: score, document: { text: body.documents[index]! } }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const results = body.top_n !== undefined ? ranked.slice(0, body.top_n) : ranked;
  return {
    id: newId('rerank'),
    model: service.modelAlias,
    results,
    usage: { documents: body.documents.length, search_units: Math.ceil(body.documents.length / 100) },
  };
}

async function embeddings(rc: RequestContext): Promise<void> {
  const body = parseWith(EmbeddingsRequest, await readJsonObject(rc.req));
  const service = resolveModel(body.model, ['embeddings']);
  sendJson(rc.res, 200, embeddingsResponse(service, body.input), { 'X-Request-Id': rc.requestId });
}

async function rerank(rc: RequestContext): Promise<void> {
  const body = parseWith(RerankRequest, await readJsonObject(rc.req));
  const service = resolveModel(body.model, ['rerank']);
  sendJson(rc.res, 200, rerankResponse(service, body), { 'X-Request-Id': rc.requestId });
}

const errors = {
  400: { description: 'Field invalid', schema: PublicError },
  404: { description: 'Unknown model', schema: PublicError },
};

export const retrievalRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/embeddings',
    routeClass: 'write',
    handler: embeddings,
    doc: {
      operationId: 'createEmbeddings',
      summary: 'Embeddings (deterministic unit vectors in the simulator)',
      tags: ['synchronous'],
      requestBody: { contentType: 'application/json', schema: EmbeddingsRequest },
      responses: { 200: { description: 'Embeddings response', schema: EmbeddingsResponse }, ...errors },
    },
  },
  {
    method: 'POST',
    path: '/rerank',
    routeClass: 'write',
    handler: rerank,
    doc: {
      operationId: 'rerank',
      summary: 'Rerank documents (lexical BM25 relevance in the simulator)',
      tags: ['synchronous'],
      requestBody: { contentType: 'application/json', schema: RerankRequest },
      responses: { 200: { description: 'Rerank response', schema: RerankResponse }, ...errors },
    },
  },
];
