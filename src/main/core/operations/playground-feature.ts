import type { Journal } from '../journal/open-journal.js';
import type { Conversation, ConversationWithMessages } from '../journal/conversations-repository.js';
import { chatTurn } from './chat.js';
import { parseDocument } from './document-parse.js';
import { createEmbeddings } from './embeddings.js';
import { runOcr } from './ocr.js';
import { rerankDocuments } from './rerank.js';
import { transcribeFile } from './transcription.js';

export type { Conversation, ConversationWithMessages };

/** A service call with its first argument, the journal, bound. */
type JournalBound<F> = F extends (journal: Journal, ...rest: infer R) => infer T ? (...rest: R) => T : never;

export interface PlaygroundFeatureDeps {
  /** Every synchronous call is recorded in the journal (`service_calls`), chats in `conversations`. */
  readonly journal: Journal;
}

/**
 * The synchronous services of the public API (chat, embeddings, rerank, OCR, transcription,
 * document parsing) and the saved conversations, for the Playground and the CLI. Each call is
 * the service module's, recorded in the journal; callers never hold the journal themselves.
 */
export class PlaygroundFeature {
  constructor(private readonly deps: PlaygroundFeatureDeps) {}

  readonly chat: JournalBound<typeof chatTurn> = (...args) => chatTurn(this.deps.journal, ...args);
  readonly embed: JournalBound<typeof createEmbeddings> = (...args) =>
    createEmbeddings(this.deps.journal, ...args);
  readonly rerank: JournalBound<typeof rerankDocuments> = (...args) =>
    rerankDocuments(this.deps.journal, ...args);
  readonly ocr: JournalBound<typeof runOcr> = (...args) => runOcr(this.deps.journal, ...args);
  readonly transcribe: JournalBound<typeof transcribeFile> = (...args) =>
    transcribeFile(this.deps.journal, ...args);
  readonly parse: JournalBound<typeof parseDocument> = (...args) => parseDocument(this.deps.journal, ...args);

  /** A profile's conversations, newest first; with `search`, those whose messages match it. */
  conversations(profileId: string, search?: string): Conversation[] {
    const repo = this.deps.journal.conversations;
    return search !== undefined ? repo.search(search, { profileId }) : repo.list({ profileId });
  }

  conversation(id: string): Conversation | undefined {
    return this.deps.journal.conversations.get(id);
  }

  conversationWithMessages(id: string): ConversationWithMessages | undefined {
    return this.deps.journal.conversations.getWithMessages(id);
  }
}
