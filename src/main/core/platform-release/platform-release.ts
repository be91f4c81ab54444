import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import { AppError } from '../errors.js';
import { ApiError, OutcomeUnknownError } from '../api-clients/api-errors.js';
import type {
  DeveloperClient,
  DeveloperVersion,
  ImageImportSession,
  RoleDefinition,
  ValidationIssue,
  VersionRequest,
} from '../api-clients/developer/developer-client.js';
import {
  BACKEND_COMPONENT,
  FRAMEWRIGHT_APP,
  FRAMEWRIGHT_ROLES,
  canonicalJson,
  framewrightSubmission,
  imageImportKeyOf,
  versionKeyOf,
  type SubmissionOptions,
} from './framewright-submission.js';
import { PartPlanError, planParts, type PlannedPart } from './part-plan.js';
import { checkRoleUpdate, declaredRolesUpdate } from './role-rules.js';
import { checkImageArchive } from './image-archive.js';

/** What the journal keeps of image imports (`journal.platformImageImports`, migration 015). */
export interface ImageImportRecords {
  open(session: {
    idempotencyKey: string;
    appId: string;
    versionId: string;
    imageImportId: string;
    fileSha256: string;
    sizeBytes: number;
    partSizeBytes: number;
    partCount: number;
    status: string;
  }): { imageImportId: string };
  get(idempotencyKey: string): { imageImportId: string; versionId: string } | undefined;
  setStatus(
    idempotencyKey: string,
    status: string,
    result?: { imageAssetId?: string; digest?: string },
  ): void;
  recordPart(idempotencyKey: string, part: { partNumber: number; etag: string; sizeBytes: number }): void;
  parts(idempotencyKey: string): { partNumber: number; etag: string; sizeBytes: number }[];
}

/** What a release reports while it runs (the CLI's progress line, plain lines elsewhere). */
export type ReleaseEvent =
  | { type: 'step'; text: string }
  | { type: 'warning'; issue: ValidationIssue }
  | { type: 'upload'; sentBytes: number; totalBytes: number; partNumber: number; partCount: number }
  | { type: 'part'; partNumber: number; action: 'sent' | 'adopted' | 'already_recorded' };

export interface PlatformReleaseDependencies {
  client: Pick<
    DeveloperClient,
    | 'listApps'
    | 'getRoles'
    | 'putRoles'
    | 'validateSubmission'
    | 'createVersion'
    | 'listVersions'
    | 'getVersion'
    | 'submitVersion'
    | 'listRequests'
    | 'createRequest'
    | 'createImageImport'
    | 'getImageImport'
    | 'completeImageImport'
    | 'uploadPart'
  >;
  imports: ImageImportRecords;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  /** Test-only: called once a part's ETag is in the journal (the crash tests kill the process here). */
  afterPartRecorded?: (partNumber: number) => void;
}

export interface ReleaseOptions extends SubmissionOptions {
  /** The application's id; by default the application whose key is Framewright's. */
  appId?: string;
  /** The backend's container image archive (docker-archive or oci-archive). */
  imagePath: string;
  /** How long to follow the publish request before answering `pending` (ms). */
  timeoutMs: number;
  reason?: string;
  onEvent?: (event: ReleaseEvent) => void;
}

export type ReleaseDecision = 'applied' | 'approved' | 'rejected' | 'canceled' | 'pending';

export interface ReleaseResult {
  appId: string;
  appKey: string;
  versionId: string;
  displayVersion: string;
  /** The declared roles this run put on the platform (empty when it already held them). */
  rolesChanged: string[];
  /** True when an earlier run had created this version (same key and body). */
  versionReused: boolean;
  versionStatus: string;
  sourceSha256: string;
  image: {
    imageImportId: string | null;
    imageAssetId: string;
    digest: string;
    partsSent: number[];
    partsAdopted: number[];
    partsAlreadyRecorded: number[];
  };
  request: { requestId: string; status: string } | null;
  decision: ReleaseDecision;
  warnings: ValidationIssue[];
}

