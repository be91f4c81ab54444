import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { ForeignOriginError } from '../api-errors.js';
import { parseRetryAfter, systemClock, type RetryClock } from '../retry/retry-after.js';
import { authSecrets, runtimeAuthHeaders, type RuntimeAuth, type SessionAuth } from './runtime-auth.js';
import { parseJsonOrUndefined } from '../capped-body.js';
import { redactValue } from '../../secrets/redact-value.js';
import { parseAnswer, runtimeErrorFrom, runtimeErrorOf, scrubError } from './runtime-errors.js';
import { header, readText, sendHttp, type HttpAnswer, type SendInit } from './runtime-http.js';
import {
  AvailableServices,
  BatchGetAnswer,
  DryRunAnswer,
  MarkedExport,
  ResourceUsage,
  RuntimeJob,
  RuntimeOptimizationAnswer,
  type RuntimeCallInput,
  type RuntimeOptimizationRequest,
} from './runtime-schemas.js';
import { ChatCompletionResponse } from '../../../../shared/api/chat.js';
import { EmbeddingsResponse } from '../../../../shared/api/embeddings.js';
import { OcrResponse } from '../../../../shared/api/ocr.js';
import { RerankResponse } from '../../../../shared/api/rerank.js';
import { TranscriptionResponse } from '../../../../shared/api/transcription.js';
import { WORKING_CALL_TIMEOUT_MS } from '../../../../shared/wait-defaults.js';

/** Where the deployed runtime is and the application credential (read at each call, never kept). */
export interface RuntimeEndpoint {
  /** `PLATFORM_APP_RUNTIME_BASE_URL`: already contains the platform prefix (no `/v1` is added). */
  runtimeBaseUrl: string;
  appCredential(): Promise<string>;
}

/** The most ids one `:batch-get` takes (spec, "Limits"). */
export const BATCH_GET_MAX_IDS = 100;

export interface RuntimeAnswer<T> {
  httpStatus: number;
  body: T;
  retryAfterSeconds: number | undefined;
  /** The answer's `X-Request-Id`, when it carried one. */
  requestId?: string;
}

/**
 * A chat completion's answer: one JSON completion, or (`stream: true` and a `text/event-stream`
 * answer) the raw stream of chunks for the caller's SSE reader.
 */
export type RuntimeChatAnswer =
  | { kind: 'completion'; body: ChatCompletionResponse; requestId?: string }
  | { kind: 'stream'; stream: Readable; requestId?: string };

/** Options of one synchronous call: its caller's cancel. */
export interface RuntimeCallOptions {
  signal?: AbortSignal;
}

/** A streamed binary answer (result or export download) with the headers the caller verifies. */
export interface RuntimeStream {
  status: number;
  contentType: string | undefined;
  contentLength: string | undefined;
  contentDisposition: string | undefined;
  assetVariant: string | undefined;
  body: Readable;
}

/**
 * The typed client of the platform's deployed runtime (application-platform-api.md, section A):
 * every call Framewright uses. Each call names its {@link RuntimeAuth} — the user's session, or
 * for a single-job read and its result downloads a recovery reference, never both. Error answers
 * become `RuntimeApiError` (an `ApiError` with `phase`), no answer an `OutcomeUnknownError`; the
 * credential, session id and recovery reference are removed from every error text and answer.
 */
export class RuntimeApiClient {
  readonly clock: RetryClock;
  private readonly base: string;
  private readonly origin: string;

