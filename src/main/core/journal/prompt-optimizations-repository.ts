import type { Database, Statement } from 'better-sqlite3';
import { durably } from './database.js';
import { IdempotencyConflictError, JournalNotFoundError, JournalStateError } from './errors.js';
import { canonicalJson, opt } from './json.js';
import { decodeCursor, pageSize, toPage } from './pagination.js';
import type { Page } from './pagination.js';

export type OptimizationState = 'pending' | 'unknown' | 'succeeded' | 'failed' | 'abandoned';

/** What the start-up replay of an unfinished optimization ended with (the engine reports it). */
export interface ResumedOptimization {
  clientRequestId: string;
  profileId: string;
  draftId?: string;
  /** `unknown`: still not known (the next start replays it); `abandoned`: given up after the limit. */
  state: OptimizationState;
  message?: string;
}

/** A prompt optimization request; `clientRequestId` is also its Idempotency-Key. */
export interface PromptOptimization {
  /** Journal id (insertion order), used for pagination. */
  readonly id: number;
  readonly clientRequestId: string;
  readonly profileId: string;
  readonly model: string;
  readonly generationMode: string;
  readonly draftId?: string;
  /** The exact bytes sent (and replayed). */
  readonly canonicalBodyJson: string;
  readonly state: OptimizationState;
  readonly attemptCount: number;
  readonly lastAttemptAt?: number;
  readonly requestId?: string;
  readonly optimizationId?: string;
  readonly optimizedPrompt?: string;
  readonly expiresAt?: number;
  readonly response?: unknown;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly statusCode?: number;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface NewOptimization {
  readonly clientRequestId: string;
  readonly profileId: string;
  readonly model: string;
  readonly generationMode: string;
  readonly body: unknown;
  readonly draftId?: string;
}

export interface OptimizationSuccess {
  readonly requestId: string;
  readonly optimizationId: string;
  readonly optimizedPrompt: string;
  readonly expiresAt?: number;
  /** The whole response body. */
  readonly response: unknown;
}

export interface OptimizationFailure {
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly requestId?: string;
}

interface Row {
  id: number;
  client_request_id: string;
  profile_id: string;
  model: string;
  generation_mode: string;
  draft_id: string | null;
  canonical_body_json: string;
  state: OptimizationState;
  attempt_count: number;
  last_attempt_at: number | null;
  request_id: string | null;
  optimization_id: string | null;
  optimized_prompt: string | null;
  expires_at: number | null;
  response_json: string | null;
  error_code: string | null;
  error_message: string | null;
  status_code: number | null;
  created_at: number;
  updated_at: number;
}

const toOptimization = (row: Row): PromptOptimization => ({
  id: row.id,
  clientRequestId: row.client_request_id,
  profileId: row.profile_id,
  model: row.model,
  generationMode: row.generation_mode,
  draftId: opt(row.draft_id),
  canonicalBodyJson: row.canonical_body_json,
  state: row.state,
  attemptCount: row.attempt_count,
  lastAttemptAt: opt(row.last_attempt_at),
  requestId: opt(row.request_id),
  optimizationId: opt(row.optimization_id),
  optimizedPrompt: opt(row.optimized_prompt),
  expiresAt: opt(row.expires_at),
  response: row.response_json === null ? undefined : (JSON.parse(row.response_json) as unknown),
  errorCode: opt(row.error_code),
  errorMessage: opt(row.error_message),
  statusCode: opt(row.status_code),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
const OPEN = "state IN ('pending', 'unknown')";

export class PromptOptimizationsRepository {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement<[string], Row>;
  private readonly attemptStmt: Statement;
  private readonly stateStmt: Statement;
  private readonly successStmt: Statement;
  private readonly failureStmt: Statement;
  private readonly unfinishedStmt: Statement<[], Row>;
  private readonly reopenStmt: Statement;
  private readonly listStmts = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    const cols = 'rowid AS id, *';
    this.insertStmt = db.prepare(
      `INSERT INTO prompt_optimizations (client_request_id, profile_id, model, generation_mode, draft_id,
         canonical_body_json, state, created_at, updated_at)
       VALUES (@clientRequestId, @profileId, @model, @generationMode, @draftId, @body, 'pending', @now, @now)`,
    );
    this.byIdStmt = db.prepare(`SELECT ${cols} FROM prompt_optimizations WHERE client_request_id = ?`);
    this.attemptStmt = db.prepare(
      `UPDATE prompt_optimizations SET attempt_count = attempt_count + 1, last_attempt_at = @now, updated_at = @now
       WHERE client_request_id = @id AND ${OPEN}`,
    );
    this.stateStmt = db.prepare(
      `UPDATE prompt_optimizations SET state = @state, error_message = coalesce(@errorMessage, error_message),
         updated_at = @now WHERE client_request_id = @id AND ${OPEN}`,
    );
    this.successStmt = db.prepare(
      `UPDATE prompt_optimizations SET state = 'succeeded', request_id = @requestId,
         optimization_id = @optimizationId, optimized_prompt = @optimizedPrompt, expires_at = @expiresAt,
         response_json = @response, error_code = NULL, error_message = NULL, status_code = NULL, updated_at = @now
       WHERE client_request_id = @id AND state IN ('pending', 'unknown', 'abandoned')`,
    );
    this.failureStmt = db.prepare(
      `UPDATE prompt_optimizations SET state = 'failed', status_code = @statusCode, error_code = @errorCode,
         error_message = @errorMessage, request_id = @requestId, updated_at = @now
       WHERE client_request_id = @id AND ${OPEN}`,
    );
    this.reopenStmt = db.prepare(
      `UPDATE prompt_optimizations SET state = 'unknown', updated_at = @now
       WHERE client_request_id = @id AND state = 'abandoned'`,
    );
    this.unfinishedStmt = db.prepare(
      `SELECT ${cols} FROM prompt_optimizations WHERE ${OPEN} ORDER BY created_at`,
    );
  }

  /**
   * Commits the optimization request (clientRequestId + canonical body) durably, before it is sent.
   * The same clientRequestId with the same profile, model and body returns the existing record.
   */
  record(input: NewOptimization): PromptOptimization {
    if (!CLIENT_REQUEST_ID.test(input.clientRequestId)) {
      throw new RangeError('A clientRequestId must be 8..128 characters of A-Z a-z 0-9 . _ : -');
    }
    const body = canonicalJson(input.body);
    return durably(this.db, () => {
      const existing = this.byIdStmt.get(input.clientRequestId);
      if (existing) {
        if (existing.canonical_body_json !== body) {
          throw new IdempotencyConflictError(input.clientRequestId, 'the body differs');
        }
        if (existing.profile_id !== input.profileId || existing.model !== input.model) {
          throw new IdempotencyConflictError(input.clientRequestId, 'the profile or model differs');
        }
        return toOptimization(existing);
      }
      this.insertStmt.run({
        clientRequestId: input.clientRequestId,
        profileId: input.profileId,
        model: input.model,
        generationMode: input.generationMode,
        draftId: input.draftId ?? null,
        body,
        now: this.now(),
      });
      return toOptimization(this.byIdStmt.get(input.clientRequestId)!);
    });
  }

  get(clientRequestId: string): PromptOptimization | undefined {
    const row = this.byIdStmt.get(clientRequestId);
    return row && toOptimization(row);
  }

  markAttempt(clientRequestId: string): PromptOptimization {
    return this.changed(
      clientRequestId,
      this.attemptStmt.run({ id: clientRequestId, now: this.now() }).changes,
    );
  }

  markUnknown(clientRequestId: string, errorMessage?: string): PromptOptimization {
    const changes = this.stateStmt.run({
      id: clientRequestId,
      state: 'unknown',
      errorMessage: errorMessage ?? null,
      now: this.now(),
    }).changes;
    return this.changed(clientRequestId, changes);
  }

  markAbandoned(clientRequestId: string, reason: string): PromptOptimization {
    const changes = this.stateStmt.run({
      id: clientRequestId,
      state: 'abandoned',
      errorMessage: reason,
      now: this.now(),
    }).changes;
    return this.changed(clientRequestId, changes);
  }

  /**
   * An abandoned optimization asked for again (the same inputs): its outcome is still unknown, so it
   * is open again and replayed under the same key — never a new one.
   */
  reopen(clientRequestId: string): PromptOptimization {
    return this.changed(
      clientRequestId,
      this.reopenStmt.run({ id: clientRequestId, now: this.now() }).changes,
    );
  }

  /** Committed durably the moment the response is read. */
  markSucceeded(clientRequestId: string, success: OptimizationSuccess): PromptOptimization {
    return durably(this.db, () => {
      const changes = this.successStmt.run({
        id: clientRequestId,
        requestId: success.requestId,
        optimizationId: success.optimizationId,
        optimizedPrompt: success.optimizedPrompt,
        expiresAt: success.expiresAt ?? null,
        response: JSON.stringify(success.response),
        now: this.now(),
      }).changes;
      return this.changed(clientRequestId, changes);
    });
  }

  markFailed(clientRequestId: string, failure: OptimizationFailure): PromptOptimization {
    const changes = this.failureStmt.run({
      id: clientRequestId,
      statusCode: failure.statusCode ?? null,
      errorCode: failure.errorCode ?? null,
      errorMessage: failure.errorMessage ?? null,
      requestId: failure.requestId ?? null,
      now: this.now(),
    }).changes;
    return this.changed(clientRequestId, changes);
  }

  /** Optimizations whose outcome is not known yet (replay with the same key and body). */
  listUnfinished(): PromptOptimization[] {
    return this.unfinishedStmt.all().map(toOptimization);
  }

  /** Newest first, keyset-paginated. */
  list(
    query: { profileId?: string; state?: OptimizationState; limit?: number; cursor?: string } = {},
  ): Page<PromptOptimization> {
    const limit = pageSize(query.limit);
    const where: string[] = [];
    if (query.profileId !== undefined) where.push('profile_id = @profileId');
    if (query.state !== undefined) where.push('state = @state');
    if (query.cursor !== undefined) where.push('rowid < @before');
    const sql = `SELECT rowid AS id, * FROM prompt_optimizations ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY rowid DESC LIMIT @limit`;
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    const rows = stmt.all({
      ...(query.profileId !== undefined ? { profileId: query.profileId } : {}),
      ...(query.state !== undefined ? { state: query.state } : {}),
      ...(query.cursor !== undefined ? { before: decodeCursor(query.cursor) } : {}),
      limit: limit + 1,
    }) as Row[];
    return toPage(rows, limit, toOptimization);
  }

  private changed(clientRequestId: string, changes: number): PromptOptimization {
    const current = this.get(clientRequestId);
    if (!current) throw new JournalNotFoundError(`The prompt optimization "${clientRequestId}"`);
    if (changes === 0) {
      throw new JournalStateError(
        `The prompt optimization "${clientRequestId}" is already ${current.state}.`,
      );
    }
    return current;
  }
}
