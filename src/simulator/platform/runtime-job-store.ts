import { createHash } from 'node:crypto';
import { iso } from '../clock.js';
import type { StoredJob } from '../jobs/job-store.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';
import { hashSecret, PlatformSecrets } from './secrets.js';

/** What the runtime adds to a simulator job: its application, person, business key and recovery reference. */
export interface RuntimeJobRecord {
  platformJobId: string;
  appKey: string;
  appVersionId: string;
  userId: string;
  accountId: string;
  organizationId?: string;
  clientTaskId: string;
  idempotencyKey?: string;
  /** Hash of the canonical creation body (without `idempotencyKey`). */
  bodyHash: string;
  /**
   * sha256 of the job's recovery reference. The reference itself (a secret, answered at creation
   * and at replays of the creation only) is never kept: the store derives it from the job id.
   */
  recoveryRefHash: string;
  resourceAttribution?: { resourceType: string; resourceId: string };
  createdAtMs: number;
}

/** The identity id under which the runtime's jobs and fetched inputs of one person of one application are kept. */
export function runtimeIdentityId(appKey: string, userId: string): string {
  return 'plat_' + createHash('sha256').update(`${appKey}\u0000${userId}`).digest('hex').slice(0, 16);
}

/** Runtime job records by id, by business scope (application, person, clientTaskId, key) and by recovery reference. */
export class RuntimeJobStore {
  private readonly byId = new Map<string, RuntimeJobRecord>();
  private readonly byScope = new Map<string, string>();
  /** By the hash of the recovery reference. */
  private readonly byRecoveryRef = new Map<string, string>();

  constructor(
    private readonly log?: PlatformLog,
    private readonly secrets = new PlatformSecrets(),
  ) {}

  /** The one recovery reference of a job (the same at creation, at every replay and after a restart). */
  recoveryRefOf(platformJobId: string): string {
    return this.secrets.derive('jrr', 'job_recovery', platformJobId);
  }

  /** The record of a new job, its recovery reference's hash filled in. */
  newRecord(fields: Omit<RuntimeJobRecord, 'recoveryRefHash'>): RuntimeJobRecord {
    return { ...fields, recoveryRefHash: hashSecret(this.recoveryRefOf(fields.platformJobId)) };
  }

  static scope(
    appKey: string,
    userId: string,
    clientTaskId: string,
    idempotencyKey: string | undefined,
  ): string {
    return [appKey, userId, clientTaskId, idempotencyKey ?? ''].join('\u0000');
  }

  private index(record: RuntimeJobRecord): void {
    this.byId.set(record.platformJobId, record);
    this.byScope.set(
      RuntimeJobStore.scope(record.appKey, record.userId, record.clientTaskId, record.idempotencyKey),
      record.platformJobId,
    );
    this.byRecoveryRef.set(record.recoveryRefHash, record.platformJobId);
  }

  add(record: RuntimeJobRecord): void {
    this.index(record);
    this.log?.append('runtime_job', record.platformJobId, record);
  }

  get(platformJobId: string): RuntimeJobRecord | undefined {
    return this.byId.get(platformJobId);
  }

  inScope(scope: string): RuntimeJobRecord | undefined {
    const id = this.byScope.get(scope);
    return id ? this.byId.get(id) : undefined;
  }

  byRecovery(recoveryRef: string): RuntimeJobRecord | undefined {
    const id = this.byRecoveryRef.get(hashSecret(recoveryRef));
    return id ? this.byId.get(id) : undefined;
  }

  all(): RuntimeJobRecord[] {
    return [...this.byId.values()];
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records) {
      const job = record.v as RuntimeJobRecord;
      // a record of an older simulator (reference in plaintext, no hash) is not restored
      if (record.t === 'runtime_job' && typeof job.recoveryRefHash === 'string') this.index(job);
    }
  }

  snapshot(): PlatformLogRecord[] {
    return this.all().map((v) => ({ t: 'runtime_job', id: v.platformJobId, v }));
  }
}

/** The RuntimeJob body; `jobRecoveryRef` is given only when answering a creation. */
export function toRuntimeJob(
  record: RuntimeJobRecord,
  job: StoredJob,
  runtimeBaseUrl: string,
  jobRecoveryRef?: string,
): Record<string, unknown> {
  const body: Record<string, unknown> = {
    platformJobId: record.platformJobId,
    clientTaskId: record.clientTaskId,
    status: job.status,
    stage: job.stage,
    model: job.model,
    serviceKind: job.serviceKind,
    createdAt: iso(job.createdAtMs),
    updatedAt: iso(job.completedAtMs ?? job.startedAtMs ?? job.createdAtMs),
  };
  if (jobRecoveryRef !== undefined) body.jobRecoveryRef = jobRecoveryRef;
  if (job.status === 'succeeded')
    body.results = job.outputs.map((asset) => ({
      resultId: asset.assetId,
      resultDownloadUrl: `${runtimeBaseUrl}/media/jobs/${encodeURIComponent(record.platformJobId)}/results/${encodeURIComponent(asset.assetId)}/download`,
      mimeType: asset.mimeType,
      byteSize: asset.byteSize,
      sha256: asset.sha256,
    }));
  if (job.status === 'failed' && job.failure) {
    body.errorCode = job.failure.errorCode;
    body.errorMessage = job.failure.errorMessage;
    body.retryable = job.failure.retryable;
  }
  return body;
}
