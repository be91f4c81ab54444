import type { Database } from 'better-sqlite3';

/** A sequence imported from a board (migration 017): the board and each shot's panel. */
export interface StoryboardLink {
  readonly sequenceId: string;
  readonly boardId: string;
  readonly title: string;
  /** The shots made from panels, in board order. */
  readonly panels: readonly { shotId: string; panelId: string; position: number }[];
}

/** Which board each imported sequence came from, and which panel each of its shots. */
export class StoryboardLinksRepository {
  constructor(
    private readonly db: Database,
    private readonly now: () => number,
  ) {}

  /** Records an import (the sequence and its shots exist): one transaction, all or nothing. */
  record(link: StoryboardLink): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          'INSERT INTO storyboard_imports (sequence_id, board_id, title, imported_at) VALUES (?, ?, ?, ?)',
        )
        .run(link.sequenceId, link.boardId, link.title, this.now());
      const panel = this.db.prepare(
        'INSERT INTO storyboard_shot_panels (shot_id, sequence_id, panel_id, position) VALUES (?, ?, ?, ?)',
      );
      for (const p of link.panels) panel.run(p.shotId, link.sequenceId, p.panelId, p.position);
    })();
  }

  /** The sequence a board was imported into, while it exists. */
  sequenceOfBoard(boardId: string): string | undefined {
    const row = this.db
      .prepare('SELECT sequence_id FROM storyboard_imports WHERE board_id = ?')
      .get(boardId) as { sequence_id: string } | undefined;
    return row?.sequence_id;
  }

  /** Every board imported here → its sequence. */
  sequencesByBoard(): Map<string, string> {
    const rows = this.db.prepare('SELECT board_id, sequence_id FROM storyboard_imports').all() as {
      board_id: string;
      sequence_id: string;
    }[];
    return new Map(rows.map((r) => [r.board_id, r.sequence_id]));
  }

  /** The link of a sequence (undefined: not imported from a board). */
  linkOf(sequenceId: string): StoryboardLink | undefined {
    const row = this.db
      .prepare('SELECT board_id, title FROM storyboard_imports WHERE sequence_id = ?')
      .get(sequenceId) as { board_id: string; title: string } | undefined;
    if (!row) return undefined;
    const panels = this.db
      .prepare(
        'SELECT shot_id, panel_id, position FROM storyboard_shot_panels WHERE sequence_id = ? ORDER BY position',
      )
      .all(sequenceId) as { shot_id: string; panel_id: string; position: number }[];
    return {
      sequenceId,
      boardId: row.board_id,
      title: row.title,
      panels: panels.map((p) => ({ shotId: p.shot_id, panelId: p.panel_id, position: p.position })),
    };
  }

  /** Records a result written into a board (once per idempotency key; a replay changes nothing). */
  recordSend(send: {
    idempotencyKey: string;
    boardId: string;
    panelId: string;
    writeId: string;
    sha256: string;
    expiresAt: number;
  }): void {
    this.db
      .prepare(
        `INSERT INTO storyboard_sends (idempotency_key, board_id, panel_id, write_id, sha256, expires_at, sent_at)
         VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING`,
      )
      .run(
        send.idempotencyKey,
        send.boardId,
        send.panelId,
        send.writeId,
        send.sha256,
        send.expiresAt,
        this.now(),
      );
  }

  /** The content a board still points at through a readUrl not yet expired (kept from collection). */
  sentSha256(nowMs: number): string[] {
    const rows = this.db
      .prepare('SELECT DISTINCT sha256 FROM storyboard_sends WHERE expires_at > ?')
      .all(nowMs) as { sha256: string }[];
    return rows.map((r) => r.sha256);
  }
}