/** The platform found problems in the submission: every one, with its field. Nothing was created. */
export class SubmissionInvalidError extends AppError {
  constructor(readonly problems: ValidationIssue[]) {
    super(
      'release.submission_invalid',
      `The platform refused the submission (${problems.length} problem${problems.length === 1 ? '' : 's'}); nothing was created.`,
      { problems },
    );
    this.name = 'SubmissionInvalidError';
  }
}

const MAX_UPLOAD_ROUNDS = 6;
const POLL_START_MS = 1_000;
const POLL_MAX_MS = 10_000;
const IN_FLIGHT = new Set(['pending', 'approved']);

/**
 * Releasing Framewright to the platform (`application-platform-api.md`, section E): validate the
 * submission, create the version idempotently with its source file, import the backend's image in
 * parts (resumable: the journal records each part's ETag), submit, request publishing and follow
 * the request until the platform decides. Also the application's versions and their requests, and
 * its role definitions.
 */
export class PlatformReleaseFeature {
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;

  constructor(private readonly deps: PlatformReleaseDependencies) {
    this.sleep = deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = deps.now ?? Date.now;
  }

  /** The application's id: the one given, or the developer's application with Framewright's key. */
  async appIdOf(appId: string | undefined, appKey: string = FRAMEWRIGHT_APP.appKey): Promise<string> {
    if (appId) return appId;
    const apps = await this.idempotent(() => this.deps.client.listApps());
    const app = apps.items.find((a) => a.appKey === appKey);
    if (!app)
      throw new AppError(
        'release.app_not_found',
        `No application with the key ${appKey} belongs to this developer; create it in the developer portal or name it with --app-id.`,
      );
    return app.appId;
  }

