import { createHash, randomBytes } from 'node:crypto';
import { iso } from '../clock.js';
import type { StoredJob } from '../jobs/job-store.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';

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
  /** Secret: answered at creation and at replays of the creation only. */
  jobRecoveryRef: string;
  resourceAttribution?: { resourceType: string; resourceId: string };
  createdAtMs: number;
}

/** The identity id under which the runtime's jobs and fetched inputs of one person of one application are kept. */
export function runtimeIdentityId(appKey: string, userId: string): string {
  return 'plat_' + createHash('sha256').update(`${appKey}\u0000${userId}`).digest('hex').slice(0, 16);
}

export function newRecoveryRef(): string {
  return 'jrr_' + randomBytes(24).toString('base64url');
}

/** Runtime job records by id, by business scope (application, person, clientTaskId, key) and by recovery reference. */
export class RuntimeJobStore {
  private readonly byId = new Map<string, RuntimeJobRecord>();
  private readonly byScope = new Map<string, string>();
  private readonly byRecoveryRef = new Map<string, string>();

  constructor(private readonly log?: PlatformLog) {}

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
    this.byRecoveryRef.set(record.jobRecoveryRef, record.platformJobId);
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
    const id = this.byRecoveryRef.get(recoveryRef);
    return id ? this.byId.get(id) : undefined;
  }

  all(): RuntimeJobRecord[] {
    return [...this.byId.values()];
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records) if (record.t === 'runtime_job') this.index(record.v as RuntimeJobRecord);
  }

  snapshot(): PlatformLogRecord[] {
    return this.all().map((v) => ({ t: 'runtime_job', id: v.platformJobId, v }));
  }
}

/** The RuntimeJob body; the recovery reference only when answering a creation. */
export function toRuntimeJob(
  record: RuntimeJobRecord,
  job: StoredJob,
  runtimeBaseUrl: string,
  withRecoveryRef: boolean,
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
  if (withRecoveryRef) body.jobRecoveryRef = record.jobRecoveryRef;
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
