import type { z } from 'zod';
import { UploadResponse } from '../../../shared/api/assets.js';
import { AdmissionPreviewResponse } from '../../../shared/api/admission.js';
import { ServiceEntryList } from '../../../shared/api/discovery.js';
import {
  MediaJobAnswer,
  TERMINAL_JOB_STATUSES,
  type MediaJobAnswer as MediaJob,
} from '../../../shared/api/media-jobs.js';
import {
  PromptOptimizationResponse,
  type PromptOptimizationRequest,
} from '../../../shared/api/prompt-optimization.js';
import type { ProfileKind } from '../../../shared/bridge/contract.js';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import { multipartFileBody, type StreamedBody, type UploadProgress } from './multipart-file-body.js';
import { readJsonBody } from './read-json-body.js';
import {
  ForeignOriginError,
  OutcomeUnknownError,
  failedBeforeSending,
  ResponseShapeError,
  apiErrorFromResponse,
  type CredentialKind,
} from './api-errors.js';
import { AppError } from '../errors.js';
import { credentialFingerprint } from '../secrets/credential-fingerprint.js';
import { redactValue } from '../secrets/redact-value.js';
import { MAX_ERROR_BODY_BYTES, parseJsonOrUndefined, readCappedText } from './capped-body.js';
import { parseRetryAfter, systemClock, type RetryClock } from './retry/retry-after.js';
import { CONTENT_DOWNLOAD_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../../../shared/wait-defaults.js';

/**
 * Who calls the service: a profile's base URL (including /v1) and its credential. The secret is
 * read through `secret()` at each request and never stored on the client, so it cannot leak by
 * serialising or logging the client.
 */
export interface ServiceIdentity {
  profileId: string;
  kind: ProfileKind;
  baseUrl: string;
  secret(): Promise<string>;
}

export interface AcceptedJob {
  /** 202 on first acceptance; 200 (or the stored status) when an idempotent replay returns the stored job. */
  httpStatus: number;
  job: MediaJob;
  /** The answer's `Retry-After` header (the suggested poll interval), in seconds. */
  retryAfterSeconds: number | undefined;
}

/** One poll: the job and the answer's `Retry-After` header, in seconds. */
export interface PolledJob {
  job: MediaJob;
  retryAfterSeconds: number | undefined;
}

export interface UploadInput {
  model: string;
  filePath: string;
  fileName: string;
  mimeType: string;
  /** `file` in general; `audio` for an H3 .mov with an audio track. */
  field: 'file' | 'image' | 'video' | 'audio';
  clientRequestId?: string;
  /** Byte progress of the streamed body (throttled; the final report equals the total). */
  onProgress?: UploadProgress;
}

const MAX_REDIRECTS = 3;

/** A result's bytes as a Node stream with the headers the downloader verifies. */
export interface ContentStream {
  status: number;
  contentType: string | undefined;
  contentLength: string | undefined;
  body: Readable;
}

function toWebResponse(res: IncomingMessage): Response {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (typeof value === 'string') headers.set(key, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
  }
  return new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode ?? 500, headers });
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timed out';
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? error.message;
  }
  return String(error);
}

/**
 * The typed client of the Public Model and Media API. Every answer is validated against the
 * schemas in src/shared/api (which accept the additional properties the spec allows), every error
 * becomes an ApiError, and the key goes only to the profile's own origin.
 */
export class PublicApiClient {
  readonly origin: string;
  /** The time every retry loop of this client waits by (injectable for tests). */
  readonly clock: RetryClock;
  private readonly base: string;

  constructor(
    private readonly identity: ServiceIdentity,
    private readonly options: {
      requestTimeoutMs?: number;
      fetchImpl?: typeof fetch;
      clock?: RetryClock;
    } = {},
  ) {
    this.base = identity.baseUrl.replace(/\/+$/, '');
    this.origin = new URL(this.base).origin;
    this.clock = options.clock ?? systemClock;
  }

  get profileId(): string {
    return this.identity.profileId;
  }

  /** Whose credential this client sends: a debug profile's is a paired session's token. */
  private get credentialKind(): CredentialKind {
    return this.identity.kind === 'debug' ? 'debug_session' : 'key';
  }

