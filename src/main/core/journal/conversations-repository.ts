import { randomUUID } from 'node:crypto';
import type { Database, Statement } from 'better-sqlite3';
import { toJson } from './json.js';

export type ConversationRole = 'system' | 'user' | 'assistant' | 'tool';

/** A playground chat conversation (one profile, one model). */
export interface Conversation {
  readonly id: string;
  readonly profileId: string;
  readonly model: string;
  readonly title: string;
  readonly systemPrompt?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ConversationMessage {
  readonly id: number;
  readonly conversationId: string;
  readonly position: number;
  readonly role: ConversationRole;
  /** As sent or received: a string or an array of content parts. */
  readonly content: unknown;
  readonly text: string;
  readonly model?: string;
  readonly finishReason?: string;
  readonly usage?: unknown;
  readonly createdAt: number;
}

export interface NewConversationMessage {
  role: ConversationRole;
  content: unknown;
  text: string;
  model?: string;
  finishReason?: string;
  usage?: unknown;
}

export interface ConversationWithMessages extends Conversation {
  readonly messages: ConversationMessage[];
}

interface ConversationRow {
  id: string;
  profile_id: string;
  model: string;
  title: string;
  system_prompt: string | null;
  created_at: number;
  updated_at: number;
}

interface MessageRow {
  id: number;
  conversation_id: string;
  position: number;
  role: ConversationRole;
  content_json: string;
  text: string;
  model: string | null;
  finish_reason: string | null;
  usage_json: string | null;
  created_at: number;
}

const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  profileId: row.profile_id,
  model: row.model,
  title: row.title,
  ...(row.system_prompt !== null ? { systemPrompt: row.system_prompt } : {}),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const toMessage = (row: MessageRow): ConversationMessage => ({
  id: row.id,
  conversationId: row.conversation_id,
  position: row.position,
  role: row.role,
  content: JSON.parse(row.content_json) as unknown,
  text: row.text,
  ...(row.model !== null ? { model: row.model } : {}),
  ...(row.finish_reason !== null ? { finishReason: row.finish_reason } : {}),
  ...(row.usage_json !== null ? { usage: JSON.parse(row.usage_json) as unknown } : {}),
  createdAt: row.created_at,
});

function ftsQuery(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ');
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Playground conversations. A turn is appended in one transaction once the reply is complete, so
 * the journal never holds half a message.
 */
export class ConversationsRepository {
  private readonly insertStmt: Statement;
  private readonly getStmt: Statement<[string], ConversationRow>;
  private readonly messagesStmt: Statement<[string], MessageRow>;
  private readonly nextPositionStmt: Statement<[string], { next: number }>;
  private readonly insertMessageStmt: Statement;
  private readonly touchStmt: Statement;
  private readonly listStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO conversations (id, profile_id, model, title, system_prompt, created_at, updated_at)
       VALUES (@id, @profileId, @model, @title, @systemPrompt, @now, @now)`,
    );
    this.getStmt = db.prepare('SELECT * FROM conversations WHERE id = ?');
    this.messagesStmt = db.prepare(
      'SELECT * FROM conversation_messages WHERE conversation_id = ? ORDER BY position',
    );
    this.nextPositionStmt = db.prepare(
      'SELECT coalesce(max(position) + 1, 0) AS next FROM conversation_messages WHERE conversation_id = ?',
    );
    this.insertMessageStmt = db.prepare(
      `INSERT INTO conversation_messages
         (conversation_id, position, role, content_json, text, model, finish_reason, usage_json, created_at)
       VALUES (@conversationId, @position, @role, @content, @text, @model, @finishReason, @usage, @now)`,
    );
    this.touchStmt = db.prepare('UPDATE conversations SET updated_at = @now WHERE id = @id');
    this.listStmt = db.prepare(
      `SELECT * FROM conversations WHERE (@profileId IS NULL OR profile_id = @profileId)
       ORDER BY updated_at DESC, id DESC LIMIT @limit`,
    );
    this.deleteStmt = db.prepare('DELETE FROM conversations WHERE id = ?');
  }

  create(input: { profileId: string; model: string; title: string; systemPrompt?: string }): Conversation {
    const id = `conv_${randomUUID()}`;
    this.insertStmt.run({
      id,
      profileId: input.profileId,
      model: input.model,
      title: input.title,
      systemPrompt: input.systemPrompt ?? null,
      now: this.now(),
    });
    return this.get(id)!;
  }

  get(id: string): Conversation | undefined {
    const row = this.getStmt.get(id);
    return row && toConversation(row);
  }

  getWithMessages(id: string): ConversationWithMessages | undefined {
    const conversation = this.get(id);
    if (!conversation) return undefined;
    return { ...conversation, messages: this.messagesStmt.all(id).map(toMessage) };
  }

  /** Appends complete messages (a user turn and its reply) atomically; returns them. */
  appendTurn(conversationId: string, messages: NewConversationMessage[]): ConversationMessage[] {
    return this.db
      .transaction(() => {
        if (!this.getStmt.get(conversationId))
          throw new Error(`No conversation ${conversationId} in the journal.`);
        let position = this.nextPositionStmt.get(conversationId)!.next;
        const now = this.now();
        for (const message of messages) {
          this.insertMessageStmt.run({
            conversationId,
            position,
            role: message.role,
            content: toJson(message.content),
            text: message.text,
            model: message.model ?? null,
            finishReason: message.finishReason ?? null,
            usage: message.usage === undefined ? null : toJson(message.usage),
            now,
          });
          position += 1;
        }
        this.touchStmt.run({ id: conversationId, now });
        return this.messagesStmt.all(conversationId).slice(-messages.length).map(toMessage);
      })
      .immediate();
  }

  /** Most recently used first. */
  list(options: { profileId?: string; limit?: number } = {}): Conversation[] {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
    return (this.listStmt.all({ profileId: options.profileId ?? null, limit }) as ConversationRow[]).map(
      toConversation,
    );
  }

  /**
   * Conversations with a title or message containing every whitespace-separated term
   * (substring, case- and diacritic-insensitive for messages); most recently used first.
   */
  search(text: string, options: { profileId?: string; limit?: number } = {}): Conversation[] {
    const limit = Math.min(Math.max(options.limit ?? 50, 1), 500);
    const terms = text.split(/\s+/u).filter(Boolean);
    if (terms.length === 0) return this.list(options);
    const long = terms.filter((t) => [...t].length >= 3);
    const short = terms.filter((t) => [...t].length < 3);
    const conditions = [
      ...(long.length ? ['conversation_search MATCH @match'] : []),
      ...short.map((_, i) => `conversation_search.text LIKE @like${i} ESCAPE '\\'`),
    ];
    const params: Record<string, unknown> = { profileId: options.profileId ?? null, limit };
    if (long.length) params.match = ftsQuery(long);
    short.forEach((t, i) => (params[`like${i}`] = likePattern(t)));
    const titleConditions = terms.map((_, i) => `c.title LIKE @title${i} ESCAPE '\\'`);
    terms.forEach((t, i) => (params[`title${i}`] = likePattern(t)));
    const sql = `SELECT c.* FROM conversations c
      WHERE (@profileId IS NULL OR c.profile_id = @profileId) AND (
        c.id IN (SELECT m.conversation_id FROM conversation_search
                 JOIN conversation_messages m ON m.id = conversation_search.rowid
                 WHERE ${conditions.join(' AND ')})
        OR (${titleConditions.join(' AND ')}))
      ORDER BY c.updated_at DESC, c.id DESC LIMIT @limit`;
    let stmt = this.statements.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.statements.set(sql, stmt);
    }
    return (stmt.all(params) as ConversationRow[]).map(toConversation);
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }
}