  async release(options: ReleaseOptions): Promise<ReleaseResult> {
    const emit = options.onEvent ?? (() => undefined);
    const file = await imageFacts(options.imagePath);
    const appId = await this.appIdOf(options.appId, options.appKey);
    const { client } = this.deps;

    // 1. validate: creates nothing; every problem with its field
    emit({ type: 'step', text: 'validating the submission' });
    const submission = framewrightSubmission(options);
    const check = await this.idempotent(() => client.validateSubmission(appId, submission));
    if (!check.valid || !check.normalizedSubmission) throw new SubmissionInvalidError(check.errors);
    for (const issue of check.warnings) emit({ type: 'warning', issue });
    const normalized = check.normalizedSubmission;

    // the application's roles (a fact of the application, not of a version): the declared ones are
    // put on the platform with the rules kept — nothing is sent when it already holds them
    const currentRoles = await this.idempotent(() => client.getRoles(appId));
    const roleUpdate = declaredRolesUpdate(currentRoles, FRAMEWRIGHT_ROLES);
    if (roleUpdate.changed.length > 0) {
      emit({ type: 'step', text: `declaring the roles ${roleUpdate.changed.join(', ')}` });
      await this.idempotent(() => client.putRoles(appId, roleUpdate.roles));
    }
    const sourceFile = canonicalJson(normalized);
    const sourceSha256 = createHash('sha256').update(sourceFile).digest('hex');

    // 2. the version: same key and body reuse it; a changed submission is a new key
    emit({ type: 'step', text: 'creating the version' });
    const idempotencyKey = versionKeyOf(normalized);
    const before = await this.idempotent(() => client.listVersions(appId));
    const version = await this.idempotent(() =>
      client.createVersion(appId, { submission: normalized, idempotencyKey, sourceFile }),
    );
    const versionReused = before.items.some((v) => v.versionId === version.versionId);

    // 3. the image, in parts (a draft only takes one; a submitted version must already hold this file)
    let detail = await this.idempotent(() => client.getVersion(appId, version.versionId));
    const bound = detail.recognized?.images.find((i) => i.component === BACKEND_COMPONENT.name);
    const fileDigest = `sha256:${file.sha256}`;
    let image: ReleaseResult['image'];
    if (bound && bound.digest === fileDigest) {
      image = {
        imageImportId: null,
        imageAssetId: bound.imageAssetId,
        digest: bound.digest,
        partsSent: [],
        partsAdopted: [],
        partsAlreadyRecorded: [],
      };
    } else if (detail.status === 'draft') {
      image = await this.importImage(appId, version, file, emit);
    } else {
      throw new AppError(
        'release.image_mismatch',
        `Version ${version.versionId} (${version.displayVersion}) is ${detail.status} with ${bound ? `another image (${bound.digest})` : 'no image'}; it no longer takes one. Change the submission (e.g. --release-notes or --display-version) to release this image as a new version.`,
      );
    }

    // 4. submit, request publishing, follow the request
    detail = await this.idempotent(() => client.getVersion(appId, version.versionId));
    if (detail.status === 'draft') {
      emit({ type: 'step', text: 'submitting the version' });
      await this.submitOnce(appId, version.versionId);
      detail = await this.idempotent(() => client.getVersion(appId, version.versionId));
    }
    if (detail.status === 'deleted' || detail.status === 'inactive')
      throw new AppError(
        'release.version_unusable',
        `Version ${version.versionId} is ${detail.status}; change the submission to release a new version.`,
      );
    const base = {
      appId,
      rolesChanged: roleUpdate.changed,
      appKey: String(normalized.appKey),
      versionId: version.versionId,
      displayVersion: version.displayVersion,
      versionReused,
      sourceSha256,
      image,
      warnings: check.warnings,
    };
    const requests = await this.idempotent(() => client.listRequests(appId, version.versionId));
    const publishes = requests.filter((r) => r.kind === 'publish');
    if (detail.active || detail.status === 'active') {
      const applied = publishes.filter((r) => r.status === 'applied').at(-1);
      return {
        ...base,
        versionStatus: detail.status,
        request: applied ? { requestId: applied.requestId, status: applied.status } : null,
        decision: 'applied',
      };
    }
    let request = publishes.filter((r) => IN_FLIGHT.has(r.status)).at(-1);
    if (!request) {
      emit({ type: 'step', text: 'requesting publishing' });
      request = await this.requestPublish(appId, version.versionId, options.reason);
    }
    emit({ type: 'step', text: `waiting for the platform's decision on ${request.requestId}` });
    const decided = await this.follow(appId, version.versionId, request, options.timeoutMs, emit);
    const after = await this.idempotent(() => client.getVersion(appId, version.versionId));
    return {
      ...base,
      versionStatus: after.status,
      request: { requestId: decided.requestId, status: decided.status },
      decision: decisionOf(decided.status),
    };
  }

  /** The application's versions, oldest first, each with its requests. */
  async status(appIdOption?: string): Promise<{
    appId: string;
    versions: (DeveloperVersion & { requests: VersionRequest[] })[];
  }> {
    const appId = await this.appIdOf(appIdOption);
    const list = await this.idempotent(() => this.deps.client.listVersions(appId));
    const versions = [];
    for (const v of list.items) {
      const requests = await this.idempotent(() => this.deps.client.listRequests(appId, v.versionId));
      versions.push({ ...v, requests });
    }
    return { appId, versions };
  }

  async roles(
    appIdOption?: string,
  ): Promise<{ appId: string; roles: RoleDefinition[]; declared: RoleDefinition[] }> {
    const appId = await this.appIdOf(appIdOption);
    const roles = await this.idempotent(() => this.deps.client.getRoles(appId));
    return { appId, roles, declared: FRAMEWRIGHT_ROLES.map((r) => ({ ...r })) };
  }

