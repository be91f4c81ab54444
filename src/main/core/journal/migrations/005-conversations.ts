import type { Migration } from './migration.js';

/**
 * Playground chat conversations and their messages, searchable.
 *
 * A turn (the user's message and the assistant's complete reply) is written in one transaction
 * only after the reply has fully arrived, so a cancelled or broken stream leaves nothing half-saved.
 * `conversation_search` is FTS5 (trigram, like 004) over each message's plain text; rowid = message
 * id, kept in step by triggers (messages are immutable once written).
 */
export const migration005Conversations: Migration = {
  version: 5,
  name: 'conversations',
  up(db) {
    db.exec(`
      CREATE TABLE conversations (
        id             TEXT PRIMARY KEY,
        profile_id     TEXT NOT NULL REFERENCES profiles (id) ON DELETE CASCADE,
        model          TEXT NOT NULL,
        title          TEXT NOT NULL,
        system_prompt  TEXT,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX conversations_by_profile_updated ON conversations (profile_id, updated_at, id);

      CREATE TABLE conversation_messages (
        id               INTEGER PRIMARY KEY,
        conversation_id  TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        position         INTEGER NOT NULL CHECK (position >= 0),
        role             TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
        -- the message's content as sent or received (a string or an array of parts)
        content_json     TEXT NOT NULL CHECK (json_valid(content_json)),
        -- its plain text, for display and search
        text             TEXT NOT NULL,
        model            TEXT,
        finish_reason    TEXT,
        usage_json       TEXT CHECK (usage_json IS NULL OR json_valid(usage_json)),
        created_at       INTEGER NOT NULL,
        UNIQUE (conversation_id, position)
      ) STRICT;

      CREATE TRIGGER conversation_messages_immutable BEFORE UPDATE ON conversation_messages
      BEGIN
        SELECT RAISE(ABORT, 'conversation messages are immutable');
      END;

      CREATE VIRTUAL TABLE conversation_search USING fts5 (
        text,
        tokenize = 'trigram remove_diacritics 1'
      );

      CREATE TRIGGER conversation_messages_search_insert AFTER INSERT ON conversation_messages
      BEGIN
        INSERT INTO conversation_search (rowid, text) VALUES (NEW.id, NEW.text);
      END;

      CREATE TRIGGER conversation_messages_search_delete AFTER DELETE ON conversation_messages
      BEGIN
        DELETE FROM conversation_search WHERE rowid = OLD.id;
      END;
    `);
  },
};
