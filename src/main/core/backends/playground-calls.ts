import { chatTurn } from '../operations/chat.js';
import { parseDocument } from '../operations/document-parse.js';
import { createEmbeddings } from '../operations/embeddings.js';
import { runOcr } from '../operations/ocr.js';
import { rerankDocuments } from '../operations/rerank.js';
import { transcribeFile } from '../operations/transcription.js';
import type { Journal } from '../journal/open-journal.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';

/** A public operation `(journal, client, ...rest) => T` with its journal and client already bound. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any journal and client type
export type ClientBound<F> = F extends (journal: any, client: any, ...rest: infer R) => infer T
  ? (...rest: R) => T
  : never;

/**
 * The Playground's synchronous calls of one backend, with the same signatures and results over the
 * public interface ({@link publicPlaygroundCalls}) and the platform runtime
 * (`platform-runtime/runtime-playground-calls.ts`).
 */
export interface PlaygroundCalls {
  chat: ClientBound<typeof chatTurn>;
  embed: ClientBound<typeof createEmbeddings>;
  rerank: ClientBound<typeof rerankDocuments>;
  ocr: ClientBound<typeof runOcr>;
  transcribe: ClientBound<typeof transcribeFile>;
  parse: ClientBound<typeof parseDocument>;
}

/** The public interface's Playground calls, for one profile's client. */
export function publicPlaygroundCalls(journal: Journal, client: PublicApiClient): PlaygroundCalls {
  return {
    chat: (...args) => chatTurn(journal, client, ...args),
    embed: (...args) => createEmbeddings(journal, client, ...args),
    rerank: (...args) => rerankDocuments(journal, client, ...args),
    ocr: (...args) => runOcr(journal, client, ...args),
    transcribe: (...args) => transcribeFile(journal, client, ...args),
    parse: (...args) => parseDocument(journal, client, ...args),
  };
}
