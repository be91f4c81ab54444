import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AppError } from '../errors.js';
import { ApiError, OutcomeUnknownError, ResponseShapeError } from '../api-clients/api-errors.js';
import { DEFAULT_POLL_BACKOFF, backoffDelay } from '../api-clients/retry/backoff.js';
import { parseRetryAfter, systemClock } from '../api-clients/retry/retry-after.js';
import type { RetryClock } from '../api-clients/retry/retry-after.js';
import { withRetry } from '../api-clients/retry/retry.js';
import { runtimeErrorOf } from '../api-clients/runtime/runtime-errors.js';
import { MarkedExport } from '../api-clients/runtime/runtime-schemas.js';

/** Spec, "Create export": the only source types a marked copy is made of. */
export const EXPORT_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'video/mp4'] as const;
export type ExportMimeType = (typeof EXPORT_MIME_TYPES)[number];
/** How long an export is waited for in all (preparation and download), by default. */
export const EXPORT_MAX_WAIT_MS = 5 * 60_000;
/** `export_not_ready` without a `Retry-After` (the spec says it carries 5 s). */
const NOT_READY_DEFAULT_SECONDS = 5;
const MARKED_VARIANT = 'marked_export';

/** The body of `POST /media/exports`. */
export interface ExportRequestBody {
  source: { readUrl: string; mimeType: ExportMimeType; sha256: string; byteSize: number; filename?: string };
  idempotencyKey: string;
  intent: 'download';
  deliveryMode: 'marked';
}

/** The runtime's export calls as the session's person (lane runtime-jobs' client). */
export interface RuntimeExportCalls {
  createExport(body: ExportRequestBody, idempotencyKey: string, signal?: AbortSignal): Promise<Response>;
  readExport(exportId: string, signal?: AbortSignal): Promise<Response>;
  downloadExport(exportId: string, signal?: AbortSignal): Promise<Response>;
}

/** A platform-readable, expiring URL of a library file by its content (lane read-urls). */
export interface ExportSourceUrls {
  /** Signed to expire at `expiresAt` exactly: the same arguments give the same URL. */
  readUrlFor(sha256: string, expiresAt: Date): Promise<string> | string;
}

/** The library result to export. */
export interface ExportSource {
  sha256: string;
  mimeType: string;
  byteSize: number;
  filename?: string;
}

export interface MarkedExportResult {
  exportId: string;
  /** Where the marked copy was written (the caller's destination). */
  path: string;
  mimeType: string;
  byteSize: number;
  /** Of the marked copy (it differs from the source's). */
  sha256: string;
}

/** How long a source readUrl is at least valid (it is signed to the end of the next whole window). */
export const EXPORT_SOURCE_URL_SECONDS = 3600;

/**
 * The source URL's expiry: the end of the window after the current one, so every press within
 * one window signs the same URL (the same body, so the same key) and the URL is valid at least
 * one window.
 */
export function exportSourceExpiry(nowMs: number): Date {
  const window = EXPORT_SOURCE_URL_SECONDS * 1000;
  return new Date((Math.floor(nowMs / window) + 2) * window);
}

/**
 * The idempotency key of an export body: derived from the exact body (its key field left out)
 * and, after an expired copy, from the id of the copy it replaces. One key therefore never
 * carries two bodies (spec, 409: "one key never maps to two bodies"), and a process that starts
 * again derives the same key from the same body.
 */
export function markedExportKey(body: Omit<ExportRequestBody, 'idempotencyKey'>, replaces?: string): string {
  const { source } = body;
  const canonical = JSON.stringify({
    source: {
      readUrl: source.readUrl,
      mimeType: source.mimeType,
      sha256: source.sha256,
      byteSize: source.byteSize,
      filename: source.filename ?? null,
    },
    intent: body.intent,
    deliveryMode: body.deliveryMode,
    replaces: replaces ?? null,
  });
  return `framewright-export-${createHash('sha256').update(canonical).digest('hex')}`;
}

/** The body and key last sent for a result, and what the platform said of its copy. */
interface SentExport {
  body: ExportRequestBody;
  key: string;
  exportId?: string;
  expiresAt?: string;
}

/**
 * Exports a library result as a platform-marked copy (spec "Create export"): creates the export
 * under a stable idempotency key (429/503 retried with the same key and body), waits for an
 * export in preparation within a bound by reading it (never creating another), downloads it
 * (`export_not_ready` waits its `Retry-After`), checks that it is the marked variant of the
 * right type and size, and writes it to `destination` (a partial file first, renamed at the end).
 */
export class MarkedExports {
  private readonly clock: RetryClock;
  /** Per result (and file name): the body and key last sent, kept until the platform's copy expires. */
  private readonly sent = new Map<string, SentExport>();