  /**
   * Replaces the role definitions with `next` (the complete array), after checking the rules
   * locally: no `roleCode` of the platform's disappears (retire it with `status: "retired"`), and a
   * changed role has a higher `definitionVersion`. Nothing is sent when a rule is broken.
   */
  async setRoles(
    appIdOption: string | undefined,
    next: unknown,
  ): Promise<{ appId: string; roles: RoleDefinition[]; changed: string[] }> {
    const appId = await this.appIdOf(appIdOption);
    const current = await this.idempotent(() => this.deps.client.getRoles(appId));
    const check = checkRoleUpdate(current, next);
    if (check.problems.length > 0)
      throw new AppError(
        'release.roles_invalid',
        `The role definitions were not changed:\n${check.problems.map((p) => `  ${p.field}: ${p.message}`).join('\n')}`,
        { problems: check.problems },
      );
    if (check.changed.length === 0) return { appId, roles: current, changed: [] };
    // a replay of the same complete array is harmless (the same definitions)
    const roles = await this.idempotent(() => this.deps.client.putRoles(appId, check.roles));
    return { appId, roles, changed: check.changed };
  }

  // ---------- the image ----------

  private async importImage(
    appId: string,
    version: DeveloperVersion,
    file: ImageFacts,
    emit: (event: ReleaseEvent) => void,
  ): Promise<ReleaseResult['image']> {
    const { client, imports } = this.deps;
    const key = imageImportKeyOf(version.versionId, file.sha256);
    const known = imports.get(key);
    let session: ImageImportSession;
    if (known) {
      // a later run: read the session again (fresh part URLs), never a new key
      emit({ type: 'step', text: 'resuming the image import' });
      session = await this.idempotent(() =>
        client.getImageImport(appId, known.versionId, known.imageImportId),
      );
    } else {
      emit({ type: 'step', text: 'opening the image import' });
      // the same key and body answer the same session: safe to replay after a lost answer
      session = await this.idempotent(() =>
        client.createImageImport(appId, version.versionId, {
          fileName: file.fileName,
          sizeBytes: file.sizeBytes,
          sha256: file.sha256,
          archiveType: file.archiveType,
          component: BACKEND_COMPONENT.name,
          displayVersion: version.displayVersion,
          idempotencyKey: key,
        }),
      );
      imports.open({
        idempotencyKey: key,
        appId,
        versionId: version.versionId,
        imageImportId: session.imageImportId,
        fileSha256: file.sha256,
        sizeBytes: file.sizeBytes,
        partSizeBytes: session.partSizeBytes,
        partCount: session.partCount,
        status: session.status,
      });
    }
    const reread = () =>
      this.idempotent(() => client.getImageImport(appId, version.versionId, session.imageImportId));
    const sent: number[] = [];
    const adopted: number[] = [];
    const already: number[] = [];
    for (let round = 1; session.status === 'pending' || session.status === 'uploading'; round += 1) {
      if (round > MAX_UPLOAD_ROUNDS)
        throw new AppError(
          'release.upload_gave_up',
          `The image parts could not be delivered after ${MAX_UPLOAD_ROUNDS} attempts; run the release again to resume (recorded parts are not sent again).`,
        );
      let plan: PlannedPart[];
      try {
        plan = planParts(file.sizeBytes, session, imports.parts(key));
      } catch (error) {
        if (error instanceof PartPlanError) throw new AppError('release.image_mismatch', error.message);
        throw error;
      }
      let interrupted = false;
      let sentBytes = plan.filter((p) => p.action !== 'send').reduce((n, p) => n + p.sizeBytes, 0);
      for (const part of plan) {
        if (part.action === 'done') {
          if (!already.includes(part.partNumber) && !sent.includes(part.partNumber))
            already.push(part.partNumber);
          continue;
        }
        if (part.action === 'adopt') {
          imports.recordPart(key, {
            partNumber: part.partNumber,
            etag: part.etag,
            sizeBytes: part.sizeBytes,
          });
          if (!adopted.includes(part.partNumber)) adopted.push(part.partNumber);
          emit({ type: 'part', partNumber: part.partNumber, action: 'adopted' });
          this.deps.afterPartRecorded?.(part.partNumber);
          continue;
        }
        const bytes = await readRange(file.path, part.offset, part.sizeBytes);
        emit({
          type: 'upload',
          sentBytes,
          totalBytes: file.sizeBytes,
          partNumber: part.partNumber,
          partCount: plan.length,
        });
        let etag: string;
        try {
          etag = await client.uploadPart(part, bytes);
        } catch (error) {
          // a dropped connection, a part cut short, an expired URL: read the session again
          if (partRetryable(error)) {
            interrupted = true;
            break;
          }
          throw error;
        }
        imports.recordPart(key, { partNumber: part.partNumber, etag, sizeBytes: part.sizeBytes });
        sent.push(part.partNumber);
        sentBytes += part.sizeBytes;
        emit({ type: 'part', partNumber: part.partNumber, action: 'sent' });
        emit({
          type: 'upload',
          sentBytes,
          totalBytes: file.sizeBytes,
          partNumber: part.partNumber,
          partCount: plan.length,
        });
        this.deps.afterPartRecorded?.(part.partNumber);
      }
      if (interrupted) {
        await this.sleep(Math.min(1000 * round, 5000));
        session = await reread();
        continue;
      }
      emit({ type: 'step', text: 'completing the image import' });
      const parts = imports.parts(key);
      try {
        session = await this.idempotent(() =>
          client.completeImageImport(appId, version.versionId, session.imageImportId, parts),
        );
      } catch (error) {
        // the platform lost a part the journal has: read the session, send what it lacks
        if (error instanceof ApiError && error.apiCode === 'IMAGE_IMPORT_PARTS_MISMATCH') {
          session = await reread();
          continue;
        }
        throw error;
      }
    }
    for (let waited = 0; session.status === 'importing'; waited += 1) {
      if (waited > 60) break;
      await this.sleep(1000);
      session = await reread();
    }
    imports.setStatus(key, session.status, {
      ...(session.imageAssetId ? { imageAssetId: session.imageAssetId } : {}),
      ...(session.digest ? { digest: session.digest } : {}),
    });
    if (session.status !== 'completed' || !session.imageAssetId)
      throw new AppError(
        'release.image_import_failed',
        `The platform did not import the image: ${session.status}${session.errorCode ? ` (${session.errorCode}: ${session.errorMessage ?? ''})` : ''}.`,
      );
    if (session.digest && session.digest !== `sha256:${file.sha256}`)
      throw new AppError(
        'release.image_import_failed',
        `The imported image's digest ${session.digest} is not the archive's (sha256:${file.sha256}).`,
      );
    return {
      imageImportId: session.imageImportId,
      imageAssetId: session.imageAssetId,
      digest: session.digest ?? `sha256:${file.sha256}`,
      partsSent: sent,
      partsAdopted: adopted,
      partsAlreadyRecorded: already,
    };
  }

