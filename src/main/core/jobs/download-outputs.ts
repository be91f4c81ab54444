import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { Output } from '../journal/outputs-repository.js';
import { ApiError, ForeignOriginError } from '../api-clients/api-errors.js';
import { throttleProgress } from '../api-clients/progress-throttle.js';
import { RetryAfterTooLongError } from '../api-clients/retry/retry-after.js';
import { RETRY_POLICIES, classify, rereadVerdict, withRetry } from '../api-clients/retry/retry.js';
import { engineStoppedError } from './engine-stopped.js';
import { verificationOf } from './verification.js';
import type { MediaJobTransport } from './media-job-transport.js';
import { INCOMING_DIR, SIDECAR_NAME, jobFolder, outputFileName } from './library-layout.js';
import { SINK_HIGH_WATER_MARK, TempFileSink } from './temp-file-sink.js';

export class VerificationError extends AppError {
  constructor(message: string) {
    super('download.verification_failed', message);
    this.name = 'VerificationError';
  }
}

/** A result larger than Framewright ever stores for its kind: refused for good, not read again. */
export class ResultTooLargeError extends AppError {
  constructor(message: string) {
    super('download.too_large', message);
    this.name = 'ResultTooLargeError';
  }
}

/**
 * The most bytes one result may have, by kind, whatever the server announces: a download stops as
 * soon as it receives more than the smallest of the announced `byteSize`, the `Content-Length` and
 * this cap (so a result with nothing announced is still bounded).
 */
export const MAX_RESULT_BYTES = {
  video: 4 * 1024 ** 3,
  audio: 1024 ** 3,
  image: 256 * 1024 ** 2,
  other: 256 * 1024 ** 2,
} as const;
export type ResultKind = keyof typeof MAX_RESULT_BYTES;

/**
 * Reads of one result across every run (each resume included) after which it is given up and
 * shown as failed with its last error: a full disk or a server that never delivers does not make
 * every start read it again forever.
 */
export const MAX_LIFETIME_READS = 12;

/** The kind whose cap applies: the announced kind or MIME type, else the job's service kind. */
export function resultKindOf(
  output: Pick<Output, 'kind' | 'expectedMimeType'>,
  serviceKind: string,
): ResultKind {
  const named = (output.kind ?? output.expectedMimeType?.split('/')[0] ?? '').toLowerCase();
  if (named === 'video' || named === 'audio' || named === 'image') return named;
  if (serviceKind === 'video_generation') return 'video';
  if (serviceKind === 'audio_generation') return 'audio';
  if (serviceKind === 'image_generation') return 'image';
  return 'other';
}

function isDiskFull(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOSPC';
}

export interface DownloadProgress {
  jobRowId: number;
  outputId: number;
  receivedBytes: number;
  totalBytes: number | undefined;
}

export interface DownloadOptions {
  /** How many times one result is re-read after a broken or mismatching download. */
  maxReads?: number;
  onProgress?: (progress: DownloadProgress) => void;
  /** Wait between re-reads (default: the retry back-off). */
  retryDelayMs?: number;
  /** Test seam: called after bytes were written to the temporary file, before verification. */
  afterPartialWrite?: () => void;
  /** The engine is stopping: the read is dropped and the output stays pending for resume. */
  signal?: AbortSignal;
  /** Caps by kind (default {@link MAX_RESULT_BYTES}; tests use small ones). */
  maxResultBytes?: Partial<Record<ResultKind, number>>;
  /** Reads across runs before a result is given up (default {@link MAX_LIFETIME_READS}). */
  maxLifetimeReads?: number;
  /** Test seam: where the temporary file's bytes are written (e.g. /dev/full for a full disk). */
  openTempFile?: (tempFile: string) => Writable;
}

const baseMime = (value: string | null | undefined) =>
  value?.split(';')[0]?.trim().toLowerCase() || undefined;

