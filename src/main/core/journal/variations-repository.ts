import type { Database, Statement } from 'better-sqlite3';

/** One job intent's place in a variation group ("Generate ×N"): 0-based position of `count`. */
export interface JobVariation {
  readonly intentId: number;
  readonly groupId: string;
  readonly position: number;
  readonly count: number;
}

interface VariationRow {
  intent_id: number;
  group_id: string;
  position: number;
  count: number;
}

const toVariation = (row: VariationRow): JobVariation => ({
  intentId: row.intent_id,
  groupId: row.group_id,
  position: row.position,
  count: row.count,
});

/** The variation group of job intents (migration 014). */
export class VariationsRepository {
  private readonly recordStmt: Statement;
  private readonly forIntentsStmt: Statement<[string], VariationRow>;
  private readonly groupStmt: Statement<[string], VariationRow>;

  constructor(db: Database) {
    // a replay of the same group records nothing new (same intent, same place)
    this.recordStmt = db.prepare(
      `INSERT INTO job_variations (intent_id, group_id, position, count)
       VALUES (@intentId, @groupId, @position, @count)
       ON CONFLICT (intent_id) DO NOTHING`,
    );
    this.forIntentsStmt = db.prepare(
      'SELECT * FROM job_variations WHERE intent_id IN (SELECT value FROM json_each(?))',
    );
    this.groupStmt = db.prepare('SELECT * FROM job_variations WHERE group_id = ? ORDER BY position');
  }

  /** Files an intent in its group; an intent already filed keeps its place. */
  record(variation: JobVariation): void {
    this.recordStmt.run(variation);
  }

  /** The variation of each of these intents that has one, by intent id (one statement for a page). */
  forIntents(intentIds: readonly number[]): Map<number, JobVariation> {
    const found = new Map<number, JobVariation>();
    if (intentIds.length === 0) return found;
    for (const row of this.forIntentsStmt.all(JSON.stringify(intentIds))) {
      const variation = toVariation(row);
      found.set(variation.intentId, variation);
    }
    return found;
  }

  /** The group's intents, by position. */
  group(groupId: string): JobVariation[] {
    return this.groupStmt.all(groupId).map(toVariation);
  }
}
