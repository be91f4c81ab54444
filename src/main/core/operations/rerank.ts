import { readApiUsage } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { codePointLength } from '../../../shared/api/common.js';
import {
  RERANK_DOCUMENT_MAX,
  RERANK_MAX_DOCUMENTS,
  RERANK_QUERY_MAX,
  RERANK_TOTAL_MAX,
  RerankResponse,
} from '../../../shared/api/rerank.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { InputLimitError, journaledCall, callAnswer, type Answer } from './service-common.js';

export interface RerankInput {
  query: string;
  documents: readonly string[];
  topN?: number;
}

export interface RankedDocument {
  index: number;
  score: number;
  text: string;
}

export interface RerankResult {
  model: string;
  results: RankedDocument[];
  usage?: Record<string, unknown>;
  response: RerankResponse;
}

/** Whether the model takes `top_n` (its contract says `supportsTopN`). */
export function supportsTopN(service: ServiceEntry): boolean {
  return readApiUsage(service.apiUsageContract).supportsTopN;
}

/**
 * Checks a rerank request before anything is sent: query 1..1024, 1..256 documents each at most
 * 8192, query plus documents at most 65,536 characters (code points), `top_n` >= 1 and only where
 * the model supports it.
 */
export function validateRerank(input: RerankInput, service?: ServiceEntry): void {
  const queryLength = codePointLength(input.query);
  if (input.query.trim().length === 0) throw new InputLimitError('query', 'The query is empty.');
  if (queryLength > RERANK_QUERY_MAX)
    throw new InputLimitError(
      'query',
      `The query has ${queryLength} characters; at most ${RERANK_QUERY_MAX} are allowed.`,
    );
  if (input.documents.length === 0) throw new InputLimitError('documents', 'Give at least one document.');
  if (input.documents.length > RERANK_MAX_DOCUMENTS)
    throw new InputLimitError(
      'documents',
      `At most ${RERANK_MAX_DOCUMENTS} documents per request (got ${input.documents.length}).`,
    );
  let total = queryLength;
  input.documents.forEach((doc, i) => {
    const length = codePointLength(doc);
    if (length > RERANK_DOCUMENT_MAX)
      throw new InputLimitError(
        'documents',
        `Document ${i + 1} has ${length} characters; at most ${RERANK_DOCUMENT_MAX} are allowed.`,
      );
    total += length;
  });
  if (total > RERANK_TOTAL_MAX)
    throw new InputLimitError(
      'documents',
      `The query and documents have ${total} characters together; at most ${RERANK_TOTAL_MAX} are allowed.`,
    );
  if (input.topN !== undefined) {
    if (!Number.isInteger(input.topN) || input.topN < 1)
      throw new InputLimitError('top_n', `top_n must be a whole number of at least 1 (got ${input.topN}).`);
    if (service && !supportsTopN(service))
      throw new InputLimitError('top_n', `${service.modelAlias} does not support top_n.`);
  }
}

/**
 * Documents from a loaded file: CSV takes the column named text/document/content (else the
 * first), one row each; any other text takes one non-empty line each.
 */
export function documentsFromFile(fileName: string, content: string): string[] {
  const text = content.replace(/^\uFEFF/, '');
  if (!/\.csv$/i.test(fileName)) return text.split(/\r?\n/).filter((line) => line.trim().length > 0);
  const rows = parseCsv(text).filter((row) => row.some((cell) => cell.trim().length > 0));
  if (rows.length === 0) return [];
  const header = rows[0]!.map((h) => h.trim().toLowerCase());
  const named = header.findIndex((h) => ['text', 'document', 'content', 'doc'].includes(h));
  const column = named >= 0 ? named : 0;
  const body = named >= 0 ? rows.slice(1) : rows;
  return body.map((row) => row[column] ?? '').filter((cell) => cell.trim().length > 0);
}

/** RFC 4180 CSV (quoted fields, doubled quotes, CRLF or LF). */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell.length > 0 || row.length > 0) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

/** Sends one rerank body to a backend (once: the call is billed) and reads its answer. */
export type RerankSend = (body: {
  model: string;
  query: string;
  documents: string[];
  top_n?: number;
}) => Promise<Answer<RerankResponse>>;

/** `POST /rerank` over any backend, checked first and journaled (counts and lengths only, never the query or documents). */
export async function rerankWith(
  journal: Journal,
  profileId: string,
  send: RerankSend,
  service: ServiceEntry,
  input: RerankInput,
): Promise<RerankResult> {
  validateRerank(input, service);
  const body: Parameters<RerankSend>[0] = {
    model: service.modelAlias,
    query: input.query,
    documents: [...input.documents],
  };
  if (input.topN !== undefined) body.top_n = input.topN;
  const response = await journaledCall(
    journal,
    { profileId },
    {
      operation: 'rerank',
      model: service.modelAlias,
      request: {
        queryCharacters: codePointLength(input.query),
        documentCount: input.documents.length,
        totalCharacters: input.documents.reduce(
          (sum, doc) => sum + codePointLength(doc),
          codePointLength(input.query),
        ),
        ...(input.topN !== undefined ? { topN: input.topN } : {}),
      },
      summarize: (r: RerankResponse) => ({
        response: {
          resultCount: r.results.length,
          top: r.results.slice(0, 10).map((x) => ({ index: x.index, score: x.relevance_score })),
        },
        ...(r.usage ? { usage: r.usage } : {}),
      }),
    },
    () => send(body),
  );
  return {
    model: response.model,
    results: response.results.map((r) => ({
      index: r.index,
      score: r.relevance_score,
      text:
        typeof r.document === 'string' ? r.document : (r.document?.text ?? input.documents[r.index] ?? ''),
    })),
    usage: response.usage,
    response,
  };
}

/** `POST /rerank` over the public interface (see {@link rerankWith}). */
export function rerankDocuments(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  input: RerankInput,
): Promise<RerankResult> {
  return rerankWith(
    journal,
    client.profileId,
    (body) => callAnswer(client, () => client.rerank(body), RerankResponse, 'Rerank'),
    service,
    input,
  );
}