/** Streams one result to a temporary file while hashing it, then checks type, length and checksum. */
async function readVerified(
  transport: MediaJobTransport,
  job: JobWithOutputs,
  output: Output,
  tempFile: string,
  options: DownloadOptions,
): Promise<{ sha256: string; byteSize: number; mimeType: string }> {
  const response = await transport.openContentStream({
    assetId: output.assetId,
    model: job.model,
    contentUrl: output.contentUrl,
    jobId: job.jobId,
  });
  const contentType = baseMime(response.contentType);
  const expectedType = baseMime(output.expectedMimeType);
  if (expectedType && contentType !== expectedType) {
    response.body.destroy();
    throw new VerificationError(
      `Content-Type ${contentType ?? '(none)'} differs from the announced ${expectedType}.`,
    );
  }
  const declaredLength = response.contentLength ?? null;
  const kind = resultKindOf(output, job.serviceKind);
  const cap = options.maxResultBytes?.[kind] ?? MAX_RESULT_BYTES[kind];
  if (declaredLength !== null) {
    const length = Number(declaredLength);
    // refused before reading a byte
    if (output.expectedByteSize !== undefined && length > output.expectedByteSize) {
      response.body.destroy();
      throw new VerificationError(
        `Content-Length ${length} is larger than the ${output.expectedByteSize} bytes the job announced; refused before reading.`,
      );
    }
    if (length > cap) {
      response.body.destroy();
      throw new ResultTooLargeError(
        `The result is ${length} bytes, more than Framewright stores for one ${kind} result (${cap} bytes); refused before reading.`,
      );
    }
  }
  const limit = Math.min(
    cap,
    output.expectedByteSize ?? Infinity,
    declaredLength !== null ? Number(declaredLength) : Infinity,
  );
  const totalBytes = declaredLength !== null ? Number(declaredLength) : output.expectedByteSize;
  const hash = createHash('sha256');
  let received = 0;
  // written in batches and flushed to the disk as it comes, fsynced before the pipeline resolves
  const file = options.openTempFile?.(tempFile) ?? new TempFileSink(tempFile);
  // The test seam fires once bytes are on disk in the temporary file (the write stream counts
  // them when a write completes), at the latest when the whole body is written, always before
  // verification.
  let partialSignalled = false;
  const signalPartialWrite = () => {
    if (
      partialSignalled ||
      !options.afterPartialWrite ||
      (file as { bytesWritten?: number }).bytesWritten === 0
    )
      return;
    partialSignalled = true;
    options.afterPartialWrite();
  };
  // throttled like upload progress: a fast download is not one bridge event per chunk
  const progress = throttleProgress((receivedBytes: number) =>
    options.onProgress?.({ jobRowId: job.id, outputId: output.id, receivedBytes, totalBytes }),
  );
  const meter = new Transform({
    // as much as the sink buffers: the socket keeps being read while a batch goes to the disk
    highWaterMark: SINK_HIGH_WATER_MARK,
    transform(chunk: Buffer, _encoding, callback) {
      signalPartialWrite();
      received += chunk.length;
      if (received > limit) {
        // stop at once: never more than announced (re-read) or than the cap (refused for good)
        callback(
          limit === cap
            ? new ResultTooLargeError(
                `The service sent more than ${cap} bytes, the most Framewright stores for one ${kind} result; the download was stopped.`,
              )
            : new VerificationError(
                `The service sent more than the ${limit} bytes announced; the download was stopped.`,
              ),
        );
        return;
      }
      hash.update(chunk);
      // the final count is reported once, after the last byte
      if (totalBytes === undefined || received < totalBytes) progress.report(received);
      callback(null, chunk);
    },
  });
  await pipeline(response.body, meter, file, options.signal ? { signal: options.signal } : {});
  progress.force(received);
  signalPartialWrite();
  const sha256 = hash.digest('hex');
  if (declaredLength !== null && received !== Number(declaredLength)) {
    throw new VerificationError(`Received ${received} bytes, Content-Length said ${declaredLength}.`);
  }
  if (output.expectedByteSize !== undefined && received !== output.expectedByteSize) {
    throw new VerificationError(`Received ${received} bytes, the job announced ${output.expectedByteSize}.`);
  }
  if (output.expectedSha256 && sha256 !== output.expectedSha256.toLowerCase()) {
    throw new VerificationError(`The sha256 ${sha256} differs from the announced ${output.expectedSha256}.`);
  }
  const mimeType = contentType ?? expectedType ?? 'application/octet-stream';
  return { sha256, byteSize: received, mimeType };
}