  constructor(
    private readonly deps: {
      calls: RuntimeExportCalls;
      urls: ExportSourceUrls;
      clock?: RetryClock;
      maxWaitMs?: number;
    },
  ) {
    this.clock = deps.clock ?? systemClock;
  }

  async exportTo(
    source: ExportSource,
    destination: string,
    signal?: AbortSignal,
  ): Promise<MarkedExportResult> {
    const mimeType = checkSource(source, destination);
    const deadline = this.clock.now() + (this.deps.maxWaitMs ?? EXPORT_MAX_WAIT_MS);
    const memo = `${source.sha256}\0${source.filename ?? ''}`;
    let current: MarkedExport & { retryAfter?: number };
    let replaces: string | undefined;
    for (let attempt = 0; ; attempt += 1) {
      let sent = this.sent.get(memo);
      if (sent && this.expired(sent)) {
        replaces = sent.exportId;
        sent = undefined;
      }
      // the body of a key is kept as it was first sent (its readUrl is not signed again)
      sent ??= await this.newExport(source, mimeType, replaces);
      this.sent.set(memo, sent);
      current = await this.create(sent, deadline, signal);
      sent.exportId = current.exportId;
      sent.expiresAt = current.expiresAt;
      if (!this.expired(current)) break;
      // the platform's copy has expired: a new one is asked for, under a new key and body
      this.sent.delete(memo);
      replaces = current.exportId;
      if (attempt >= 1)
        throw new AppError(
          'export.failed',
          'The platform answered with an expired marked copy twice; export again later.',
        );
    }
    for (let round = 0; current.status !== 'ready'; round += 1) {
      if (current.status === 'failed')
        throw new AppError(
          'export.failed',
          `The platform could not prepare the marked copy (${current.errorCode ?? 'no reason given'}).`,
        );
      await this.wait(
        current.retryAfter ?? current.retryAfterSeconds,
        backoffDelay(DEFAULT_POLL_BACKOFF, round),
        deadline,
        signal,
      );
      const response = await answerOf('Read export', () =>
        this.deps.calls.readExport(current.exportId, signal),
      );
      if (!response.ok) throw await runtimeErrorFrom(response);
      current = {
        ...(await exportOf(response)),
        retryAfter: parseRetryAfter(response.headers.get('retry-after')),
      };
    }
    return this.download(current, mimeType, destination, deadline, signal);
  }

  /** A body for a result, signed now, and its key (derived from the body and the copy it replaces). */
  private async newExport(
    source: ExportSource,
    mimeType: ExportMimeType,
    replaces: string | undefined,
  ): Promise<SentExport> {
    const readUrl = await this.deps.urls.readUrlFor(source.sha256, exportSourceExpiry(this.clock.now()));
    const business: Omit<ExportRequestBody, 'idempotencyKey'> = {
      source: {
        readUrl,
        mimeType,
        sha256: source.sha256,
        byteSize: source.byteSize,
        ...(source.filename ? { filename: source.filename } : {}),
      },
      intent: 'download',
      deliveryMode: 'marked',
    };
    const key = markedExportKey(business, replaces);
    return { key, body: { ...business, idempotencyKey: key } };
  }