  /**
   * A one-way fingerprint of the credential the next request goes with: what was obtained under
   * one key or token (uploaded assets) is only used again under the same one.
   */
  async credentialFingerprint(): Promise<string> {
    return credentialFingerprint(await this.identity.secret());
  }

  /**
   * A path of the spec on this profile's base URL (no second /v1). Private with `send`: every
   * endpoint Framewright calls is a method of this client.
   */
  private url(path: string, query?: Record<string, string>): string {
    const url = new URL(this.base + path);
    for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
    return url.toString();
  }

  /** True when `url` may receive the key: it is on the profile's origin. */
  isOwnOrigin(url: string): boolean {
    try {
      return new URL(url).origin === this.origin;
    } catch {
      return false;
    }
  }

  /**
   * Sends one request with the key, to this origin only. Same-origin redirects are followed with the
   * key; a redirect elsewhere is followed without it only when `allowForeignRedirect` (downloads),
   * else refused.
   */
  private async send(
    url: string,
    init: RequestInit & { timeoutMs?: number; allowForeignRedirect?: boolean },
    operation: string,
  ): Promise<Response> {
    return this.scrubbed(async () => {
      const response = await this.sendOnce(url, init, operation);
      return response.ok ? response : this.withoutSecretInBody(response);
    });
  }

  /**
   * An error answer whose body no longer contains the key, as sent or JSON-escaped: every reader
   * of it (error messages, `details`, the journal's rejection record, logs) gets the scrubbed text.
   */
  private async withoutSecretInBody(response: Response): Promise<Response> {
    const secret = await this.identity.secret().catch(() => undefined);
    if (!secret || secret.length < 4 || response.status === 204 || response.status === 304) return response;
    // read under the same cap as any error body: past it the status alone decides (the body is
    // dropped), so a gzip bomb in an error answer is never inflated whole just to be scrubbed
    const text = await readCappedText(response, MAX_ERROR_BODY_BYTES).catch(() => '');
    const escaped = JSON.stringify(secret).slice(1, -1);
    const scrubbed = redactValue(redactValue(text, [secret]), [escaped]);
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    return new Response(scrubbed, { status: response.status, statusText: response.statusText, headers });
  }

