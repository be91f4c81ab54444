import { createHash, randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { Output } from '../journal/outputs-repository.js';
import { ApiError, ForeignOriginError } from '../platform/api-errors.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import { retryWaitMs } from '../platform/retry-after.js';
import { DEFAULT_RETRY_BACKOFF, backoffDelay, sleepUnlessStopped } from './backoff.js';
import { engineStoppedError } from './engine-stopped.js';
import { INCOMING_DIR, SIDECAR_NAME, jobFolder, outputFileName } from './library-layout.js';

export class VerificationError extends AppError {
  constructor(message: string) {
    super('download.verification_failed', message);
    this.name = 'VerificationError';
  }
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
}

const baseMime = (value: string | null | undefined) =>
  value?.split(';')[0]?.trim().toLowerCase() || undefined;

async function fsyncFile(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Streams one result to a temporary file while hashing it, then checks type, length and checksum. */
async function readVerified(
  client: PublicApiClient,
  job: JobWithOutputs,
  output: Output,
  tempFile: string,
  options: DownloadOptions,
): Promise<{ sha256: string; byteSize: number; mimeType: string }> {
  const response = await client.openContentStream({
    assetId: output.assetId,
    model: job.model,
    contentUrl: output.contentUrl,
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
  const totalBytes = declaredLength !== null ? Number(declaredLength) : output.expectedByteSize;
  const hash = createHash('sha256');
  let received = 0;
  const file = createWriteStream(tempFile, { mode: 0o644 });
  // The test seam fires once bytes are on disk in the temporary file (the write stream counts
  // them when a write completes), at the latest when the whole body is written, always before
  // verification.
  let partialSignalled = false;
  const signalPartialWrite = () => {
    if (partialSignalled || !options.afterPartialWrite || file.bytesWritten === 0) return;
    partialSignalled = true;
    options.afterPartialWrite();
  };
  const meter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      signalPartialWrite();
      hash.update(chunk);
      received += chunk.length;
      options.onProgress?.({ jobRowId: job.id, outputId: output.id, receivedBytes: received, totalBytes });
      callback(null, chunk);
    },
  });
  await pipeline(response.body, meter, file, options.signal ? { signal: options.signal } : {});
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
        verifiedAt: o.verifiedAt ? new Date(o.verifiedAt).toISOString() : undefined,
      })),
  };
  const temp = path.join(folder, `.${SIDECAR_NAME}.${randomUUID()}.tmp`);
  await writeFile(temp, JSON.stringify(sidecar, null, 2));
  await rename(temp, path.join(folder, SIDECAR_NAME));
}

/**
 * Downloads every unverified output of a job into the library: streamed to a temporary file while
 * hashing, checked against Content-Type, length and sha256, then atomically renamed into
 * `<library>/<date>/<jobId>/`. A broken or mismatching read is re-read (the same read, never a new
 * generation); nothing unverified is kept.
 */
export async function downloadOutputs(
  journal: Journal,
  client: PublicApiClient,
  job: JobWithOutputs,
  libraryDir: string,
  options: DownloadOptions = {},
): Promise<JobWithOutputs> {
  const maxReads = options.maxReads ?? 4;
  const incoming = path.join(libraryDir, INCOMING_DIR);
  await mkdir(incoming, { recursive: true });
  const folder = jobFolder(libraryDir, job.jobId, job.acceptedAt);
  for (const output of job.outputs) {
    if (output.downloadState === 'verified' || output.downloadState === 'failed') continue;
    let lastError: unknown;
    for (let read = 0; read < maxReads; read += 1) {
      if (output.tempPath) await rm(output.tempPath, { force: true });
      const tempFile = path.join(incoming, `${randomUUID()}.part`);
      journal.outputs.markDownloading(output.id, tempFile);
      try {
        const verified = await readVerified(client, job, output, tempFile, options);
        await fsyncFile(tempFile);
        await mkdir(folder, { recursive: true });
        const finalPath = path.join(
          folder,
          outputFileName(output.position, output.assetId, verified.mimeType),
        );
        await rename(tempFile, finalPath);
        journal.outputs.markVerified(output.id, { localPath: finalPath, ...verified });
        lastError = undefined;
        break;
      } catch (error) {
        lastError = error;
        await rm(tempFile, { force: true });
        const message = error instanceof Error ? error.message : String(error);
        // Identity and not-found answers, and a content URL on another origin, will not change by
        // re-reading.
        if (
          error instanceof ForeignOriginError ||
          (error instanceof ApiError &&
            !['rate_limited', 'unavailable', 'gateway_timeout'].includes(error.kind))
        ) {
          journal.outputs.markFailed(output.id, message);
          throw error;
        }
        journal.outputs.markForRetry(output.id, message);
        if (options.signal?.aborted) throw engineStoppedError();
        if (read + 1 < maxReads) {
          // the same read again, after what the server asked (a longer ask stops here; the output
          // stays pending for the next resume)
          const wait = retryWaitMs({
            serverSeconds: error instanceof ApiError ? error.retryAfterSeconds : undefined,
            ownDelayMs: options.retryDelayMs ?? backoffDelay(DEFAULT_RETRY_BACKOFF, read),
            operation: `Download result ${output.assetId}`,
          });
          if (!(await sleepUnlessStopped(wait, options.signal, client.clock))) throw engineStoppedError();
        }
      }
    }
    if (lastError) {
      const message = lastError instanceof Error ? lastError.message : String(lastError);
      // Bytes that keep failing verification are refused for good; a network failure stays
      // pending so that the next resume reads it again.
      if (lastError instanceof VerificationError) journal.outputs.markFailed(output.id, message);
      throw lastError instanceof AppError
        ? lastError
        : new AppError('download.failed', `Downloading result ${output.assetId} failed: ${message}`);
    }
  }
  const done = journal.jobs.getJob(job.id)!;
  if (done.outputs.some((o) => o.downloadState === 'verified')) await writeSidecar(journal, done, folder);
  return done;
}
