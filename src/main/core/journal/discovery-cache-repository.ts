import type { Database, Statement } from 'better-sqlite3';
import { toJson } from './json.js';

/** Discovery resources that are cached. */
export type DiscoveryResource = 'services' | 'models' | 'audio/voices';

export interface CachedDiscovery<T = unknown> {
  readonly profileId: string;
  readonly resource: DiscoveryResource;
  readonly fetchedAt: number;
  readonly body: T;
}

interface Row {
  profile_id: string;
  resource: DiscoveryResource;
  fetched_at: number;
  body_json: string;
}

/** The last discovery response per profile (a different identity may see different services). */
export class DiscoveryCacheRepository {
  private readonly putStmt: Statement;
  private readonly getStmt: Statement<[string, string], Row>;
  private readonly clearStmt: Statement<[string]>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.putStmt = db.prepare(
      `INSERT INTO discovery_cache (profile_id, resource, fetched_at, body_json)
       VALUES (@profileId, @resource, @fetchedAt, @body)
       ON CONFLICT (profile_id, resource) DO UPDATE SET fetched_at = excluded.fetched_at, body_json = excluded.body_json`,
    );
    this.getStmt = db.prepare('SELECT * FROM discovery_cache WHERE profile_id = ? AND resource = ?');
    this.clearStmt = db.prepare('DELETE FROM discovery_cache WHERE profile_id = ?');
  }

  put<T>(profileId: string, resource: DiscoveryResource, body: T, fetchedAt: number = this.now()): void {
    this.putStmt.run({ profileId, resource, fetchedAt, body: toJson(body) });
  }

  get<T = unknown>(
    profileId: string,
    resource: DiscoveryResource = 'services',
  ): CachedDiscovery<T> | undefined {
    const row = this.getStmt.get(profileId, resource);
    return (
      row && {
        profileId: row.profile_id,
        resource: row.resource,
        fetchedAt: row.fetched_at,
        body: JSON.parse(row.body_json) as T,
      }
    );
  }

  clear(profileId: string): number {
    return this.clearStmt.run(profileId).changes;
  }
}
