import type { Database, Statement } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { durably } from './database.js';
import { prepareRows, type RowReader } from './row-objects.js';
import { IdempotencyConflictError, JournalNotFoundError, JournalStateError } from './errors.js';
import { canonicalJson, fromFlag, opt } from './json.js';
import type { AnnouncedOutput, Output, OutputsRepository } from './outputs-repository.js';
import { decodeCursor, FIRST_PAGE_BEFORE, pageSize, toPage } from './pagination.js';
import type { Page } from './pagination.js';
import { TERMINAL_JOB_STATUSES, type IntentState } from '../../../shared/api/job-statuses.js';
import { JOB_STATUSES, type JobStatus } from './vocabulary.js';

export type { IntentState };
export { JOB_STATUSES, type JobStatus };
/** Statuses after which polling stops. */
export { TERMINAL_JOB_STATUSES };
export const isTerminalStatus = (status: JobStatus): boolean => TERMINAL_JOB_STATUSES.includes(status);

/** A business decision "generate this", recorded before the create request leaves. */
export interface JobIntent {
  readonly id: number;
  readonly idempotencyKey: string;
  readonly profileId: string;
  readonly model: string;
  readonly serviceKind: string;
  readonly draftId?: string;
  readonly optimizationClientRequestId?: string;
  /** The exact bytes to send (and to replay) as the create body. */
  readonly canonicalBodyJson: string;
  readonly state: IntentState;
  readonly attemptCount: number;
  readonly lastAttemptAt?: number;
  readonly requestId?: string;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly statusCode?: number;
  readonly retryable?: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewIntent {
  readonly idempotencyKey: string;
  readonly profileId: string;
  readonly model: string;
  readonly serviceKind: string;
  /** The create body; stored as canonical JSON (sorted keys). */
  readonly body: unknown;
  readonly draftId?: string;
  readonly optimizationClientRequestId?: string;
  /**
   * A resend after the first intent was refused `404 asset_not_found`: its key must be
   * {@link resendIdempotencyKey} of the first key and this attempt; the link is recorded with it.
   */
  readonly resendOf?: { readonly firstIdempotencyKey: string; readonly attempt: number };
}

/** The spec's strictest key rule (an optimization's `clientRequestId`): 8..128 of [A-Za-z0-9._:-]. */
const PORTABLE_KEY = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The key of a resend (attempt 2, 3, …) of a business intent whose create was refused
 * `404 asset_not_found`: a new business attempt (a key never carries two bodies), derived
 * deterministically from the first key so that a crash between the refusal and the resend sends
 * this same key again, never a third. `<first key>.r<attempt>` when that still fits the spec's
 * strictest key rule; otherwise `fw-r<attempt>-<sha256 of the first key>`.
 */
export function resendIdempotencyKey(firstKey: string, attempt: number): string {
  if (!Number.isInteger(attempt) || attempt < 2) throw new RangeError('A resend is attempt 2 or later.');
  const readable = `${firstKey}.r${attempt}`;
  if (PORTABLE_KEY.test(readable)) return readable;
  return `fw-r${attempt}-${createHash('sha256').update(firstKey, 'utf8').digest('hex')}`;
}

/**
 * A refusal because an input asset is gone: 404 `asset_not_found` (unknown: purged after expiry,
 * lost) or 422 `asset_expired` (its lifetime is over). Uploading again and resending fixes it.
 */
export function refusedForAssetGone(r: { statusCode?: number; errorCode?: string }): boolean {
  return (
    (r.statusCode === 404 && r.errorCode === 'asset_not_found') ||
    (r.statusCode === 422 && r.errorCode === 'asset_expired')
  );
}

/** Whether the service refused this intent because an input asset it names is gone (expired, lost). */
export function refusedForUnknownAsset(intent: JobIntent): boolean {
  return intent.state === 'rejected' && refusedForAssetGone(intent);
}

/** The job fields read from a creation or poll response (a MediaJob). */
export interface JobSnapshot {
  readonly status: JobStatus;
  readonly stage?: string;
  readonly stageMessage?: string;
  readonly serverCreatedAt?: number;
  readonly startedAt?: number;
  readonly completedAt?: number;
  readonly elapsedSeconds?: number;
  readonly queuedSeconds?: number;
  readonly runningSeconds?: number;
  readonly refreshAfterSeconds?: number;
  readonly retryAfterSeconds?: number;
  /** When the engine plans the next poll (epoch ms); cleared automatically on terminal statuses. */
  readonly nextPollAt?: number;
  readonly effectiveSpec?: unknown;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly statusCode?: number;
  readonly retryable?: boolean;
  /** `outputs[]` (or legacy `assets[]` with `outputsSource: 'assets'`), recorded once. */
  readonly outputs?: readonly AnnouncedOutput[];
  readonly outputsSource?: 'outputs' | 'assets';
  /** The whole response body, additional properties included, kept for diagnosis. */
  readonly body?: unknown;
}

export interface Acceptance extends JobSnapshot {
  readonly jobId: string;
  readonly requestId: string;
  /** As returned; absent only for legacy responses. */
  readonly jobUrl?: string;
}

export interface Rejection {
  readonly statusCode: number;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly requestId?: string;
  readonly retryable?: boolean;
}

export interface Job {
  /** Journal id (not the service's jobId). */
  readonly id: number;
  readonly intentId: number;
  readonly profileId: string;
  readonly model: string;
  readonly serviceKind: string;
  readonly jobId: string;
  readonly requestId: string;
  readonly jobUrl?: string;
  readonly status: JobStatus;
  readonly stage?: string;
  readonly stageMessage?: string;
  readonly serverCreatedAt?: number;
  readonly startedAt?: number;
  readonly completedAt?: number;
  readonly elapsedSeconds?: number;
  readonly queuedSeconds?: number;
  readonly runningSeconds?: number;
  readonly refreshAfterSeconds?: number;
  readonly retryAfterSeconds?: number;
  readonly nextPollAt?: number;
  readonly lastPolledAt?: number;
  readonly pollCount: number;
  readonly effectiveSpec?: unknown;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly statusCode?: number;
  readonly retryable?: boolean;
  readonly lastBody?: unknown;
  readonly acceptedAt: number;
  readonly updatedAt: number;
}

/** When a job entered one (status, stage), as recorded by this journal (local clock, epoch ms). */
export interface StageTiming {
  readonly status: JobStatus;
  readonly stage?: string;
  readonly startedAt: number;
}

/** Which earlier jobs an estimate of a job's duration is read from: one profile, model and length. */
export interface DurationSampleQuery {
  readonly profileId: string;
  readonly model: string;
  /** The requested `seconds` of the create body; null matches jobs that requested none. */
  readonly seconds: number | null;
  /** The most recent jobs only (default 50). */
  readonly limit?: number;
}

/** A job as a page of jobs lists it: all of it but the last poll's raw body (`getJob` has that). */
export type ListedJob = Omit<Job, 'lastBody'>;

export interface JobWithOutputs extends Job {
  readonly outputs: Output[];
}

export interface ListJobsQuery {
  readonly status?: JobStatus;
  readonly profileId?: string;
  /** 1..500, default 50. */
  readonly limit?: number;
  readonly cursor?: string;
}

/** Everything that has to continue after a (re)start. */
export interface UnfinishedWork {
  /** Intents whose create outcome is not known: replay with the same key and body. */
  readonly intents: JobIntent[];
  /** Accepted jobs not in a terminal status, soonest poll first. */
  readonly jobsToPoll: Job[];
  /** Jobs (any status, in practice succeeded) with outputs not yet downloaded and verified. */
  readonly jobsToDownload: JobWithOutputs[];
}

/** Who holds a job lease: one id per running engine, with its process id and host name. */
export interface LeaseOwner {
  readonly id: string;
  readonly pid: number;
  readonly host: string;
}

export interface JobLease extends LeaseOwner {
  readonly intentId: number;
  readonly expiresAt: number;
}

/** Whether a lease's owner still runs (a dead process on this machine frees its leases at once). */
export type LeaseOwnerAlive = (owner: LeaseOwner) => boolean;

export type LeaseAttempt = { acquired: true } | { acquired: false; holder: JobLease };

interface LeaseRow {
  intent_id: number;
  owner: string;
  owner_pid: number;
  owner_host: string;
  expires_at: number;
}

const toLease = (row: LeaseRow): JobLease => ({
  intentId: row.intent_id,
  id: row.owner,
  pid: row.owner_pid,
  host: row.owner_host,
  expiresAt: row.expires_at,
});

interface IntentRow {
  id: number;
  idempotency_key: string;
  profile_id: string;
  model: string;
  service_kind: string;
  draft_id: string | null;
  optimization_client_request_id: string | null;
  canonical_body_json: string;
  state: IntentState;
  attempt_count: number;
  last_attempt_at: number | null;
  request_id: string | null;
  error_code: string | null;
  error_message: string | null;
  status_code: number | null;
  retryable: number | null;
  created_at: number;
  updated_at: number;
}

interface JobRow {
  id: number;
  intent_id: number;
  profile_id: string;
  model: string;
  service_kind: string;
  job_id: string;
  request_id: string;
  job_url: string | null;
  status: JobStatus;
  stage: string | null;
  stage_message: string | null;
  server_created_at: number | null;
  started_at: number | null;
  completed_at: number | null;
  elapsed_seconds: number | null;
  queued_seconds: number | null;
  running_seconds: number | null;
  refresh_after_seconds: number | null;
  retry_after_seconds: number | null;
  next_poll_at: number | null;
  last_polled_at: number | null;
  poll_count: number;
  effective_spec_json: string | null;
  error_code: string | null;
  error_message: string | null;
  status_code: number | null;
  retryable: number | null;
  last_body_json: string | null;
  accepted_at: number;
  updated_at: number;
}

const toIntent = (row: IntentRow): JobIntent => ({
  id: row.id,
  idempotencyKey: row.idempotency_key,
  profileId: row.profile_id,
  model: row.model,
  serviceKind: row.service_kind,
  draftId: opt(row.draft_id),
  optimizationClientRequestId: opt(row.optimization_client_request_id),
  canonicalBodyJson: row.canonical_body_json,
  state: row.state,
  attemptCount: row.attempt_count,
  lastAttemptAt: opt(row.last_attempt_at),
  requestId: opt(row.request_id),
  errorCode: opt(row.error_code),
  errorMessage: opt(row.error_message),
  statusCode: opt(row.status_code),
  retryable: fromFlag(row.retryable),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const parseOpt = (text: string | null): unknown =>
  text === null ? undefined : (JSON.parse(text) as unknown);

const toJob = (row: JobRow): Job => ({
  id: row.id,
  intentId: row.intent_id,
  profileId: row.profile_id,
  model: row.model,
  serviceKind: row.service_kind,
  jobId: row.job_id,
  requestId: row.request_id,
  jobUrl: opt(row.job_url),
  status: row.status,
  stage: opt(row.stage),
  stageMessage: opt(row.stage_message),
  serverCreatedAt: opt(row.server_created_at),
  startedAt: opt(row.started_at),
  completedAt: opt(row.completed_at),
  elapsedSeconds: opt(row.elapsed_seconds),
  queuedSeconds: opt(row.queued_seconds),
  runningSeconds: opt(row.running_seconds),
  refreshAfterSeconds: opt(row.refresh_after_seconds),
  retryAfterSeconds: opt(row.retry_after_seconds),
  nextPollAt: opt(row.next_poll_at),
  lastPolledAt: opt(row.last_polled_at),
  pollCount: row.poll_count,
  effectiveSpec: parseOpt(row.effective_spec_json),
  errorCode: opt(row.error_code),
  errorMessage: opt(row.error_message),
  statusCode: opt(row.status_code),
  retryable: fromFlag(row.retryable),
  lastBody: parseOpt(row.last_body_json),
  acceptedAt: row.accepted_at,
  updatedAt: row.updated_at,
});

const jsonOrNull = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const flagOrNull = (value: boolean | undefined): number | null =>
  value === undefined ? null : value ? 1 : 0;

function snapshotParams(snapshot: JobSnapshot) {
  if (!JOB_STATUSES.includes(snapshot.status)) {
    throw new RangeError(`Unknown job status "${String(snapshot.status)}".`);
  }
  return {
    status: snapshot.status,
    stage: snapshot.stage ?? null,
    stageMessage: snapshot.stageMessage ?? null,
    serverCreatedAt: snapshot.serverCreatedAt ?? null,
    startedAt: snapshot.startedAt ?? null,
    completedAt: snapshot.completedAt ?? null,
    elapsedSeconds: snapshot.elapsedSeconds ?? null,
    queuedSeconds: snapshot.queuedSeconds ?? null,
    runningSeconds: snapshot.runningSeconds ?? null,
    refreshAfterSeconds: snapshot.refreshAfterSeconds ?? null,
    retryAfterSeconds: snapshot.retryAfterSeconds ?? null,
    nextPollAt: isTerminalStatus(snapshot.status) ? null : (snapshot.nextPollAt ?? null),
    effectiveSpec: jsonOrNull(snapshot.effectiveSpec),
    errorCode: snapshot.errorCode ?? null,
    errorMessage: snapshot.errorMessage ?? null,
    statusCode: snapshot.statusCode ?? null,
    retryable: flagOrNull(snapshot.retryable),
    body: jsonOrNull(snapshot.body),
  };
}

/** Escapes a user's search text for FTS5 (trigram): every term becomes a quoted phrase. */
function ftsQuery(terms: string[]): string {
  return terms.map((term) => `"${term.replaceAll('"', '""')}"`).join(' AND ');
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Job intents, accepted jobs and (through {@link OutputsRepository}) their outputs: the data the
 * job engine creates, polls, downloads and resumes from.
 */
export class JobsRepository {
  private readonly insertIntentStmt: Statement;
  private readonly intentByKeyStmt: Statement<[string], IntentRow>;
  private readonly intentByIdStmt: Statement<[number], IntentRow>;
  private readonly intentsByIdsStmt: RowReader<IntentRow>;
  /**
   * A listed job's columns: every one of the table but the last poll's raw body (`lastBody`, up to
   * the whole answer of the platform), which only a job read on its own carries.
   */
  private readonly listedJobColumns: string;
  private readonly latestStageStartsStmt: Statement<[string], { job_row_id: number; started_at: number }>;
  private readonly attemptStmt: Statement;
  private readonly intentStateStmt: Statement;
  private readonly rejectStmt: Statement;
  private readonly acceptIntentStmt: Statement;
  private readonly insertJobStmt: Statement;
  private readonly jobByIdStmt: RowReader<JobRow>;
  private readonly jobByIntentStmt: Statement<[number], JobRow>;
  private readonly jobByJobIdStmt: Statement<[string, string], JobRow>;
  private readonly updateJobStmt: Statement;
  private readonly scheduleStmt: Statement;
  private readonly unfinishedIntentsStmt: Statement<[], IntentRow>;
  private readonly pollableStmt: Statement<[], JobRow>;
  private readonly listStmts = new Map<string, Statement>();
  /** The lists' statements (a few filter combinations), read as `prepareRows`. */
  private readonly listReaders = new Map<string, RowReader<JobRow>>();
  private readonly searchStmt: Statement;
  private readonly lastStageStmt: Statement<[number], { status: string; stage: string | null }>;
  private readonly insertStageStmt: Statement;
  private readonly stagesStmt: Statement<
    [number],
    { status: JobStatus; stage: string | null; started_at: number }
  >;
  private readonly durationsStmt: Statement;

  constructor(
    private readonly db: Database,
    private readonly outputs: OutputsRepository,
    private readonly now: () => number = Date.now,
  ) {
    this.insertIntentStmt = db.prepare(
      `INSERT INTO job_intents (idempotency_key, profile_id, model, service_kind, draft_id,
         optimization_client_request_id, canonical_body_json, state, created_at, updated_at)
       VALUES (@idempotencyKey, @profileId, @model, @serviceKind, @draftId, @optimizationClientRequestId,
         @body, 'pending_create', @now, @now)`,
    );
    this.intentByKeyStmt = db.prepare('SELECT * FROM job_intents WHERE idempotency_key = ?');
    this.intentByIdStmt = db.prepare('SELECT * FROM job_intents WHERE id = ?');
    this.listedJobColumns = (db.pragma('table_info(jobs)') as { name: string }[])
      .map(({ name }) => (name === 'last_body_json' ? 'NULL AS last_body_json' : name))
      .join(', ');
    // a page's rows in one statement each (ids as a JSON array): lists read a few tables per page,
    // not per job
    this.intentsByIdsStmt = prepareRows(
      db,
      'SELECT * FROM job_intents WHERE id IN (SELECT value FROM json_each(?))',
    );
    this.latestStageStartsStmt = db.prepare(
      `SELECT job_row_id, started_at FROM job_stage_history WHERE id IN (
         SELECT max(id) FROM job_stage_history
          WHERE job_row_id IN (SELECT value FROM json_each(?)) GROUP BY job_row_id)`,
    );
    this.attemptStmt = db.prepare(
      `UPDATE job_intents SET attempt_count = attempt_count + 1, last_attempt_at = @now, updated_at = @now
       WHERE idempotency_key = @key AND state IN ('pending_create', 'unknown')`,
    );
    this.intentStateStmt = db.prepare(
      `UPDATE job_intents SET state = @state, error_message = coalesce(@errorMessage, error_message),
         updated_at = @now
       WHERE idempotency_key = @key AND state IN ('pending_create', 'unknown')`,
    );
    this.rejectStmt = db.prepare(
      `UPDATE job_intents SET state = 'rejected', status_code = @statusCode, error_code = @errorCode,
         error_message = @errorMessage, request_id = @requestId, retryable = @retryable, updated_at = @now
       WHERE idempotency_key = @key AND state IN ('pending_create', 'unknown')`,
    );
    this.acceptIntentStmt = db.prepare(
      "UPDATE job_intents SET state = 'accepted', request_id = @requestId, updated_at = @now WHERE id = @id",
    );
    this.insertJobStmt = db.prepare(
      `INSERT INTO jobs (intent_id, profile_id, model, service_kind, job_id, request_id, job_url, status, stage,
         stage_message, server_created_at, started_at, completed_at, elapsed_seconds, queued_seconds,
         running_seconds, refresh_after_seconds, retry_after_seconds, next_poll_at, effective_spec_json,
         error_code, error_message, status_code, retryable, last_body_json, accepted_at, updated_at)
       VALUES (@intentId, @profileId, @model, @serviceKind, @jobId, @requestId, @jobUrl, @status, @stage,
         @stageMessage, @serverCreatedAt, @startedAt, @completedAt, @elapsedSeconds, @queuedSeconds,
         @runningSeconds, @refreshAfterSeconds, @retryAfterSeconds, @nextPollAt, @effectiveSpec,
         @errorCode, @errorMessage, @statusCode, @retryable, @body, @now, @now)`,
    );
    this.jobByIdStmt = prepareRows(db, 'SELECT * FROM jobs WHERE id = ?');
    this.jobByIntentStmt = db.prepare('SELECT * FROM jobs WHERE intent_id = ?');
    this.jobByJobIdStmt = db.prepare('SELECT * FROM jobs WHERE profile_id = ? AND job_id = ?');
    // Fields absent from a poll response keep what an earlier response said.
    this.updateJobStmt = db.prepare(
      `UPDATE jobs SET status = @status, stage = coalesce(@stage, stage),
         stage_message = coalesce(@stageMessage, stage_message),
         server_created_at = coalesce(@serverCreatedAt, server_created_at),
         started_at = coalesce(@startedAt, started_at), completed_at = coalesce(@completedAt, completed_at),
         elapsed_seconds = coalesce(@elapsedSeconds, elapsed_seconds),
         queued_seconds = coalesce(@queuedSeconds, queued_seconds),
         running_seconds = coalesce(@runningSeconds, running_seconds),
         refresh_after_seconds = @refreshAfterSeconds, retry_after_seconds = @retryAfterSeconds,
         next_poll_at = @nextPollAt, effective_spec_json = coalesce(@effectiveSpec, effective_spec_json),
         error_code = coalesce(@errorCode, error_code), error_message = coalesce(@errorMessage, error_message),
         status_code = coalesce(@statusCode, status_code), retryable = coalesce(@retryable, retryable),
         last_body_json = coalesce(@body, last_body_json), last_polled_at = @now,
         poll_count = poll_count + 1, updated_at = @now
       WHERE id = @id`,
    );
    this.scheduleStmt = db.prepare(
      'UPDATE jobs SET next_poll_at = @nextPollAt, updated_at = @now WHERE id = @id',
    );
    this.unfinishedIntentsStmt = db.prepare(
      "SELECT * FROM job_intents WHERE state IN ('pending_create', 'unknown') ORDER BY id",
    );
    this.pollableStmt = db.prepare(
      // the partial index (migration 009) holds only in-progress jobs, already in due order
      `SELECT * FROM jobs INDEXED BY jobs_in_progress
       WHERE status IN ('queued', 'running', 'cancel_requested')
       ORDER BY next_poll_at NULLS FIRST`,
    );
    this.searchStmt = db.prepare(
      `SELECT jobs.* FROM job_prompt_search
       JOIN jobs ON jobs.intent_id = job_prompt_search.rowid
       WHERE job_prompt_search MATCH @match AND (@profileId IS NULL OR jobs.profile_id = @profileId)
       ORDER BY job_prompt_search.rank, jobs.id DESC
       LIMIT @limit`,
    );
    this.lastStageStmt = db.prepare(
      'SELECT status, stage FROM job_stage_history WHERE job_row_id = ? ORDER BY id DESC LIMIT 1',
    );
    this.insertStageStmt = db.prepare(
      `INSERT INTO job_stage_history (job_row_id, status, stage, started_at)
       VALUES (@jobRowId, @status, @stage, @now)`,
    );
    this.stagesStmt = db.prepare(
      'SELECT status, stage, started_at FROM job_stage_history WHERE job_row_id = ? ORDER BY id',
    );
    // accept → succeeded as this journal saw it; for jobs without history, the service's own times
    this.durationsStmt = db.prepare(
      `SELECT ms FROM (
         SELECT coalesce(
             (SELECT min(h.started_at) FROM job_stage_history h
               WHERE h.job_row_id = jobs.id AND h.status = 'succeeded') - jobs.accepted_at,
             jobs.completed_at - jobs.server_created_at) AS ms
         FROM jobs INDEXED BY jobs_by_profile_model_status
         JOIN job_intents ON job_intents.id = jobs.intent_id
         WHERE jobs.profile_id = @profileId AND jobs.model = @model AND jobs.status = 'succeeded'
           AND json_extract(job_intents.canonical_body_json, '$.seconds') IS @seconds
         ORDER BY jobs.id DESC LIMIT @limit)
       WHERE ms IS NOT NULL AND ms >= 0`,
    );
  }

  // ---- intents -------------------------------------------------------------------------------

  /**
   * Commits the intent (key + canonical body) durably, before the create request leaves: the
   * request waits for `journal.durable()` (`sendIntent` does).
   * Recording the same key again with the same profile, model and body returns the existing intent
   * (safe to call twice); anything else under the same key throws {@link IdempotencyConflictError}.
   */
  recordIntent(intent: NewIntent): JobIntent {
    const key = intent.idempotencyKey;
    if (!key || key.length > 255 || !/^[\x21-\x7e]+$/.test(key)) {
      throw new RangeError('An idempotency key must be 1..255 visible ASCII characters.');
    }
    const body = canonicalJson(intent.body);
    const resendOf = intent.resendOf;
    if (resendOf && key !== resendIdempotencyKey(resendOf.firstIdempotencyKey, resendOf.attempt)) {
      throw new RangeError(
        `"${key}" is not the key of resend ${resendOf.attempt} of "${resendOf.firstIdempotencyKey}".`,
      );
    }
    return durably(this.db, () => {
      const first = resendOf && this.intentByKeyStmt.get(resendOf.firstIdempotencyKey);
      if (resendOf) {
        if (!first || !refusedForUnknownAsset(toIntent(first)) || this.jobByIntentStmt.get(first.id)) {
          throw new JournalStateError(
            `The intent "${resendOf.firstIdempotencyKey}" was not refused for an unknown asset; it is not resent.`,
          );
        }
      }
      const existing = this.intentByKeyStmt.get(key);
      if (existing) {
        if (existing.canonical_body_json !== body)
          throw new IdempotencyConflictError(key, 'the body differs');
        if (existing.profile_id !== intent.profileId || existing.model !== intent.model) {
          throw new IdempotencyConflictError(key, 'the profile or model differs');
        }
        return toIntent(existing);
      }
      this.insertIntentStmt.run({
        idempotencyKey: key,
        profileId: intent.profileId,
        model: intent.model,
        serviceKind: intent.serviceKind,
        draftId: intent.draftId ?? null,
        optimizationClientRequestId: intent.optimizationClientRequestId ?? null,
        body,
        now: this.now(),
      });
      const recorded = this.intentByKeyStmt.get(key)!;
      if (resendOf && first) {
        this.db
          .prepare('INSERT INTO job_intent_resends (intent_id, first_intent_id, attempt) VALUES (?, ?, ?)')
          .run(recorded.id, first.id, resendOf.attempt);
      }
      return toIntent(recorded);
    });
  }

  /**
   * The latest resend of the intent under `firstIdempotencyKey` (recorded with
   * {@link NewIntent.resendOf}), or undefined when it was never resent.
   */
  latestResendOf(firstIdempotencyKey: string): { intent: JobIntent; attempt: number } | undefined {
    const row = this.db
      .prepare<[string], IntentRow & { resend_attempt: number }>(
        `SELECT job_intents.*, job_intent_resends.attempt AS resend_attempt
           FROM job_intent_resends
           JOIN job_intents ON job_intents.id = job_intent_resends.intent_id
          WHERE job_intent_resends.first_intent_id =
                (SELECT id FROM job_intents WHERE idempotency_key = ?)
          ORDER BY job_intent_resends.attempt DESC LIMIT 1`,
      )
      .get(firstIdempotencyKey);
    return row && { intent: toIntent(row), attempt: row.resend_attempt };
  }

  /**
   * The intent that now stands for a business key: its latest resend after an input asset was
   * gone (see {@link latestResendOf}), else the intent under the key itself. Views that read a
   * draft's, a row's or a shot's job by its key read it here, so a resend's job is that key's job.
   */
  currentIntent(idempotencyKey: string): JobIntent | undefined {
    return this.latestResendOf(idempotencyKey)?.intent ?? this.getIntent(idempotencyKey);
  }

  getIntent(idempotencyKey: string): JobIntent | undefined {
    const row = this.intentByKeyStmt.get(idempotencyKey);
    return row && toIntent(row);
  }

  getIntentById(id: number): JobIntent | undefined {
    const row = this.intentByIdStmt.get(id);
    return row && toIntent(row);
  }

  /** The intents with these ids, by id (one statement for a page of jobs). */
  intentsByIds(ids: readonly number[]): Map<number, JobIntent> {
    const found = new Map<number, JobIntent>();
    if (ids.length === 0) return found;
    for (const row of this.intentsByIdsStmt.all(JSON.stringify(ids))) found.set(row.id, toIntent(row));
    return found;
  }

  /** Counts a create attempt (call right before each send, first or replay). */
  markAttempt(idempotencyKey: string): JobIntent {
    this.requireOpenIntent(
      idempotencyKey,
      this.attemptStmt.run({ key: idempotencyKey, now: this.now() }).changes,
    );
    return this.getIntent(idempotencyKey)!;
  }

  /** The request may have reached the service but no answer was read: replay with the same key and body. */
  markUnknown(idempotencyKey: string, errorMessage?: string): JobIntent {
    const changes = this.intentStateStmt.run({
      key: idempotencyKey,
      state: 'unknown',
      errorMessage: errorMessage ?? null,
      now: this.now(),
    }).changes;
    this.requireOpenIntent(idempotencyKey, changes);
    return this.getIntent(idempotencyKey)!;
  }

  /** Stops replaying an intent whose outcome stays unknown (bounded); it leaves the resume list. */
  markAbandoned(idempotencyKey: string, reason: string): JobIntent {
    const changes = this.intentStateStmt.run({
      key: idempotencyKey,
      state: 'abandoned',
      errorMessage: reason,
      now: this.now(),
    }).changes;
    this.requireOpenIntent(idempotencyKey, changes);
    return this.getIntent(idempotencyKey)!;
  }

  /** The service definitively refused the intent (400/401/402/404/409/422…). */
  markRejected(idempotencyKey: string, rejection: Rejection): JobIntent {
    const changes = this.rejectStmt.run({
      key: idempotencyKey,
      statusCode: rejection.statusCode,
      errorCode: rejection.errorCode ?? null,
      errorMessage: rejection.errorMessage ?? null,
      requestId: rejection.requestId ?? null,
      retryable: flagOrNull(rejection.retryable),
      now: this.now(),
    }).changes;
    this.requireOpenIntent(idempotencyKey, changes);
    return this.getIntent(idempotencyKey)!;
  }

  /**
   * The service accepted the intent: in one durable transaction, the intent becomes `accepted` and
   * the job row (jobId, requestId, jobUrl, status, …) and any announced outputs are written.
   * Accepting again with the same jobId (a replay answered with the same job) returns the job.
   */
  markAccepted(idempotencyKey: string, acceptance: Acceptance): JobWithOutputs {
    const params = snapshotParams(acceptance);
    return durably(this.db, () => {
      const intent = this.intentByKeyStmt.get(idempotencyKey);
      if (!intent) throw new JournalNotFoundError(`The intent "${idempotencyKey}"`);
      if (intent.state === 'accepted') {
        const job = this.jobByIntentStmt.get(intent.id)!;
        if (job.job_id !== acceptance.jobId) {
          throw new JournalStateError(
            `The intent "${idempotencyKey}" was accepted as job ${job.job_id}, not ${acceptance.jobId}.`,
          );
        }
        return this.withOutputs(toJob(job));
      }
      if (intent.state === 'rejected') {
        throw new JournalStateError(`The intent "${idempotencyKey}" was rejected; it cannot be accepted.`);
      }
      // 'abandoned' may still be accepted: a late answer (e.g. a manual resume) is the truth.
      const now = this.now();
      this.acceptIntentStmt.run({ id: intent.id, requestId: acceptance.requestId, now });
      const { lastInsertRowid } = this.insertJobStmt.run({
        ...params,
        intentId: intent.id,
        profileId: intent.profile_id,
        model: intent.model,
        serviceKind: intent.service_kind,
        jobId: acceptance.jobId,
        requestId: acceptance.requestId,
        jobUrl: acceptance.jobUrl ?? null,
        now,
      });
      const jobRowId = Number(lastInsertRowid);
      this.recordStageChange(jobRowId, now);
      if (acceptance.outputs?.length) {
        this.outputs.recordAnnounced(jobRowId, acceptance.outputs, acceptance.outputsSource ?? 'outputs');
      }
      return this.withOutputs(toJob(this.jobByIdStmt.get(jobRowId)!));
    });
  }

  // ---- jobs ----------------------------------------------------------------------------------

  getJob(id: number): JobWithOutputs | undefined {
    const row = this.jobByIdStmt.get(id);
    return row && this.withOutputs(toJob(row));
  }

  getJobByJobId(profileId: string, jobId: string): JobWithOutputs | undefined {
    const row = this.jobByJobIdStmt.get(profileId, jobId);
    return row && this.withOutputs(toJob(row));
  }

  getJobForIntent(intentId: number): JobWithOutputs | undefined {
    const row = this.jobByIntentStmt.get(intentId);
    return row && this.withOutputs(toJob(row));
  }

  /**
   * Forgets a finished job (the library's "delete"): its outputs (cascade), the job row and its
   * intent (with its prompt-search row), in one transaction. Refused while the job is in progress
   * or has an output being downloaded. Files on disk are the caller's to remove.
   */
  deleteJob(id: number): boolean {
    return this.db
      .transaction(() => {
        const row = this.jobByIdStmt.get(id);
        if (!row) return false;
        const job = this.withOutputs(toJob(row));
        if (!isTerminalStatus(job.status) || job.outputs.some((o) => o.downloadState === 'downloading'))
          throw new JournalStateError(`The job ${id} is still ${job.status}; it cannot be deleted yet.`);
        this.db.prepare('DELETE FROM jobs WHERE id = ?').run(id);
        this.db.prepare('DELETE FROM job_intents WHERE id = ?').run(job.intentId);
        return true;
      })
      .immediate();
  }

  /**
   * Records a poll response: status, stage, timings, hints, errors, and (once) the outputs, in one
   * transaction. A terminal job never goes back to an in-progress status.
   */
  recordPoll(id: number, snapshot: JobSnapshot): JobWithOutputs {
    const params = snapshotParams(snapshot);
    return this.db
      .transaction(() => {
        const current = this.jobByIdStmt.get(id);
        if (!current) throw new JournalNotFoundError(`The job ${id}`);
        if (isTerminalStatus(current.status) && current.status !== snapshot.status) {
          throw new JournalStateError(
            `The job ${current.job_id} is already ${current.status}; a response saying ${snapshot.status} was not recorded.`,
          );
        }
        const now = this.now();
        this.updateJobStmt.run({ ...params, id, now });
        this.recordStageChange(id, now);
        if (snapshot.outputs?.length) {
          this.outputs.recordAnnounced(id, snapshot.outputs, snapshot.outputsSource ?? 'outputs');
        }
        return this.withOutputs(toJob(this.jobByIdStmt.get(id)!));
      })
      .immediate();
  }

  /** When each (status, stage) of a job began, oldest first (empty for jobs recorded before 013). */
  stageHistory(jobRowId: number): StageTiming[] {
    return this.stagesStmt.all(jobRowId).map((row) => ({
      status: row.status,
      stage: opt(row.stage),
      startedAt: row.started_at,
    }));
  }

  /** When each of these jobs' latest (status, stage) began, by job row id (jobs without history are absent). */
  latestStageStarts(jobRowIds: readonly number[]): Map<number, number> {
    const found = new Map<number, number>();
    if (jobRowIds.length === 0) return found;
    for (const row of this.latestStageStartsStmt.all(JSON.stringify(jobRowIds)))
      found.set(row.job_row_id, row.started_at);
    return found;
  }

  /**
   * How long (ms, accept → succeeded) the most recent succeeded jobs of one profile took for the
   * same model and requested seconds, newest first: as this journal saw it (stage history), else
   * the service's own `createdAt` → `completedAt`. Jobs with neither are left out.
   */
  succeededDurations(query: DurationSampleQuery): number[] {
    return (
      this.durationsStmt.all({
        profileId: query.profileId,
        model: query.model,
        seconds: query.seconds,
        limit: query.limit ?? 50,
      }) as { ms: number }[]
    ).map((row) => row.ms);
  }

  /** Plans the next poll of an in-progress job (epoch ms). */
  schedulePoll(id: number, nextPollAt: number): void {
    if (this.scheduleStmt.run({ id, nextPollAt, now: this.now() }).changes === 0) {
      throw new JournalNotFoundError(`The job ${id}`);
    }
  }

  /**
   * A page of jobs, newest accepted first, optionally filtered by status and/or profile. Keyset
   * pagination on the journal id: pass `nextCursor` back as `cursor`. Each filter combination is
   * served by an index ending in `id`, so a page costs the same at any library size.
   */
  listJobs(query: ListJobsQuery = {}): Page<ListedJob> {
    const limit = pageSize(query.limit);
    if (query.status !== undefined && !JOB_STATUSES.includes(query.status)) {
      throw new RangeError(`Unknown job status "${String(query.status)}".`);
    }
    const where: string[] = [];
    if (query.status !== undefined) where.push('status = @status');
    if (query.profileId !== undefined) where.push('profile_id = @profileId');
    // the first page too is a range below an id (the largest there can be), never a table scan
    where.push('id < @before');
    const sql = `SELECT ${this.listedJobColumns} FROM jobs WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT @limit`;
    const rows = this.listReader(sql).all({
      ...(query.status !== undefined ? { status: query.status } : {}),
      ...(query.profileId !== undefined ? { profileId: query.profileId } : {}),
      before: query.cursor !== undefined ? decodeCursor(query.cursor) : FIRST_PAGE_BEFORE,
      limit: limit + 1,
    });
    return toPage(rows, limit, toJob);
  }

  /**
   * Library search over the prompts that were sent: every whitespace-separated term must occur
   * (as a substring, case- and diacritic-insensitive). Best matches first.
   */
  searchJobs(text: string, options: { profileId?: string; limit?: number } = {}): Job[] {
    const limit = pageSize(options.limit);
    const terms = text.split(/\s+/u).filter(Boolean);
    if (terms.length === 0) return [];
    const long = terms.filter((t) => [...t].length >= 3);
    const short = terms.filter((t) => [...t].length < 3);
    if (short.length === 0) {
      return (
        this.searchStmt.all({
          match: ftsQuery(long),
          profileId: options.profileId ?? null,
          limit,
        }) as JobRow[]
      ).map(toJob);
    }
    // Trigrams cannot match 1–2 character terms: scan the prompts with LIKE (same case folding).
    const conditions = [
      ...(long.length ? ['job_prompt_search MATCH @match'] : []),
      ...short.map((_, i) => `job_prompt_search.prompt LIKE @like${i} ESCAPE '\\'`),
    ];
    const params: Record<string, unknown> = { profileId: options.profileId ?? null, limit };
    if (long.length) params.match = ftsQuery(long);
    short.forEach((t, i) => (params[`like${i}`] = likePattern(t)));
    const sql = `SELECT jobs.* FROM job_prompt_search JOIN jobs ON jobs.intent_id = job_prompt_search.rowid
         WHERE ${conditions.join(' AND ')} AND (@profileId IS NULL OR jobs.profile_id = @profileId)
         ORDER BY jobs.id DESC LIMIT @limit`;
    const rows = this.listReader(sql).all(params);
    return rows.map(toJob);
  }

  /**
   * What must continue after a start: intents with an unknown outcome, in-progress jobs, and jobs
   * with outputs not yet verified. Every part is read through a partial index that holds only
   * unfinished rows, so the cost does not grow with the size of the library.
   */
  listUnfinished(): UnfinishedWork {
    return this.db.transaction(() => ({
      intents: this.unfinishedIntentsStmt.all().map(toIntent),
      jobsToPoll: this.pollableStmt.all().map(toJob),
      jobsToDownload: this.outputs.jobsWithUnverifiedOutputs().map((id) => this.getJob(id)!),
    }))();
  }

  // ---- leases --------------------------------------------------------------------------------

  /**
   * Takes the lease on an intent for `ttlMs` unless another owner holds a live one (not expired,
   * and its process alive). Read and write happen in one IMMEDIATE transaction, so of two
   * processes asking at once exactly one gets it. Taking a lease one already holds renews it.
   */
  acquireLease(intentId: number, owner: LeaseOwner, ttlMs: number, isAlive: LeaseOwnerAlive): LeaseAttempt {
    return this.db
      .transaction((): LeaseAttempt => {
        const now = this.now();
        const row = this.cached('SELECT * FROM job_leases WHERE intent_id = ?').get(intentId) as
          LeaseRow | undefined;
        if (row && row.owner !== owner.id && row.expires_at > now) {
          const holder = toLease(row);
          if (isAlive(holder)) return { acquired: false, holder };
        }
        this.cached(
          `INSERT INTO job_leases (intent_id, owner, owner_pid, owner_host, acquired_at, expires_at)
           VALUES (@intentId, @owner, @pid, @host, @now, @expiresAt)
           ON CONFLICT (intent_id) DO UPDATE SET owner = excluded.owner, owner_pid = excluded.owner_pid,
             owner_host = excluded.owner_host, acquired_at = excluded.acquired_at,
             expires_at = excluded.expires_at`,
        ).run({ intentId, owner: owner.id, pid: owner.pid, host: owner.host, now, expiresAt: now + ttlMs });
        return { acquired: true };
      })
      .immediate();
  }

  /** Extends a lease this owner still holds; false when it was lost (expired and taken over). */
  renewLease(intentId: number, owner: LeaseOwner, ttlMs: number): boolean {
    const now = this.now();
    return (
      this.cached(
        'UPDATE job_leases SET expires_at = @expiresAt WHERE intent_id = @intentId AND owner = @owner',
      ).run({ intentId, owner: owner.id, expiresAt: now + ttlMs }).changes > 0
    );
  }

  /** Gives a lease up (the work ended or stopped); a lease held by another owner is left alone. */
  releaseLease(intentId: number, owner: LeaseOwner): void {
    this.cached('DELETE FROM job_leases WHERE intent_id = @intentId AND owner = @owner').run({
      intentId,
      owner: owner.id,
    });
  }

  /** The lease on an intent, if any (expired ones included). */
  getLease(intentId: number): JobLease | undefined {
    const row = this.cached('SELECT * FROM job_leases WHERE intent_id = ?').get(intentId) as
      LeaseRow | undefined;
    return row && toLease(row);
  }

  /**
   * The temporary download files a live row names: outputs being downloaded under a lease that
   * has not expired and whose owner is alive. Every other partial file is abandoned.
   */
  liveDownloadTempPaths(isAlive: LeaseOwnerAlive): Set<string> {
    const rows = this.cached(
      `SELECT outputs.temp_path, job_leases.*
       FROM job_leases JOIN jobs ON jobs.intent_id = job_leases.intent_id
       JOIN outputs ON outputs.job_row_id = jobs.id
       WHERE outputs.temp_path IS NOT NULL AND job_leases.expires_at > @now`,
    ).all({ now: this.now() }) as (LeaseRow & { temp_path: string })[];
    return new Set(rows.filter((row) => isAlive(toLease(row))).map((row) => row.temp_path));
  }

  /** Statements built from a few filter combinations, prepared once each. */
  private cached(sql: string): Statement {
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    return stmt;
  }

  /** A list's statement, prepared once and read as `prepareRows` (the lists pages poll). */
  private listReader(sql: string): RowReader<JobRow> {
    let reader = this.listReaders.get(sql);
    if (!reader) {
      reader = prepareRows<JobRow>(this.db, sql);
      this.listReaders.set(sql, reader);
    }
    return reader;
  }

  /** A new history row when the job's (status, stage) differs from the last one recorded. */
  private recordStageChange(jobRowId: number, now: number): void {
    const row = this.jobByIdStmt.get(jobRowId)!;
    const last = this.lastStageStmt.get(jobRowId);
    if (last && last.status === row.status && last.stage === row.stage) return;
    this.insertStageStmt.run({ jobRowId, status: row.status, stage: row.stage, now });
  }

  private withOutputs(job: Job): JobWithOutputs {
    return { ...job, outputs: this.outputs.listForJob(job.id) };
  }

  private requireOpenIntent(key: string, changes: number): void {
    if (changes > 0) return;
    const intent = this.getIntent(key);
    if (!intent) throw new JournalNotFoundError(`The intent "${key}"`);
    throw new JournalStateError(`The intent "${key}" is already ${intent.state}.`);
  }
}
