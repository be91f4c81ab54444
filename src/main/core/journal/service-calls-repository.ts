import type { Database, Statement } from 'better-sqlite3';
import { durably } from './database.js';
import { JournalNotFoundError, JournalStateError } from './errors.js';
import { fromJsonOrUndefined, opt, toJson } from './json.js';
import { decodeCursor, pageSize, toPage } from './pagination.js';
import type { Page } from './pagination.js';
import { SERVICE_CALL_OPERATIONS, type ServiceCallOperation } from './vocabulary.js';

export type ServiceCallState = 'sent' | 'succeeded' | 'failed' | 'unknown';

export { SERVICE_CALL_OPERATIONS, type ServiceCallOperation };

/** One billed synchronous call. Summaries only: never the inputs' text, never a secret. */
export interface ServiceCall {
  readonly id: number;
  readonly profileId: string;
  readonly model: string;
  readonly operation: ServiceCallOperation;
  readonly state: ServiceCallState;
  readonly request: Record<string, unknown>;
  readonly requestId?: string;
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly errorMessage?: string;
  readonly response?: Record<string, unknown>;
  readonly usage?: Record<string, unknown>;
  readonly startedAt: number;
  readonly finishedAt?: number;
}

export interface NewServiceCall {
  readonly profileId: string;
  readonly model: string;
  readonly operation: ServiceCallOperation;
  /** Counts, sizes, asset ids, hashes: what identifies the call, not its content. */
  readonly request: Record<string, unknown>;
}

export interface ServiceCallSuccess {
  readonly requestId?: string;
  readonly response: Record<string, unknown>;
  readonly usage?: Record<string, unknown>;
}

export interface ServiceCallFailure {
  readonly requestId?: string;
  readonly statusCode?: number;
  readonly errorCode?: string;
  readonly errorMessage?: string;
}

interface Row {
  id: number;
  profile_id: string;
  model: string;
  operation: ServiceCallOperation;
  state: ServiceCallState;
  request_summary_json: string;
  request_id: string | null;
  status_code: number | null;
  error_code: string | null;
  error_message: string | null;
  response_summary_json: string | null;
  usage_json: string | null;
  started_at: number;
  finished_at: number | null;
}

const toCall = (row: Row): ServiceCall => ({
  id: row.id,
  profileId: row.profile_id,
  model: row.model,
  operation: row.operation,
  state: row.state,
  request: JSON.parse(row.request_summary_json) as Record<string, unknown>,
  requestId: opt(row.request_id),
  statusCode: opt(row.status_code),
  errorCode: opt(row.error_code),
  errorMessage: opt(row.error_message),
  response: fromJsonOrUndefined<Record<string, unknown>>(row.response_summary_json),
  usage: fromJsonOrUndefined<Record<string, unknown>>(row.usage_json),
  startedAt: row.started_at,
  finishedAt: opt(row.finished_at),
});

/** Error messages are kept short (they are for the history list, not a log). */
const MESSAGE_MAX = 500;
const clip = (text: string | undefined) =>
  text === undefined ? null : text.length > MESSAGE_MAX ? `${text.slice(0, MESSAGE_MAX - 1)}…` : text;

export class ServiceCallsRepository {
  private readonly insertStmt: Statement;
  private readonly byIdStmt: Statement<[number], Row>;
  private readonly successStmt: Statement;
  private readonly endStmt: Statement;
  private readonly listStmts = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO service_calls (profile_id, model, operation, state, request_summary_json, started_at)
       VALUES (@profileId, @model, @operation, 'sent', @request, @now)`,
    );
    this.byIdStmt = db.prepare('SELECT * FROM service_calls WHERE id = ?');
    this.successStmt = db.prepare(
      `UPDATE service_calls SET state = 'succeeded', request_id = @requestId, response_summary_json = @response,
         usage_json = @usage, finished_at = @now
       WHERE id = @id AND state IN ('sent', 'unknown')`,
    );
    this.endStmt = db.prepare(
      `UPDATE service_calls SET state = @state, request_id = coalesce(@requestId, request_id),
         status_code = @statusCode, error_code = @errorCode, error_message = @errorMessage, finished_at = @now
       WHERE id = @id AND state = 'sent'`,
    );
  }

  /** Commits the call (state `sent`) durably; call it before the request leaves. */
  record(input: NewServiceCall): ServiceCall {
    return durably(this.db, () => {
      const id = Number(
        this.insertStmt.run({
          profileId: input.profileId,
          model: input.model,
          operation: input.operation,
          request: toJson(input.request),
          now: this.now(),
        }).lastInsertRowid,
      );
      return toCall(this.byIdStmt.get(id)!);
    });
  }

  get(id: number): ServiceCall | undefined {
    const row = this.byIdStmt.get(id);
    return row && toCall(row);
  }

  /** The answer was read and valid. */
  markSucceeded(id: number, success: ServiceCallSuccess): ServiceCall {
    return this.changed(
      id,
      this.successStmt.run({
        id,
        requestId: success.requestId ?? null,
        response: toJson(success.response),
        usage: success.usage === undefined ? null : toJson(success.usage),
        now: this.now(),
      }).changes,
    );
  }

  /** The service answered with an error (or an answer that breaks the contract). */
  markFailed(id: number, failure: ServiceCallFailure): ServiceCall {
    return this.end(id, 'failed', failure);
  }

  /** No answer (network error, timeout, cancel): the service may or may not have done the work. */
  markUnknown(id: number, failure: ServiceCallFailure = {}): ServiceCall {
    return this.end(id, 'unknown', failure);
  }

  /** Newest first, keyset-paginated on the journal id. */
  list(
    query: { profileId?: string; operation?: ServiceCallOperation; limit?: number; cursor?: string } = {},
  ): Page<ServiceCall> {
    const limit = pageSize(query.limit);
    const where: string[] = [];
    if (query.profileId !== undefined) where.push('profile_id = @profileId');
    if (query.operation !== undefined) where.push('operation = @operation');
    if (query.cursor !== undefined) where.push('id < @before');
    const sql = `SELECT * FROM service_calls ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT @limit`;
    let stmt = this.listStmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.listStmts.set(sql, stmt);
    }
    const rows = stmt.all({
      ...(query.profileId !== undefined ? { profileId: query.profileId } : {}),
      ...(query.operation !== undefined ? { operation: query.operation } : {}),
      ...(query.cursor !== undefined ? { before: decodeCursor(query.cursor) } : {}),
      limit: limit + 1,
    }) as Row[];
    return toPage(rows, limit, toCall);
  }

  private end(id: number, state: 'failed' | 'unknown', failure: ServiceCallFailure): ServiceCall {
    return this.changed(
      id,
      this.endStmt.run({
        id,
        state,
        requestId: failure.requestId ?? null,
        statusCode: failure.statusCode ?? null,
        errorCode: failure.errorCode ?? null,
        errorMessage: clip(failure.errorMessage),
        now: this.now(),
      }).changes,
    );
  }

  private changed(id: number, changes: number): ServiceCall {
    const current = this.get(id);
    if (!current) throw new JournalNotFoundError(`The service call ${id}`);
    if (changes === 0) throw new JournalStateError(`The service call ${id} is already ${current.state}.`);
    return current;
  }
}
