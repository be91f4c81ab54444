import { readApiUsage } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { codePointLength } from '../../../shared/api/common.js';
import {
  EMBEDDING_MAX_CODE_POINTS,
  EMBEDDING_MAX_ITEMS,
  EmbeddingsResponse,
} from '../../../shared/api/embeddings.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { InputLimitError, journaledCall, callAnswer, type Answer } from './service-common.js';

export interface EmbeddingsResult {
  model: string;
  dimensions: number;
  /** One vector per input, in input order. */
  vectors: number[][];
  /** Cosine similarity of every pair of inputs (1 on the diagonal). */
  similarity: number[][];
  usage: Record<string, unknown>;
  response: EmbeddingsResponse;
}

/** The limits that apply: the document's, tightened by the service's published ones. */
function limitsOf(service: ServiceEntry): { maxItems: number; maxChars: number } {
  const usage = readApiUsage(service.apiUsageContract);
  const n = (v: number | undefined, d: number) => (v === undefined ? d : Math.min(v, d));
  return {
    maxItems: n(usage.maxItems, EMBEDDING_MAX_ITEMS),
    maxChars: n(usage.maxCharactersPerItem, EMBEDDING_MAX_CODE_POINTS),
  };
}

/** Checks the input before anything is sent: 1..64 non-empty texts, each at most 8192 code points. */
export function validateEmbeddingInputs(inputs: readonly string[], service?: ServiceEntry): void {
  const { maxItems, maxChars } = service
    ? limitsOf(service)
    : { maxItems: EMBEDDING_MAX_ITEMS, maxChars: EMBEDDING_MAX_CODE_POINTS };
  if (inputs.length === 0) throw new InputLimitError('input', 'Give at least one text to embed.');
  if (inputs.length > maxItems)
    throw new InputLimitError('input', `At most ${maxItems} texts per request (got ${inputs.length}).`);
  inputs.forEach((text, i) => {
    if (text.trim().length === 0)
      throw new InputLimitError('input', `Text ${i + 1} is empty (or only white space).`);
    const length = codePointLength(text);
    if (length > maxChars)
      throw new InputLimitError(
        'input',
        `Text ${i + 1} has ${length} characters; at most ${maxChars} are allowed.`,
      );
  });
}

export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

export function similarityMatrix(vectors: readonly (readonly number[])[]): number[][] {
  return vectors.map((a) => vectors.map((b) => Math.round(cosineSimilarity(a, b) * 1e6) / 1e6));
}

/** Sends one embeddings body to a backend (once: the call is billed) and reads its answer. */
export type EmbeddingsSend = (body: {
  model: string;
  input: string | string[];
}) => Promise<Answer<EmbeddingsResponse>>;

/**
 * `POST /embeddings` over any backend: one text (sent as a string) or several (an array), checked
 * first. The call is journaled (counts and lengths only, never the texts).
 */
export async function embeddingsWith(
  journal: Journal,
  profileId: string,
  send: EmbeddingsSend,
  service: ServiceEntry,
  inputs: readonly string[],
): Promise<EmbeddingsResult> {
  validateEmbeddingInputs(inputs, service);
  const body = { model: service.modelAlias, input: inputs.length === 1 ? inputs[0]! : [...inputs] };
  const response = await journaledCall(
    journal,
    { profileId },
    {
      operation: 'embeddings',
      model: service.modelAlias,
      request: {
        inputCount: inputs.length,
        totalCharacters: inputs.reduce((sum, text) => sum + codePointLength(text), 0),
      },
      summarize: (r: EmbeddingsResponse) => ({
        response: { count: r.data.length, dimensions: r.data[0]?.embedding.length ?? 0, model: r.model },
        usage: r.usage,
      }),
    },
    () => send(body),
  );
  const vectors = [...response.data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
  return {
    model: response.model,
    dimensions: vectors[0]?.length ?? 0,
    vectors,
    similarity: similarityMatrix(vectors),
    usage: response.usage,
    response,
  };
}

/** `POST /embeddings` over the public interface (see {@link embeddingsWith}). */
export function createEmbeddings(
  journal: Journal,
  client: PublicApiClient,
  service: ServiceEntry,
  inputs: readonly string[],
): Promise<EmbeddingsResult> {
  return embeddingsWith(
    journal,
    client.profileId,
    (body) => callAnswer(client, () => client.embeddings(body), EmbeddingsResponse, 'Embeddings'),
    service,
    inputs,
  );
}
