import type { Database, Statement } from 'better-sqlite3';
import { JournalNotFoundError, JournalStateError } from './errors.js';
import { opt } from './json.js';
import { prepareRows, type RowReader } from './row-objects.js';

export type DownloadState = 'pending' | 'downloading' | 'verified' | 'failed';

/** A result asset as the job announced it (an element of `outputs[]`, or legacy `assets[]`). */
export interface AnnouncedOutput {
  readonly assetId: string;
  readonly contentUrl?: string;
  readonly sha256?: string;
  readonly byteSize?: number;
  readonly mimeType?: string;
  readonly kind?: string;
}

export interface Output {
  readonly id: number;
  /** Journal id of the job. */
  readonly jobRowId: number;
  readonly position: number;
  readonly source: 'outputs' | 'assets';
  readonly assetId: string;
  readonly contentUrl?: string;
  readonly expectedSha256?: string;
  readonly expectedByteSize?: number;
  readonly expectedMimeType?: string;
  readonly kind?: string;
  readonly downloadState: DownloadState;
  readonly tempPath?: string;
  /** Verified outputs: the file in the library and its checked facts. */
  readonly localPath?: string;
  readonly sha256?: string;
  readonly byteSize?: number;
  readonly mimeType?: string;
  readonly verifiedAt?: number;
  readonly attemptCount: number;
  readonly lastError?: string;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A job's first verified output with its file in the library (undefined: none is stored). */
export function storedOutputOf(job: {
  readonly outputs: readonly Output[];
}): (Output & { readonly localPath: string }) | undefined {
  return job.outputs.find(
    (o): o is Output & { readonly localPath: string } =>
      o.downloadState === 'verified' && o.localPath !== undefined && o.localPath !== '',
  );
}

export interface VerifiedFile {
  readonly localPath: string;
  readonly sha256: string;
  readonly byteSize: number;
  readonly mimeType: string;
}

interface Row {
  id: number;
  job_row_id: number;
  position: number;
  source: 'outputs' | 'assets';
  asset_id: string;
  content_url: string | null;
  expected_sha256: string | null;
  expected_byte_size: number | null;
  expected_mime_type: string | null;
  kind: string | null;
  download_state: DownloadState;
  temp_path: string | null;
  local_path: string | null;
  sha256: string | null;
  byte_size: number | null;
  mime_type: string | null;
  verified_at: number | null;
  attempt_count: number;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

const toOutput = (row: Row): Output => ({
  id: row.id,
  jobRowId: row.job_row_id,
  position: row.position,
  source: row.source,
  assetId: row.asset_id,
  contentUrl: opt(row.content_url),
  expectedSha256: opt(row.expected_sha256),
  expectedByteSize: opt(row.expected_byte_size),
  expectedMimeType: opt(row.expected_mime_type),
  kind: opt(row.kind),
  downloadState: row.download_state,
  tempPath: opt(row.temp_path),
  localPath: opt(row.local_path),
  sha256: opt(row.sha256),
  byteSize: opt(row.byte_size),
  mimeType: opt(row.mime_type),
  verifiedAt: opt(row.verified_at),
  attemptCount: row.attempt_count,
  lastError: opt(row.last_error),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** Result assets of jobs and the state of their download into the library. */
export class OutputsRepository {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement<[number], Row>;
  private readonly byJobStmt: RowReader<Row>;
  private readonly byJobsStmt: RowReader<Row>;
  private readonly countByJobStmt: Statement<[number], { n: number }>;
  private readonly downloadingStmt: Statement;
  private readonly verifiedStmt: Statement;
  private readonly retryStmt: Statement;
  private readonly failedStmt: Statement;
  private readonly unverifiedJobsStmt: Statement<[], { job_row_id: number }>;

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO outputs (job_row_id, position, source, asset_id, content_url, expected_sha256,
         expected_byte_size, expected_mime_type, kind, created_at, updated_at)
       VALUES (@jobRowId, @position, @source, @assetId, @contentUrl, @expectedSha256,
         @expectedByteSize, @expectedMimeType, @kind, @now, @now)`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM outputs WHERE id = ?');
    this.byJobStmt = prepareRows(db, 'SELECT * FROM outputs WHERE job_row_id = ? ORDER BY position');
    this.byJobsStmt = prepareRows(
      db,
      'SELECT * FROM outputs WHERE job_row_id IN (SELECT value FROM json_each(?)) ORDER BY job_row_id, position',
    );
    this.countByJobStmt = db.prepare('SELECT count(*) AS n FROM outputs WHERE job_row_id = ?');
    this.downloadingStmt = db.prepare(
      `UPDATE outputs SET download_state = 'downloading', temp_path = @tempPath,
         attempt_count = attempt_count + 1, updated_at = @now
       WHERE id = @id AND download_state IN ('pending', 'downloading')`,
    );
    this.verifiedStmt = db.prepare(
      `UPDATE outputs SET download_state = 'verified', temp_path = NULL, local_path = @localPath,
         sha256 = @sha256, byte_size = @byteSize, mime_type = @mimeType, verified_at = @now,
         last_error = NULL, updated_at = @now
       WHERE id = @id`,
    );
    this.retryStmt = db.prepare(
      `UPDATE outputs SET download_state = 'pending', temp_path = NULL, last_error = @error, updated_at = @now
       WHERE id = @id AND download_state <> 'verified'`,
    );
    this.failedStmt = db.prepare(
      `UPDATE outputs SET download_state = 'failed', temp_path = NULL, last_error = @error, updated_at = @now
       WHERE id = @id AND download_state <> 'verified'`,
    );
    this.unverifiedJobsStmt = db.prepare(
      `SELECT DISTINCT job_row_id FROM outputs WHERE download_state IN ('pending', 'downloading') ORDER BY job_row_id`,
    );
  }

  /**
   * Records the announced outputs of a job once (positions 0..n-1). A second call for the same job
   * is a no-op: the first announcement is what gets downloaded and verified.
   */
  recordAnnounced(
    jobRowId: number,
    outputs: readonly AnnouncedOutput[],
    source: 'outputs' | 'assets',
  ): Output[] {
    return this.db
      .transaction(() => {
        if (this.countByJobStmt.get(jobRowId)!.n === 0) {
          const now = this.now();
          outputs.forEach((output, position) => {
            this.insertStmt.run({
              jobRowId,
              position,
              source,
              assetId: output.assetId,
              contentUrl: output.contentUrl ?? null,
              expectedSha256: output.sha256?.toLowerCase() ?? null,
              expectedByteSize: output.byteSize ?? null,
              expectedMimeType: output.mimeType ?? null,
              kind: output.kind ?? null,
              now,
            });
          });
        }
        return this.listForJob(jobRowId);
      })
      .immediate();
  }

  get(id: number): Output | undefined {
    const row = this.byIdStmt.get(id);
    return row && toOutput(row);
  }

  listForJob(jobRowId: number): Output[] {
    return this.byJobStmt.all(jobRowId).map(toOutput);
  }

  /** The outputs of each of these jobs, by position (one statement for a page of jobs; none: []). */
  listForJobs(jobRowIds: readonly number[]): Map<number, Output[]> {
    const found = new Map<number, Output[]>(jobRowIds.map((id) => [id, []]));
    if (jobRowIds.length === 0) return found;
    for (const row of this.byJobsStmt.all(JSON.stringify(jobRowIds)))
      found.get(row.job_row_id)?.push(toOutput(row));
    return found;
  }

  /** Journal ids of jobs with outputs still to download (uses a partial index). */
  jobsWithUnverifiedOutputs(): number[] {
    return this.unverifiedJobsStmt.all().map((r) => r.job_row_id);
  }

  /** A download (attempt) starts; `tempPath` is where partial bytes may be left by a crash. */
  markDownloading(id: number, tempPath: string): Output {
    if (this.downloadingStmt.run({ id, tempPath, now: this.now() }).changes === 0) {
      const current = this.get(id);
      if (!current) throw new JournalNotFoundError(`The output ${id}`);
      throw new JournalStateError(
        `The output ${id} is ${current.downloadState}; it cannot be downloaded again.`,
      );
    }
    return this.get(id)!;
  }

  /** The file was checked (type, length, sha256) and moved into the library. */
  markVerified(id: number, file: VerifiedFile): Output {
    if (!/^[0-9a-f]{64}$/.test(file.sha256))
      throw new RangeError('sha256 must be 64 lowercase hex characters.');
    if (this.verifiedStmt.run({ id, ...file, now: this.now() }).changes === 0) {
      throw new JournalNotFoundError(`The output ${id}`);
    }
    return this.get(id)!;
  }

  /** This attempt failed (broken stream, mismatch); the output will be read again. */
  markForRetry(id: number, error: string): Output {
    if (this.retryStmt.run({ id, error, now: this.now() }).changes === 0) {
      throw new JournalStateError(`The output ${id} is missing or already verified.`);
    }
    return this.get(id)!;
  }

  /** Gives up on the output after bounded re-reads; it leaves the resume list. */
  markFailed(id: number, error: string): Output {
    if (this.failedStmt.run({ id, error, now: this.now() }).changes === 0) {
      throw new JournalStateError(`The output ${id} is missing or already verified.`);
    }
    return this.get(id)!;
  }
}