  // ---------- submit, request, follow ----------

  /** Submit is not idempotent (drafts only): a lost answer is settled by reading the version. */
  private async submitOnce(appId: string, versionId: string): Promise<void> {
    try {
      await this.deps.client.submitVersion(appId, versionId);
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError) && !(error instanceof ApiError && error.status === 409))
        throw error;
      const v = await this.idempotent(() => this.deps.client.getVersion(appId, versionId));
      if (v.status === 'draft') throw error;
    }
  }

  /** One publish request: after a lost answer or a 409, the request in flight is read, never a second one. */
  private async requestPublish(appId: string, versionId: string, reason?: string): Promise<VersionRequest> {
    try {
      return await this.deps.client.createRequest(appId, versionId, {
        kind: 'publish',
        ...(reason ? { reason } : {}),
      });
    } catch (error) {
      if (!(error instanceof OutcomeUnknownError) && !(error instanceof ApiError && error.status === 409))
        throw error;
      const inFlight = (await this.idempotent(() => this.deps.client.listRequests(appId, versionId)))
        .filter((r) => r.kind === 'publish' && IN_FLIGHT.has(r.status))
        .at(-1);
      if (!inFlight) throw error;
      return inFlight;
    }
  }

  /** Polls the request (back-off 1 s → 10 s) until it is decided or `timeoutMs` passed. */
  private async follow(
    appId: string,
    versionId: string,
    request: VersionRequest,
    timeoutMs: number,
    emit: (event: ReleaseEvent) => void,
  ): Promise<VersionRequest> {
    const deadline = this.now() + timeoutMs;
    let current = request;
    let delay = POLL_START_MS;
    let reported = '';
    for (;;) {
      if (current.status !== reported) {
        reported = current.status;
        emit({ type: 'step', text: `publish request ${current.requestId}: ${current.status}` });
      }
      // approved is a decision; the platform applies it later (spec: controlled apply) — wait for it within the limit
      if (current.status === 'applied' || current.status === 'rejected' || current.status === 'canceled')
        return current;
      const left = deadline - this.now();
      if (left <= 0) return current;
      await this.sleep(Math.min(delay, left));
      delay = Math.min(delay * 2, POLL_MAX_MS);
      const list = await this.idempotent(() => this.deps.client.listRequests(appId, versionId));
      current = list.find((r) => r.requestId === request.requestId) ?? current;
    }
  }

  /**
   * A call safe to send again (a read, or a write under its idempotency key): 429/503 and lost
   * answers are retried with the same key and body, honouring `Retry-After`, at most 4 times.
   */
  private async idempotent<T>(call: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await call();
      } catch (error) {
        const again =
          error instanceof OutcomeUnknownError ||
          (error instanceof ApiError &&
            (error.status === 429 || error.status === 503 || error.status === 504));
        if (!again || attempt >= 4) throw error;
        const hinted = error instanceof ApiError ? error.retryAfterSeconds : undefined;
        await this.sleep(Math.min(hinted !== undefined ? hinted * 1000 : 500 * 2 ** attempt, 30_000));
      }
    }
  }
}