/** Writes `<jobFolder>/framewright.json`, so the folder stands on its own offline. */
export async function writeSidecar(journal: Journal, job: JobWithOutputs, folder: string): Promise<void> {
  const intent = journal.jobs.getIntentById(job.intentId);
  const fresh = journal.jobs.getJob(job.id) ?? job;
  const sidecar = {
    framewright: 1,
    jobId: fresh.jobId,
    requestId: fresh.requestId,
    profileId: fresh.profileId,
    model: fresh.model,
    serviceKind: fresh.serviceKind,
    status: fresh.status,
    request: intent ? (JSON.parse(intent.canonicalBodyJson) as unknown) : undefined,
    effectiveMediaSpec: fresh.effectiveSpec,
    timings: {
      acceptedAt: new Date(fresh.acceptedAt).toISOString(),
      startedAt: fresh.startedAt ? new Date(fresh.startedAt).toISOString() : undefined,
      completedAt: fresh.completedAt ? new Date(fresh.completedAt).toISOString() : undefined,
      elapsedSeconds: fresh.elapsedSeconds,
      queuedSeconds: fresh.queuedSeconds,
      runningSeconds: fresh.runningSeconds,
    },
    outputs: fresh.outputs
      .filter((o) => o.downloadState === 'verified')
      .map((o) => ({
        file: path.basename(o.localPath ?? ''),
        assetId: o.assetId,
        sha256: o.sha256,
        byteSize: o.byteSize,
        mimeType: o.mimeType,
        verification: verificationOf(o) === 'verified' ? 'verified' : 'not verifiable',
        verifiedAt: o.verifiedAt ? new Date(o.verifiedAt).toISOString() : undefined,
      })),
    // what the person decided and noted about it, and the collections it is in (issue 41):
    // `library reindex` restores them
    marks: journal.marks.get(fresh.id),
    notes: journal.notes.forJob(fresh.id).map((n) => ({
      id: n.id,
      atSeconds: n.atSeconds,
      text: n.text,
      rect: n.rect,
      createdAt: new Date(n.createdAt).toISOString(),
      updatedAt: new Date(n.updatedAt).toISOString(),
    })),
    collections: journal.collections.ofJob(fresh.id).map((c) => ({
      id: c.collectionId,
      name: c.name,
      position: c.position,
    })),
  };
  const temp = path.join(folder, `.${SIDECAR_NAME}.${randomUUID()}.tmp`);
  await writeFile(temp, JSON.stringify(sidecar, null, 2));
  await rename(temp, path.join(folder, SIDECAR_NAME));
}

/**
 * Removes what is left of a deleted job's folder once its files are gone: the sidecar only when
 * it names this job, then the folder only when nothing else is in it. A folder another job's
 * results share (an older layout could put two jobs in one) keeps that job's files.
 */
export async function removeJobFolder(
  folder: string,
  job: { profileId: string; jobId: string },
): Promise<void> {
  const sidecar = path.join(folder, SIDECAR_NAME);
  try {
    const named = JSON.parse(await readFile(sidecar, 'utf8')) as { profileId?: unknown; jobId?: unknown };
    if (named.profileId === job.profileId && named.jobId === job.jobId) await rm(sidecar, { force: true });
  } catch {
    // no sidecar, or not one of ours: left as it is
  }
  await rmdir(folder).catch(() => undefined);
}

/**
 * Downloads every unverified output of a job into the library: streamed to a temporary file while
 * hashing, checked against Content-Type, length and sha256, then atomically renamed into
 * `<library>/<date>/<profile>/<jobId>/`. A broken or mismatching read is re-read (the same read, never a new
 * generation); nothing unverified is kept.
 */
