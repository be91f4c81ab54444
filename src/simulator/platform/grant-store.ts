import type { FixtureUser, Subject } from './fixtures.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';
import { hashSecret, PlatformSecrets } from './secrets.js';

/** A production grant lives 2 minutes; its launch code 1 minute. */
export const GRANT_LIFETIME_SECONDS = 120;
export const GRANT_LAUNCH_CODE_LIFETIME_SECONDS = 60;

export interface GrantRecord {
  grantId: string;
  /**
   * sha256 of the plaintext grant (the lookup key). The plaintext is never kept: a replay of the
   * same issue answers it again derived from `grantId` (`GrantStore.plaintextOf`).
   */
  grantHash: string;
  callerAppKey: string;
  callerAppVersionId: string;
  calleeAppKey: string;
  calleeAppVersionId: string;
  apiVersion: string;
  user: FixtureUser;
  subject: Subject;
  callerAppRoles: string[];
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
  /** Canonical request of the issue (idempotency). */
  requestHash: string;
  expiresAtMs: number;
}

/** Production app-to-app grants, by grant hash and by the caller's idempotency key. */
export class GrantStore {
  private readonly byHash = new Map<string, GrantRecord>();

  constructor(
    private readonly log?: PlatformLog,
    private readonly secrets = new PlatformSecrets(),
  ) {}

  /** The plaintext grant of a record (the same at the issue, its replays and after a restart). */
  plaintextOf(grantId: string): string {
    return this.secrets.derive('agr', 'app_grant', grantId);
  }

  /** The record of a new grant, its hash filled in from its id. */
  newRecord(fields: Omit<GrantRecord, 'grantHash'>): GrantRecord {
    return { ...fields, grantHash: hashSecret(this.plaintextOf(fields.grantId)) };
  }

  add(record: GrantRecord): void {
    this.byHash.set(record.grantHash, record);
    this.log?.append('grant', record.grantId, record);
  }

  byGrant(grant: string): GrantRecord | undefined {
    return this.byHash.get(hashSecret(grant));
  }

  byIdempotencyKey(callerAppKey: string, idempotencyKey: string): GrantRecord | undefined {
    return [...this.byHash.values()].find(
      (g) => g.callerAppKey === callerAppKey && g.idempotencyKey === idempotencyKey,
    );
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records)
      if (record.t === 'grant') {
        // a record of an older simulator kept the plaintext too: only the hash is restored
        const { grant: _plaintext, ...grant } = record.v as GrantRecord & { grant?: string };
        this.byHash.set(grant.grantHash, grant);
      }
  }

  snapshot(): PlatformLogRecord[] {
    return [...this.byHash.values()].map((v) => ({ t: 'grant', id: v.grantId, v }));
  }
}