  /** `POST /media/exports` with the key's own body; 429/503 and lost answers retried with both unchanged. */
  private create(
    sent: SentExport,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<MarkedExport & { retryAfter?: number }> {
    return withRetry(
      'create',
      async () => {
        const response = await answerOf('Create export', () =>
          this.deps.calls.createExport(sent.body, sent.key, signal),
        );
        if (response.status !== 200 && response.status !== 202) throw await runtimeErrorFrom(response);
        return {
          ...(await exportOf(response)),
          retryAfter: parseRetryAfter(response.headers.get('retry-after')),
        };
      },
      { signal, clock: this.clock, deadline, policy: { label: 'Create export' } },
    );
  }

  /** A copy whose `expiresAt` has passed (or that says `expired`) is not downloadable: a new one is asked for. */
  private expired(copy: { status?: string; expiresAt?: string }): boolean {
    if (copy.status === 'expired') return true;
    const expiresAt = copy.expiresAt !== undefined ? Date.parse(copy.expiresAt) : Number.NaN;
    return Number.isFinite(expiresAt) && expiresAt <= this.clock.now();
  }

  /** Downloads the ready export; `export_not_ready` waits its `Retry-After` (within the bound) and reads again. */
  async download(
    exported: Pick<MarkedExport, 'exportId' | 'byteSize'>,
    mimeType: string,
    destination: string,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<MarkedExportResult> {
    const notReady = (error: unknown): error is ApiError =>
      error instanceof ApiError && error.status === 409 && error.apiCode === 'export_not_ready';
    for (;;) {
      let error: unknown;
      try {
        const response = await answerOf('Download export', () =>
          this.deps.calls.downloadExport(exported.exportId, signal),
        );
        if (response.ok) return await this.save(response, exported, mimeType, destination);
        error = await runtimeErrorFrom(response);
      } catch (thrown) {
        // a client that raises the error answer itself (the runtime client) says the same thing
        if (!notReady(thrown)) throw thrown;
        error = thrown;
      }
      if (!notReady(error)) throw error;
      await this.wait(error.retryAfterSeconds ?? NOT_READY_DEFAULT_SECONDS, 0, deadline, signal);
    }
  }

  /** Waits what the server asked (else `ownMs`); a wait past the bound stops with a clear error. */
  private async wait(
    serverSeconds: number | undefined,
    ownMs: number,
    deadline: number,
    signal?: AbortSignal,
  ): Promise<void> {
    const ms = serverSeconds !== undefined ? Math.ceil(serverSeconds * 1000) : ownMs;
    if (this.clock.now() + ms > deadline)
      throw new AppError(
        'export.not_ready_in_time',
        'The marked copy was not ready within the time Framewright waits for it; export again later (the same export is reused).',
      );
    await this.clock.sleep(ms, signal);
  }

  private async save(
    response: Response,
    exported: Pick<MarkedExport, 'exportId' | 'byteSize'>,
    mimeType: string,
    destination: string,
  ): Promise<MarkedExportResult> {
    const variant = response.headers.get('x-platform-asset-variant');
    if (variant !== MARKED_VARIANT) {
      await response.body?.cancel();
      throw new AppError(
        'export.not_marked',
        `The export download is not the platform-marked copy (X-Platform-Asset-Variant: ${variant ?? 'missing'}); nothing was saved.`,
      );
    }
    const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const length = response.headers.get('content-length');
    const expected = exported.byteSize ?? (length !== null ? Number(length) : undefined);
    if (type !== mimeType || !response.body) {
      await response.body?.cancel();
      throw new AppError(
        'download.verification_failed',
        `The marked copy is ${type || 'of no type'}, not ${mimeType}; nothing was saved.`,
      );
    }
    const partial = `${destination}.part-${randomBytes(6).toString('hex')}`;
    const hash = createHash('sha256');
    let received = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        received += chunk.length;
        if (expected !== undefined && received > expected)
          return done(new Error('more bytes than announced'));
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(response.body as WebReadableStream<Uint8Array>),
        count,
        createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
      );
      if (expected !== undefined && received !== expected)
        throw new Error(`${received} bytes received, ${expected} announced`);
      await rename(partial, destination);
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof AppError) throw error;
      throw new AppError(
        'download.verification_failed',
        `The marked copy could not be saved: ${(error as Error).message}; nothing was kept.`,
      );
    }
    return {
      exportId: exported.exportId,
      path: destination,
      mimeType,
      byteSize: received,
      sha256: hash.digest('hex'),
    };
  }
}

function checkSource(source: ExportSource, destination: string): ExportMimeType {
  const invalid = (message: string) => new AppError('export.invalid_source', message);
  if (!/^[0-9a-f]{64}$/.test(source.sha256))
    throw invalid('The result to export has no valid sha256 (64 lowercase hex).');
  if (!(EXPORT_MIME_TYPES as readonly string[]).includes(source.mimeType))
    throw invalid(
      `Only ${EXPORT_MIME_TYPES.join(', ')} can be exported as a marked copy, not ${source.mimeType}.`,
    );
  if (!Number.isInteger(source.byteSize) || source.byteSize < 0)
    throw invalid('The result to export has no valid size.');
  if (!path.isAbsolute(destination)) throw invalid('The download needs an absolute file path.');
  return source.mimeType as ExportMimeType;
}

/** Runs a call; a failure before any answer (reset, timeout) is an unknown outcome. */
async function answerOf(operation: string, call: () => Promise<Response>): Promise<Response> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError || (error as Error).name === 'AbortError') throw error;
    throw new OutcomeUnknownError(operation, (error as Error).message);
  }
}

async function exportOf(response: Response): Promise<MarkedExport> {
  const parsed = MarkedExport.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success)
    throw new ResponseShapeError('Export', parsed.error.issues[0]?.message ?? 'not an export');
  return parsed.data;
}

/** The runtime's error answer (its code, phase and `Retry-After` kept), as the runtime client builds it. */
async function runtimeErrorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  return runtimeErrorOf(response.status, response.headers.get('retry-after'), text, 'Export');
}
