import type { Database, Statement } from 'better-sqlite3';
import { toJson } from './json.js';

/** Application settings: one JSON value per key. Never a secret. */
export class SettingsRepository {
  private readonly getStmt: Statement<[string], { value_json: string }>;
  private readonly setStmt: Statement;
  private readonly deleteStmt: Statement<[string]>;
  private readonly allStmt: Statement<[], { key: string; value_json: string }>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.getStmt = db.prepare('SELECT value_json FROM settings WHERE key = ?');
    this.setStmt = db.prepare(
      `INSERT INTO settings (key, value_json, updated_at) VALUES (@key, @value, @now)
       ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
    );
    this.deleteStmt = db.prepare('DELETE FROM settings WHERE key = ?');
    this.allStmt = db.prepare('SELECT key, value_json FROM settings ORDER BY key');
  }

  get<T = unknown>(key: string): T | undefined {
    const row = this.getStmt.get(key);
    return row ? (JSON.parse(row.value_json) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.setStmt.run({ key, value: toJson(value), now: this.now() });
  }

  delete(key: string): boolean {
    return this.deleteStmt.run(key).changes > 0;
  }

  all(): Record<string, unknown> {
    return Object.fromEntries(this.allStmt.all().map((r) => [r.key, JSON.parse(r.value_json) as unknown]));
  }
}