function decisionOf(status: string): ReleaseDecision {
  if (status === 'applied' || status === 'approved' || status === 'rejected' || status === 'canceled')
    return status;
  return 'pending';
}

function partRetryable(error: unknown): boolean {
  if (error instanceof OutcomeUnknownError) return true;
  if (!(error instanceof ApiError)) return false;
  return (
    error.apiCode === 'UPLOAD_INTERRUPTED' ||
    error.apiCode === 'UPLOAD_URL_EXPIRED' ||
    error.status === 429 ||
    error.status >= 500
  );
}

interface ImageFacts {
  path: string;
  fileName: string;
  sizeBytes: number;
  sha256: string;
  archiveType: 'docker-archive' | 'oci-archive';
}

/**
 * The archive's name, size, real sha256 and kind (an `.oci` name is an oci-archive, else
 * docker-archive), checked to be an image archive of that kind before anything is sent.
 */
async function imageFacts(filePath: string): Promise<ImageFacts> {
  let size: number;
  try {
    const s = await stat(filePath);
    if (!s.isFile()) throw new Error('not a file');
    size = s.size;
  } catch {
    throw new AppError('release.image_unreadable', `--image ${filePath}: no such readable file.`);
  }
  if (size === 0) throw new AppError('release.image_unreadable', `--image ${filePath}: the file is empty.`);
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(filePath)) hash.update(chunk as Buffer);
  const fileName = path.basename(filePath);
  const archiveType = /\.oci(\.tar(\.gz)?)?$/i.test(fileName) ? 'oci-archive' : 'docker-archive';
  await checkImageArchive(filePath, archiveType);
  return { path: filePath, fileName, sizeBytes: size, sha256: hash.digest('hex'), archiveType };
}

async function readRange(filePath: string, offset: number, length: number): Promise<Uint8Array> {
  const handle = await open(filePath, 'r');
  try {
    const buffer = Buffer.alloc(length);
    let read = 0;
    while (read < length) {
      const { bytesRead } = await handle.read(buffer, read, length - read, offset + read);
      if (bytesRead === 0)
        throw new AppError('release.image_unreadable', 'The image file changed while it was read.');
      read += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}