  constructor(
    private readonly endpoint: RuntimeEndpoint,
    options: {
      clock?: RetryClock;
      /** Hears each call: its operation and HTTP status, or undefined when no answer came (metrics). */
      observe?: (operation: string, status: number | undefined) => void;
    } = {},
  ) {
    this.base = endpoint.runtimeBaseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.base).origin;
    this.clock = options.clock ?? systemClock;
    this.observe = options.observe ?? (() => undefined);
  }

  private readonly observe: (operation: string, status: number | undefined) => void;

  /** `sendHttp`, observed. */
  private async send(...args: Parameters<typeof sendHttp>): Promise<HttpAnswer> {
    try {
      const answer = await sendHttp(...args);
      this.observe(args[2], answer.status);
      return answer;
    } catch (error) {
      this.observe(args[2], undefined);
      throw error;
    }
  }

  private url(path: string, query?: Record<string, string>): string {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    return url.toString();
  }

  /** Sends with the credential and the auth headers; `work` reads the answer. Errors are scrubbed. */
  private async exchange<T>(
    operation: string,
    url: string,
    auth: RuntimeAuth,
    init: Omit<SendInit, 'headers'> & { headers?: Record<string, string> },
    work: (answer: HttpAnswer, secrets: string[]) => Promise<T>,
    /** Reads a non-2xx answer's text (secrets removed) as a result instead of an error, if it is one. */
    errorAnswerAs?: (status: number, text: string, answer: HttpAnswer) => T | undefined,
  ): Promise<T> {
    if (new URL(url).origin !== this.origin) throw new ForeignOriginError(url, this.origin);
    const credential = await this.endpoint.appCredential();
    const secrets = [credential, ...authSecrets(auth)];
    try {
      const answer = await this.send(
        url,
        { ...init, headers: { ...init.headers, ...runtimeAuthHeaders(credential, auth) } },
        operation,
      );
      if ((answer.status < 200 || answer.status >= 300) && errorAnswerAs) {
        const text = redactValue(await readText(answer, operation).catch(() => ''), secrets);
        const result = errorAnswerAs(answer.status, text, answer);
        if (result !== undefined) return result;
        throw runtimeErrorOf(answer.status, header(answer, 'retry-after'), text, operation);
      }
      if (answer.status < 200 || answer.status >= 300)
        throw await runtimeErrorFrom(answer, operation, secrets);
      return await work(answer, secrets);
    } catch (error) {
      throw scrubError(error, secrets);
    }
  }

  private async json<S extends z.ZodType>(
    operation: string,
    method: 'GET' | 'POST',
    url: string,
    auth: RuntimeAuth,
    schema: S,
    body?: unknown,
    options: { headers?: Record<string, string>; totalTimeoutMs?: number; signal?: AbortSignal } = {},
  ): Promise<RuntimeAnswer<z.output<S>>> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.exchange(
      operation,
      url,
      auth,
      {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        bound: 'total',
        ...(options.totalTimeoutMs !== undefined ? { totalTimeoutMs: options.totalTimeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      },
      async (answer, secrets) => ({
        httpStatus: answer.status,
        body: await parseAnswer(await readText(answer, operation), schema, operation, secrets),
        retryAfterSeconds: parseRetryAfter(header(answer, 'retry-after')),
        requestId: header(answer, 'x-request-id'),
      }),
    );
  }

  /** `GET /available-services`. */
  async availableServices(
    auth: SessionAuth,
    query: { serviceKind?: string; page?: number; pageSize?: number } = {},
  ): Promise<AvailableServices> {
    const q: Record<string, string> = {};
    if (query.serviceKind) q.serviceKind = query.serviceKind;
    if (query.page) q.page = String(query.page);
    if (query.pageSize) q.pageSize = String(query.pageSize);
    return (
      await this.json('List services', 'GET', this.url('/available-services', q), auth, AvailableServices)
    ).body;
  }

  /**
   * `POST /media/jobs` under its `Idempotency-Key` (session only: a recovery reference never
   * creates). A replay answers the existing job and "HTTP status may follow the job (200 or a
   * failure code)": a non-2xx answer whose body is a RuntimeJob (a `platformJobId` and a job
   * `status`, no error `code`) is that job, with its status kept in `httpStatus` — not an error.
   */
  createJob(
    auth: SessionAuth,
    body: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<RuntimeAnswer<RuntimeJob>> {
    const operation = 'Create job';
    return this.exchange(
      operation,
      this.url('/media/jobs'),
      auth,
      {
        method: 'POST',
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'idempotency-key': idempotencyKey,
        },
        body: JSON.stringify(body),
        bound: 'total',
      },
      async (answer, secrets) => ({
        httpStatus: answer.status,
        body: await parseAnswer(await readText(answer, operation), RuntimeJob, operation, secrets),
        retryAfterSeconds: parseRetryAfter(header(answer, 'retry-after')),
      }),
      (status, text, answer) => {
        const parsed = parseJsonOrUndefined(text) as Record<string, unknown> | undefined;
        if (parsed === undefined || typeof parsed.code === 'string') return undefined;
        const job = RuntimeJob.safeParse(parsed);
        if (!job.success) return undefined;
        return {
          httpStatus: status,
          body: job.data,
          retryAfterSeconds: parseRetryAfter(header(answer, 'retry-after')),
        };
      },
    );
  }

  /** `POST /media/jobs:dry-run`: the same body as creation; `accepted: false` is a valid answer. */
  async dryRun(auth: SessionAuth, body: Record<string, unknown>): Promise<DryRunAnswer> {
    return (await this.json('Dry-run', 'POST', this.url('/media/jobs:dry-run'), auth, DryRunAnswer, body))
      .body;
  }

  /** `GET /media/jobs/{jobId}`: with the session, or with this job's recovery reference. */
  getJob(auth: RuntimeAuth, platformJobId: string): Promise<RuntimeAnswer<RuntimeJob>> {
    return this.json(
      'Read job',
      'GET',
      this.url(`/media/jobs/${encodeURIComponent(platformJobId)}`),
      auth,
      RuntimeJob,
    );
  }

  /** `POST /media/jobs:batch-get`: 1..100 de-duplicated ids, session only. */
  async batchGet(auth: SessionAuth, platformJobIds: readonly string[]): Promise<BatchGetAnswer> {
    const ids = [...new Set(platformJobIds.filter((id) => id.length > 0))];
    if (ids.length === 0 || ids.length > BATCH_GET_MAX_IDS)
      throw new RangeError(`batch-get takes 1..${BATCH_GET_MAX_IDS} ids, not ${ids.length}.`);
    return (
      await this.json('Read jobs', 'POST', this.url('/media/jobs:batch-get'), auth, BatchGetAnswer, {
        platformJobIds: ids,
      })
    ).body;
  }

  /**
   * Opens a result's bytes, bounded by progress rather than 30 s; the caller verifies
   * `Content-Type`, size and `sha256`. `resultDownloadUrl` on the runtime's origin is read as
   * returned, with the credential and `auth`. One on another origin (a storage or CDN host of the
   * platform; the spec does not tie it to the runtime's origin) never receives them: the result is
   * read at the spec's own route `/media/jobs/{jobId}/results/{resultId}/download` on the runtime's
   * origin when its ids are known, else the URL is read as a signed URL, with no credential at all.
   */
  openResult(
    auth: RuntimeAuth,
    resultDownloadUrl: string,
    ids?: { jobId: string; resultId: string },
  ): Promise<RuntimeStream> {
    if (new URL(resultDownloadUrl).origin === this.origin)
      return this.stream('Download result', resultDownloadUrl, auth);
    if (ids?.jobId && ids.resultId)
      return this.stream(
        'Download result',
        this.url(
          `/media/jobs/${encodeURIComponent(ids.jobId)}/results/${encodeURIComponent(ids.resultId)}/download`,
        ),
        auth,
      );
    return this.signedStream('Download result', resultDownloadUrl);
  }

  /** A GET of a signed URL on another origin: no credential, session, reference or cookie is sent. */
  private async signedStream(operation: string, url: string): Promise<RuntimeStream> {
    const answer = await this.send(url, { method: 'GET', headers: {}, bound: 'progress' }, operation);
    if (answer.status < 200 || answer.status >= 300) throw await runtimeErrorFrom(answer, operation, []);
    return streamOf(answer);
  }

  /** `POST /media/exports` (202 in preparation, 200 ready), session only. */
  createExport(
    auth: SessionAuth,
    body: Record<string, unknown>,
    idempotencyKey: string,
  ): Promise<RuntimeAnswer<MarkedExport>> {
    return this.json('Create export', 'POST', this.url('/media/exports'), auth, MarkedExport, body, {
      headers: { 'idempotency-key': idempotencyKey },
    });
  }

  /** `GET /media/exports/{exportId}`. */
  getExport(auth: SessionAuth, exportId: string): Promise<RuntimeAnswer<MarkedExport>> {
    return this.json(
      'Read export',
      'GET',
      this.url(`/media/exports/${encodeURIComponent(exportId)}`),
      auth,
      MarkedExport,
    );
  }

  /** `GET /media/exports/{exportId}/download` (409 `export_not_ready` carries `Retry-After`). */
  openExport(auth: SessionAuth, exportId: string): Promise<RuntimeStream> {
    return this.stream(
      'Download export',
      this.url(`/media/exports/${encodeURIComponent(exportId)}/download`),
      auth,
    );
  }

  /**
   * `POST /media/prompt-optimizations` in its runtime form, session only (a recovery reference
   * cannot authorize it: a type error). `Idempotency-Key` is the body's `clientRequestId`; the body
   * is sent as given (the caller replays its stored body byte for byte). Bounded by the service's
   * `clientTimeoutSeconds`. Sent once: the caller decides what is replayed.
   */
  async optimizePrompt(
    auth: SessionAuth,
    body: RuntimeOptimizationRequest,
    timeoutSeconds: number,
  ): Promise<RuntimeOptimizationAnswer> {
    return (
      await this.json(
        'Optimize prompt',
        'POST',
        this.url('/media/prompt-optimizations'),
        auth,
        RuntimeOptimizationAnswer,
        body,
        { headers: { 'idempotency-key': body.clientRequestId }, totalTimeoutMs: timeoutSeconds * 1000 },
      )
    ).body;
  }

  /**
   * One billed synchronous call (spec A: inference may be billed, a lost answer is not replayed
   * unconditionally): sent exactly once, never again here; a lost answer is an
   * `OutcomeUnknownError`. Bounded like the public interface's working calls.
   */
  private syncCall<S extends z.ZodType>(
    operation: string,
    path: string,
    auth: SessionAuth,
    schema: S,
    body: Record<string, unknown>,
    options: RuntimeCallOptions,
  ): Promise<RuntimeAnswer<z.output<S>>> {
    return this.json(operation, 'POST', this.url(path), auth, schema, body, {
      totalTimeoutMs: WORKING_CALL_TIMEOUT_MS,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  /**
   * `POST /chat/completions`: text in `messages`, images and videos in `inputs`. With
   * `stream: true` a `text/event-stream` answer is returned unread (bounded by progress: 30 s
   * without a byte); any other answer is one JSON completion. Sent once.
   */
  chatCompletions(
    auth: SessionAuth,
    body: Record<string, unknown> & { inputs?: RuntimeCallInput[] },
    options: RuntimeCallOptions = {},
  ): Promise<RuntimeChatAnswer> {
    const operation = 'Chat';
    const streaming = body.stream === true;
    return this.exchange(
      operation,
      this.url('/chat/completions'),
      auth,
      {
        method: 'POST',
        headers: {
          accept: streaming ? 'text/event-stream, application/json' : 'application/json',
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
        bound: streaming ? 'progress' : 'total',
        totalTimeoutMs: WORKING_CALL_TIMEOUT_MS,
        ...(options.signal ? { signal: options.signal } : {}),
      },
      async (answer, secrets): Promise<RuntimeChatAnswer> => {
        const requestId = header(answer, 'x-request-id');
        if (streaming && (header(answer, 'content-type') ?? '').startsWith('text/event-stream'))
          return { kind: 'stream', stream: answer.body, requestId };
        const text = await readText(answer, operation);
        return {
          kind: 'completion',
          body: await parseAnswer(text, ChatCompletionResponse, operation, secrets),
          requestId,
        };
      },
    );
  }

  /** `POST /embeddings` (<= 64 items of <= 8192 characters). Sent once. */
  embeddings(
    auth: SessionAuth,
    body: { model: string; input: string | string[] },
    options: RuntimeCallOptions = {},
  ): Promise<RuntimeAnswer<EmbeddingsResponse>> {
    return this.syncCall('Embeddings', '/embeddings', auth, EmbeddingsResponse, body, options);
  }

  /** `POST /rerank` (`top_n` only where the model supports it). Sent once. */
  rerank(
    auth: SessionAuth,
    body: { model: string; query: string; documents: string[]; top_n?: number },
    options: RuntimeCallOptions = {},
  ): Promise<RuntimeAnswer<RerankResponse>> {
    return this.syncCall('Rerank', '/rerank', auth, RerankResponse, body, options);
  }

  /** `POST /ocr`: exactly one image in `inputs`; the model's own JSON comes back. Sent once. */
  ocr(
    auth: SessionAuth,
    body: { model: string; inputs: RuntimeCallInput[]; task?: string; pages?: number },
    options: RuntimeCallOptions = {},
  ): Promise<RuntimeAnswer<OcrResponse>> {
    return this.syncCall('OCR', '/ocr', auth, OcrResponse, body, options);
  }

  /** `POST /audio/transcriptions`: exactly one audio in `inputs`. Sent once. */
  transcribe(
    auth: SessionAuth,
    body: { model: string; inputs: RuntimeCallInput[]; language?: string; response_format?: string },
    options: RuntimeCallOptions = {},
  ): Promise<RuntimeAnswer<TranscriptionResponse>> {
    return this.syncCall(
      'Transcription',
      '/audio/transcriptions',
      auth,
      TranscriptionResponse,
      body,
      options,
    );
  }

  /** `POST /resource-usage:aggregate`. */
  async aggregateUsage(
    auth: SessionAuth,
    body: { resourceType: string; resourceIds: string[]; groupBy?: ('accountId' | 'serviceKind' | 'day')[] },
  ): Promise<ResourceUsage> {
    return (
      await this.json(
        'Resource usage',
        'POST',
        this.url('/resource-usage:aggregate'),
        auth,
        ResourceUsage,
        body,
      )
    ).body;
  }

  /**
   * `GET /media/events` as the raw answer (a `text/event-stream`; the events consumer parses it).
   * Its time is bounded by progress (heartbeats), not by 30 s.
   */
  openEvents(
    auth: SessionAuth,
    query: { cursor?: string; lastEventId?: string; once?: boolean; limit?: number } = {},
  ): Promise<RuntimeStream> {
    const q: Record<string, string> = {};
    if (query.cursor) q.cursor = query.cursor;
    if (query.once) q.once = 'true';
    if (query.limit !== undefined) q.limit = String(query.limit);
    const headers: Record<string, string> = { accept: 'text/event-stream' };
    if (query.lastEventId) headers['last-event-id'] = query.lastEventId;
    return this.stream('Events', this.url('/media/events', q), auth, headers);
  }

  private stream(
    operation: string,
    url: string,
    auth: RuntimeAuth,
    headers: Record<string, string> = {},
  ): Promise<RuntimeStream> {
    return this.exchange(operation, url, auth, { method: 'GET', headers, bound: 'progress' }, (answer) =>
      Promise.resolve(streamOf(answer)),
    );
  }
}

/** A streamed answer as the callers read it: its status, the headers they use, and the body. */
function streamOf(answer: HttpAnswer): RuntimeStream {
  return {
    status: answer.status,
    contentType: header(answer, 'content-type'),
    contentLength: header(answer, 'content-length'),
    contentDisposition: header(answer, 'content-disposition'),
    assetVariant: header(answer, 'x-platform-asset-variant'),
    body: answer.body,
  };
}