export async function downloadOutputs(
  journal: Journal,
  transport: MediaJobTransport,
  job: JobWithOutputs,
  libraryDir: string,
  options: DownloadOptions = {},
): Promise<JobWithOutputs> {
  const incoming = path.join(libraryDir, INCOMING_DIR);
  await mkdir(incoming, { recursive: true });
  const folder = jobFolder(libraryDir, job.profileId, job.jobId, job.acceptedAt);
  const maxLifetime = options.maxLifetimeReads ?? MAX_LIFETIME_READS;
  for (const output of job.outputs) {
    if (output.downloadState === 'verified' || output.downloadState === 'failed') continue;
    /** What this run decided never to read again (refused, too large, a full disk, a stop). */
    const notReadAgain = new WeakSet<object>();
    const final = (error: unknown): never => {
      if (error instanceof Object) notReadAgain.add(error);
      throw error;
    };
    const readOnce = async (): Promise<void> => {
      if (output.tempPath) await rm(output.tempPath, { force: true });
      const attemptsSoFar = journal.outputs.get(output.id)?.attemptCount ?? output.attemptCount;
      if (attemptsSoFar >= maxLifetime) {
        const last = journal.outputs.get(output.id)?.lastError ?? 'no answer';
        const message = `Gave up on result ${output.assetId} after ${attemptsSoFar} reads: ${last}`;
        journal.outputs.markFailed(output.id, message);
        final(new AppError('download.gave_up', message));
      }
      const tempFile = path.join(incoming, `${randomUUID()}.part`);
      journal.outputs.markDownloading(output.id, tempFile);
      try {
        // durable once read: the temporary file is fsynced before readVerified returns
        const verified = await readVerified(transport, job, output, tempFile, options);
        await mkdir(folder, { recursive: true });
        const finalPath = path.join(
          folder,
          outputFileName(output.position, output.assetId, verified.mimeType),
        );
        await rename(tempFile, finalPath);
        journal.outputs.markVerified(output.id, { localPath: finalPath, ...verified });
      } catch (caught) {
        await rm(tempFile, { force: true });
        const error = isDiskFull(caught)
          ? new AppError(
              'download.disk_full',
              `The disk is full: result ${output.assetId} could not be written under ${libraryDir}. Free some space; Framewright reads it again at the next start (read ${attemptsSoFar + 1} of at most ${maxLifetime}).`,
            )
          : caught;
        const message = error instanceof Error ? error.message : String(error);
        // Identity and not-found answers, a content URL on another origin and a result larger
        // than the cap will not change by re-reading.
        if (
          error instanceof ForeignOriginError ||
          error instanceof ResultTooLargeError ||
          (error instanceof ApiError && classify(error).kind === 'final')
        ) {
          journal.outputs.markFailed(output.id, message);
          final(error);
        }
        journal.outputs.markForRetry(output.id, message);
        if (options.signal?.aborted) final(engineStoppedError());
        // a full disk stays full for now: stop this run, the output stays pending (bounded reads)
        if (isDiskFull(caught)) final(error);
        throw error;
      }
    };
    try {
      // the same read again, after what the server asked (a longer ask stops here; the output
      // stays pending for the next resume)
      await withRetry('download', readOnce, {
        clock: transport.clock,
        signal: options.signal,
        policy: {
          label: `${RETRY_POLICIES.download.label} ${output.assetId}`,
          ...(options.maxReads !== undefined ? { attempts: options.maxReads } : {}),
          ...(options.retryDelayMs !== undefined
            ? {
                backoff: {
                  initialMs: options.retryDelayMs,
                  maxMs: options.retryDelayMs,
                  factor: 1,
                  jitter: 0,
                },
              }
            : {}),
        },
        // spec, "Errors": a broken or mismatching download is re-read (the same read)
        classify: (error) => (notReadAgain.has(error as object) ? { kind: 'final' } : rereadVerdict(error)),
      });
    } catch (error) {
      if (error instanceof Object && notReadAgain.has(error)) throw error;
      if (error instanceof RetryAfterTooLongError) throw error;
      if (options.signal?.aborted) throw engineStoppedError();
      const message = error instanceof Error ? error.message : String(error);
      // Bytes that keep failing verification are refused for good; a network failure stays
      // pending so that the next resume reads it again (until the lifetime bound).
      if (error instanceof VerificationError) journal.outputs.markFailed(output.id, message);
      throw error instanceof AppError
        ? error
        : new AppError('download.failed', `Downloading result ${output.assetId} failed: ${message}`);
    }
  }
  const done = journal.jobs.getJob(job.id)!;
  if (done.outputs.some((o) => o.downloadState === 'verified')) await writeSidecar(journal, done, folder);
  return done;
}