  /**
   * Runs `work` and removes the key from the message and details of any error it throws: a server
   * that echoes the Authorization header in an error body must not carry the key into logs, the
   * journal or the renderer.
   */
  private async scrubbed<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw await this.redact(error);
    }
  }

  private async redact<E>(error: E): Promise<E> {
    if (error instanceof Error) {
      const secret = await this.identity.secret().catch(() => undefined);
      if (secret) {
        error.message = redactValue(error.message, [secret]);
        if (error instanceof AppError && error.details !== undefined) {
          Object.defineProperty(error, 'details', { value: redactValue(error.details, [secret]) });
        }
      }
    }
    return error;
  }

  private async sendOnce(
    url: string,
    init: RequestInit & { timeoutMs?: number; allowForeignRedirect?: boolean },
    operation: string,
  ): Promise<Response> {
    if (!this.isOwnOrigin(url)) throw new ForeignOriginError(url, this.origin);
    const fetchImpl = this.options.fetchImpl ?? fetch;
    const timeoutMs = init.timeoutMs ?? this.options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    let target = url;
    let withKey = true;
    for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
      const headers = new Headers(init.headers);
      if (withKey) headers.set('authorization', `Bearer ${await this.identity.secret()}`);
      else headers.delete('authorization');
      let response: Response;
      try {
        response = await fetchImpl(target, {
          ...init,
          headers,
          redirect: 'manual',
          signal: init.signal ?? AbortSignal.timeout(timeoutMs),
        });
      } catch (error) {
        throw new OutcomeUnknownError(operation, describeNetworkError(error), {
          notSent: failedBeforeSending(error),
        });
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        target = new URL(location, target).toString();
        if (!this.isOwnOrigin(target)) {
          if (!init.allowForeignRedirect) throw new ForeignOriginError(target, this.origin);
          withKey = false;
        }
        continue;
      }
      return response;
    }
    throw new ResponseShapeError(operation, `more than ${MAX_REDIRECTS} redirects`);
  }

  /**
   * A JSON answer with the key removed from every string in it (a job's `errorMessage`, free-form
   * fields), before any of it is recorded in the journal or shown.
   */
  private async json<S extends z.ZodType>(
    response: Response,
    schema: S,
    operation: string,
  ): Promise<z.output<S>> {
    const body = await readJsonBody(response, schema, operation);
    return redactValue(body, [await this.identity.secret().catch(() => undefined)]);
  }

  private async call<S extends z.ZodType>(
    operation: string,
    url: string,
    init: RequestInit & { timeoutMs?: number },
    schema: S,
  ): Promise<{ body: z.output<S>; response: Response }> {
    return this.scrubbed(async () => {
      const response = await this.send(url, init, operation);
      if (!response.ok) throw await apiErrorFromResponse(response, this.credentialKind);
      return { body: await this.json(response, schema, operation), response };
    });
  }

  async listServices(serviceKind?: string): Promise<ServiceEntryList> {
    const url = this.url('/services', serviceKind ? { serviceKind } : undefined);
    return (await this.call('List services', url, { method: 'GET' }, ServiceEntryList)).body;
  }

  /** POST a creation body with its idempotency key (video, image and audio jobs share this read pattern). */
  async createJob(
    path: '/media/generations' | '/images/generations' | '/audio/generations',
    body: Record<string, unknown>,
    idempotencyKey: string,
    options: { clientRequestId?: string; timeoutMs?: number } = {},
  ): Promise<AcceptedJob> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'idempotency-key': idempotencyKey,
    };
    if (options.clientRequestId) headers['x-client-request-id'] = options.clientRequestId;
    return this.scrubbed(async () => {
      const response = await this.send(
        this.url(path),
        { method: 'POST', headers, body: JSON.stringify(body), timeoutMs: options.timeoutMs },
        'Create job',
      );
      const retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'));
      if (response.ok) {
        const job = await this.json(response, MediaJobAnswer, 'Create job');
        return { httpStatus: response.status, job, retryAfterSeconds };
      }
      // A terminal replay may answer with the matching failure status and the job's body: it is
      // the job (its jobId and requestId are kept), not an error without one.
      const text = await readCappedText(response, MAX_ERROR_BODY_BYTES).catch(() => '');
      const replay = MediaJobAnswer.safeParse(parseJsonOrUndefined(text));
      if (replay.success && TERMINAL_JOB_STATUSES.includes(replay.data.status)) {
        return { httpStatus: response.status, job: replay.data, retryAfterSeconds };
      }
      throw await apiErrorFromResponse(
        new Response(text, { status: response.status, headers: response.headers }),
        this.credentialKind,
      );
    });
  }

  /**
   * The URL the service returned, exactly as returned, when it is on this profile's origin; a legacy
   * answer without one gets the documented path built by `legacy`. A URL on another origin is
   * refused (the key never leaves its origin), except for the embedded simulator profile, whose
   * port changes at each start: its loopback URLs are moved onto the running simulator's origin.
   */
  private returnedUrl(returned: string | null | undefined, legacy: () => string): string {
    if (!returned) return legacy();
    if (this.isOwnOrigin(returned)) return returned;
    let url: URL;
    try {
      url = new URL(returned);
    } catch {
      throw new ResponseShapeError(
        'Read result',
        `the service returned a URL that is not absolute: ${returned}`,
      );
    }
    if (this.identity.kind === 'simulator' && isLoopback(url.hostname)) {
      return new URL(url.pathname + url.search, this.origin).toString();
    }
    throw new ForeignOriginError(returned, this.origin, 'returned');
  }

  /** Reads one job at its `jobUrl` as returned (legacy answers: `/jobs/{jobId}?model=`), with its Retry-After. */
  async getJob(ref: { jobId: string; model: string; jobUrl?: string | null }): Promise<PolledJob> {
    const url = this.returnedUrl(ref.jobUrl, () =>
      this.url(`/jobs/${encodeURIComponent(ref.jobId)}`, { model: ref.model }),
    );
    const { body, response } = await this.call(
      'Poll job',
      url,
      { method: 'GET', timeoutMs: 30_000 },
      MediaJobAnswer,
    );
    return { job: body, retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after')) };
  }

  /**
   * The content URL of one result: `contentUrl` as returned, or for legacy answers the documented
   * path. A `contentUrl` on another origin (a storage or CDN host of the platform: the spec does not
   * tie it to the base URL) never receives the key: the result is read at the spec's own content
   * endpoint `/assets/{assetId}/content?model=` on the profile's origin instead (the `assetId` is
   * "the result id for the content endpoint").
   */
  contentUrl(ref: { assetId: string; model: string; contentUrl?: string | null }): string {
    const documented = () =>
      this.url(`/assets/${encodeURIComponent(ref.assetId)}/content`, { model: ref.model });
    try {
      return this.returnedUrl(ref.contentUrl, documented);
    } catch (error) {
      if (error instanceof ForeignOriginError && ref.assetId) return documented();
      throw error;
    }
  }

  /** Opens a result's bytes as a stream (the caller verifies and stores them). */
  async openContent(
    ref: { assetId: string; model: string; contentUrl?: string | null },
    method: 'GET' | 'HEAD' = 'GET',
  ): Promise<Response> {
    const response = await this.send(
      this.contentUrl(ref),
      { method, timeoutMs: CONTENT_DOWNLOAD_TIMEOUT_MS, allowForeignRedirect: true },
      'Download result',
    );
    if (!response.ok) throw await this.redact(await apiErrorFromResponse(response, this.credentialKind));
    return response;
  }

  /**
   * A result's bytes as a Node stream, read with node:http(s) (the fastest path for large files).
   * Redirects on this origin keep the key; a redirect to another origin is followed without it.
   */
  async openContentStream(ref: {
    assetId: string;
    model: string;
    contentUrl?: string | null;
  }): Promise<ContentStream> {
    return this.scrubbed(async () => {
      let target = this.contentUrl(ref);
      let withKey = true;
      for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
        const headers: Record<string, string> = withKey
          ? { authorization: `Bearer ${await this.identity.secret()}` }
          : {};
        const res = await this.nodeRequest('GET', target, headers, undefined, 'Download result');
        const location = res.headers.location;
        if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400 && location) {
          res.resume();
          target = new URL(location, target).toString();
          if (!this.isOwnOrigin(target)) withKey = false;
          continue;
        }
        if (!res.statusCode || res.statusCode >= 400) {
          throw await apiErrorFromResponse(toWebResponse(res), this.credentialKind);
        }
        const header = (name: string) => {
          const value = res.headers[name];
          return typeof value === 'string' ? value : undefined;
        };
        return {
          status: res.statusCode,
          contentType: header('content-type'),
          contentLength: header('content-length'),
          body: res,
        };
      }
      throw new ResponseShapeError('Download result', `more than ${MAX_REDIRECTS} redirects`);
    });
  }

  /** One request with node:http(s): back-pressure on both sides, no body buffering. */
  private nodeRequest(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: StreamedBody | undefined,
    operation: string,
  ): Promise<IncomingMessage> {
    const target = new URL(url);
    const request = (target.protocol === 'https:' ? https : http).request;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = request(target, { method, headers }, resolve);
      req.setTimeout(CONTENT_DOWNLOAD_TIMEOUT_MS, () => req.destroy(new Error('timed out')));
      req.on('error', (error) =>
        reject(
          new OutcomeUnknownError(operation, describeNetworkError(error), {
            notSent: failedBeforeSending(error),
          }),
        ),
      );
      if (body) {
        body.writeTo(req).catch((error: unknown) => {
          req.destroy();
          reject(new OutcomeUnknownError(operation, describeNetworkError(error)));
        });
      } else req.end();
    });
  }

  /** Streams one file from disk as multipart (never the whole file in memory); one file per request. */
  async uploadAsset(input: UploadInput): Promise<UploadResponse> {
    const url = this.url('/assets/input', { model: input.model });
    return this.scrubbed(async () => {
      const multipart = await multipartFileBody(
        input.field,
        input.filePath,
        input.fileName,
        input.mimeType,
        input.onProgress,
      );
      const headers: Record<string, string> = { ...multipart.headers };
      if (input.clientRequestId) headers['x-client-request-id'] = input.clientRequestId;
      const response = await this.postStream(url, headers, multipart, 'Upload asset');
      if (!response.ok) throw await apiErrorFromResponse(response, this.credentialKind);
      return this.json(response, UploadResponse, 'Upload asset');
    });
  }

  /**
   * POSTs a streamed body with node:http(s) and back-pressure (fetch buffers large streamed bodies):
   * memory stays flat and throughput matches curl. Same origin rule as `send`; a redirect is
   * refused, because a streamed body cannot be replayed safely.
   */
  private async postStream(
    url: string,
    headers: Record<string, string>,
    body: StreamedBody,
    operation: string,
  ): Promise<Response> {
    if (!this.isOwnOrigin(url)) throw new ForeignOriginError(url, this.origin);
    const authorization = `Bearer ${await this.identity.secret()}`;
    const res = await this.nodeRequest('POST', url, { ...headers, authorization }, body, operation);
    if (res.statusCode && res.statusCode >= 300 && res.statusCode < 400) {
      res.resume();
      throw new ResponseShapeError(
        operation,
        `the service redirected an upload (HTTP ${res.statusCode}); uploads are not redirected.`,
      );
    }
    return toWebResponse(res);
  }

  /** Prompt optimization: `Idempotency-Key` equals `clientRequestId`; timeout from the live `clientTimeoutSeconds`. */
  async optimizePrompt(
    request: PromptOptimizationRequest,
    timeoutSeconds: number,
  ): Promise<PromptOptimizationResponse> {
    return (
      await this.call(
        'Optimize prompt',
        this.url('/media/prompt-optimizations'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': request.clientRequestId },
          body: JSON.stringify(request),
          timeoutMs: timeoutSeconds * 1000,
        },
        PromptOptimizationResponse,
      )
    ).body;
  }

  async admissionPreview(
    model: string,
    request: Record<string, unknown> | null,
  ): Promise<AdmissionPreviewResponse> {
    return (
      await this.call(
        'Admission preview',
        this.url('/admission/preview'),
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model, request }),
        },
        AdmissionPreviewResponse,
      )
    ).body;
  }

  // ------------------------------------------------------------------ synchronous services
  // One request each, answered as it came: the caller reads the answer with its schema and sends
  // again on 429/503 with its retry helper (a synchronous call is not replayed otherwise).

  /** `POST /chat/completions`; `accept` asks for server-sent events (the body's `stream` decides). */
  chatCompletions(body: Record<string, unknown>, init: SyncCallInit = {}): Promise<Response> {
    return this.send(
      this.url('/chat/completions'),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify(body),
        ...init,
      },
      'Chat',
    );
  }

  /** `POST /embeddings`. */
  embeddings(body: object, init: SyncCallInit = {}): Promise<Response> {
    return this.postJson('/embeddings', body, 'Embeddings', init);
  }

  /** `POST /rerank`. */
  rerank(body: object, init: SyncCallInit = {}): Promise<Response> {
    return this.postJson('/rerank', body, 'Rerank', init);
  }

  /** `POST /ocr`. */
  ocr(body: object, init: SyncCallInit = {}): Promise<Response> {
    return this.postJson('/ocr', body, 'OCR', init);
  }

  /** `POST /documents/parse`. */
  parseDocument(body: object, init: SyncCallInit = {}): Promise<Response> {
    return this.postJson('/documents/parse', body, 'Document parse', init);
  }

  /** `POST /audio/transcriptions` as multipart (no Content-Type: fetch writes the boundary). */
  transcribe(form: FormData, init: SyncCallInit = {}): Promise<Response> {
    return this.send(
      this.url('/audio/transcriptions'),
      { method: 'POST', body: form, ...init },
      'Transcription',
    );
  }

  /** `GET /audio/voices`. */
  listVoices(): Promise<Response> {
    return this.send(this.url('/audio/voices'), { method: 'GET' }, 'List voices');
  }

  /** `GET /audio/voices/{voiceId}`. */
  getVoice(voiceId: string): Promise<Response> {
    return this.send(this.url(`/audio/voices/${encodeURIComponent(voiceId)}`), { method: 'GET' }, 'Voice');
  }

  private postJson(path: string, body: object, operation: string, init: SyncCallInit): Promise<Response> {
    return this.send(
      this.url(path),
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
        ...init,
      },
      operation,
    );
  }
}

/** What a synchronous call's caller may set: its cancel signal and its time limit. */
export interface SyncCallInit {
  signal?: AbortSignal;
  timeoutMs?: number;
}
