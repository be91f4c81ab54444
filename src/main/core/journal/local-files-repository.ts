import type { Database, Statement } from 'better-sqlite3';
import { opt } from './json.js';

export type MediaKind = 'image' | 'audio' | 'video' | 'document';

/** A local input file, hashed and probed for one version of its content. */
export interface LocalFile<P = unknown> {
  readonly id: number;
  readonly path: string;
  readonly sha256: string;
  readonly byteSize: number;
  /** File mtime (epoch ms) when it was hashed; with byteSize, tells whether the hash is current. */
  readonly modifiedAt: number;
  /** Type detected from the content (not the extension). */
  readonly detectedMime?: string;
  readonly kind?: MediaKind;
  /** ffprobe facts (duration, streams, …). */
  readonly probe?: P;
  readonly hashedAt: number;
}

export interface LocalFileFacts {
  readonly path: string;
  readonly sha256: string;
  readonly byteSize: number;
  readonly modifiedAt: number;
  readonly detectedMime?: string;
  readonly kind?: MediaKind;
  readonly probe?: unknown;
}

interface Row {
  id: number;
  path: string;
  sha256: string;
  byte_size: number;
  modified_at: number;
  detected_mime: string | null;
  kind: MediaKind | null;
  probe_json: string | null;
  hashed_at: number;
}

const toLocalFile = <P>(row: Row): LocalFile<P> => ({
  id: row.id,
  path: row.path,
  sha256: row.sha256,
  byteSize: row.byte_size,
  modifiedAt: row.modified_at,
  detectedMime: opt(row.detected_mime),
  kind: opt(row.kind),
  probe: row.probe_json === null ? undefined : (JSON.parse(row.probe_json) as P),
  hashedAt: row.hashed_at,
});

const SHA256 = /^[0-9a-f]{64}$/;

export function checkSha256(value: string, what = 'sha256'): string {
  if (!SHA256.test(value)) throw new RangeError(`${what} must be 64 lowercase hex characters.`);
  return value;
}

export class LocalFilesRepository {
  private readonly upsertStmt: Statement;
  private readonly byPathStmt: Statement<[string], Row>;
  private readonly bySha256Stmt: Statement<[string], Row>;
  private readonly deleteStmt: Statement<[string]>;

  constructor(
    db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.upsertStmt = db.prepare(
      `INSERT INTO local_files (path, sha256, byte_size, modified_at, detected_mime, kind, probe_json, hashed_at)
       VALUES (@path, @sha256, @byteSize, @modifiedAt, @detectedMime, @kind, @probe, @now)
       ON CONFLICT (path) DO UPDATE SET sha256 = excluded.sha256, byte_size = excluded.byte_size,
         modified_at = excluded.modified_at, detected_mime = excluded.detected_mime, kind = excluded.kind,
         probe_json = excluded.probe_json, hashed_at = excluded.hashed_at`,
    );
    this.byPathStmt = db.prepare('SELECT * FROM local_files WHERE path = ?');
    this.bySha256Stmt = db.prepare('SELECT * FROM local_files WHERE sha256 = ? ORDER BY id');
    this.deleteStmt = db.prepare('DELETE FROM local_files WHERE path = ?');
  }

  /** Records (or replaces) the facts of a file. */
  record<P = unknown>(facts: LocalFileFacts): LocalFile<P> {
    this.upsertStmt.run({
      path: facts.path,
      sha256: checkSha256(facts.sha256),
      byteSize: facts.byteSize,
      modifiedAt: Math.trunc(facts.modifiedAt),
      detectedMime: facts.detectedMime ?? null,
      kind: facts.kind ?? null,
      probe: facts.probe === undefined ? null : JSON.stringify(facts.probe),
      now: this.now(),
    });
    return this.get<P>(facts.path)!;
  }

  get<P = unknown>(path: string): LocalFile<P> | undefined {
    const row = this.byPathStmt.get(path);
    return row && toLocalFile<P>(row);
  }

  /**
   * The recorded facts if the file still has the recorded size and mtime (so its hash need not be
   * computed again); undefined when unknown or changed.
   */
  getCurrent<P = unknown>(
    path: string,
    stat: { byteSize: number; modifiedAt: number },
  ): LocalFile<P> | undefined {
    const file = this.get<P>(path);
    return file && file.byteSize === stat.byteSize && file.modifiedAt === Math.trunc(stat.modifiedAt)
      ? file
      : undefined;
  }

  findBySha256<P = unknown>(sha256: string): LocalFile<P>[] {
    return this.bySha256Stmt.all(sha256).map((row) => toLocalFile<P>(row));
  }

  forget(path: string): boolean {
    return this.deleteStmt.run(path).changes > 0;
  }
}
