import type { Database, Statement } from 'better-sqlite3';
import { toJson } from './json.js';

/** A studio draft (the form state of a generation not yet submitted), kept across restarts. */
export interface Draft<T = unknown> {
  readonly id: string;
  readonly body: T;
  readonly createdAt: number;
  readonly updatedAt: number;
}

interface DraftRow {
  id: string;
  body_json: string;
  created_at: number;
  updated_at: number;
}

const toDraft = <T>(row: DraftRow): Draft<T> => ({
  id: row.id,
  body: JSON.parse(row.body_json) as T,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export class DraftsRepository {
  private readonly upsertStmt: Statement<
    { id: string; body: string; now: number },
    { created_at: number; updated_at: number }
  >;
  private readonly getStmt: Statement<[string], DraftRow>;
  private readonly listStmt: Statement<[number], DraftRow>;
  private readonly deleteStmt: Statement<[string]>;
  private readonly bytesStmt: Statement<[string], { bytes: number }>;
  private readonly totalStmt: Statement<[], { bytes: number | null; drafts: number }>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.upsertStmt = db.prepare(
      `INSERT INTO drafts (id, body_json, created_at, updated_at) VALUES (@id, @body, @now, @now)
       ON CONFLICT (id) DO UPDATE SET body_json = excluded.body_json, updated_at = excluded.updated_at
       RETURNING created_at, updated_at`,
    );
    this.getStmt = db.prepare('SELECT * FROM drafts WHERE id = ?');
    this.listStmt = db.prepare('SELECT * FROM drafts ORDER BY updated_at DESC, id LIMIT ?');
    this.deleteStmt = db.prepare('DELETE FROM drafts WHERE id = ?');
    this.bytesStmt = db.prepare('SELECT length(CAST(body_json AS BLOB)) AS bytes FROM drafts WHERE id = ?');
    this.totalStmt = db.prepare(
      'SELECT sum(length(CAST(body_json AS BLOB))) AS bytes, count(*) AS drafts FROM drafts',
    );
  }

  /**
   * Creates or replaces the draft; answers it without reading it back. `json` is the body's JSON
   * when the caller has it already (a large draft is serialised once).
   */
  save<T>(id: string, body: T, json: string = toJson(body)): Draft<T> {
    const row = this.upsertStmt.get({ id, body: json, now: this.now() })!;
    return { id, body, createdAt: row.created_at, updatedAt: row.updated_at };
  }

  get<T = unknown>(id: string): Draft<T> | undefined {
    const row = this.getStmt.get(id);
    return row && toDraft<T>(row);
  }

  /** Most recently edited first. */
  list<T = unknown>(limit = 100): Draft<T>[] {
    return this.listStmt.all(limit).map((row) => toDraft<T>(row));
  }

  /** The bytes of a draft's stored body (0 when there is none), read without parsing it. */
  bytesOf(id: string): number {
    return this.bytesStmt.get(id)?.bytes ?? 0;
  }

  /** How many drafts there are and the bytes of their stored bodies (what a person's quota counts). */
  totals(): { bytes: number; drafts: number } {
    const row = this.totalStmt.get();
    return { bytes: row?.bytes ?? 0, drafts: row?.drafts ?? 0 };
  }

  delete(id: string): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }
}
