import type { Database, Statement } from 'better-sqlite3';

/** A numeric event cursor as text: digits only (never a job id), at most 40 of them. */
export function isEventCursor(value: unknown): value is string {
  return typeof value === 'string' && /^\d{1,40}$/.test(value);
}

/** Compares two event cursors numerically (they may exceed 2^53). */
export function compareEventCursors(a: string, b: string): number {
  const x = BigInt(a);
  const y = BigInt(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The last acknowledged cursor of each events stream of this journal (migration 010). */
export class EventCursorsRepository {
  private readonly getStmt: Statement<[string], { cursor: string }>;
  private readonly setStmt: Statement;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare('SELECT cursor FROM event_cursors WHERE stream = ?');
    this.setStmt = db.prepare(
      `INSERT INTO event_cursors (stream, cursor, updated_at) VALUES (@stream, @cursor, @now)
       ON CONFLICT (stream) DO UPDATE SET cursor = excluded.cursor, updated_at = excluded.updated_at`,
    );
  }

  /** The acknowledged cursor of `stream`, or undefined when none was acknowledged yet. */
  get(stream: string): string | undefined {
    return this.getStmt.get(stream)?.cursor;
  }

  /** Records `cursor` as acknowledged; refuses anything that is not a numeric cursor. */
  set(stream: string, cursor: string): void {
    if (!isEventCursor(cursor)) throw new RangeError('An event cursor is a non-negative integer.');
    this.setStmt.run({ stream, cursor, now: this.now() });
  }
}
