import type { Migration } from './migration.js';

/**
 * Event cursors: per events stream of this journal's subject (the platform runtime's
 * `GET /media/events`), the last cursor whose event was processed and acknowledged, so that a
 * restart resumes with `Last-Event-ID` = that cursor and no event is processed twice. A cursor is
 * the numeric SSE `id` as text (digits only: a job id is never a cursor).
 */
export const migration010EventCursors: Migration = {
  version: 10,
  name: 'event-cursors',
  up(db) {
    db.exec(`
      CREATE TABLE event_cursors (
        stream      TEXT PRIMARY KEY CHECK (length(stream) BETWEEN 1 AND 100),
        cursor      TEXT NOT NULL CHECK (length(cursor) BETWEEN 1 AND 40 AND cursor NOT GLOB '*[^0-9]*'),
        updated_at  INTEGER NOT NULL
      ) STRICT;
    `);
  },
};
