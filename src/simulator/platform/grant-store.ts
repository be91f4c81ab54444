import { createHash, randomBytes } from 'node:crypto';
import type { FixtureUser, Subject } from './fixtures.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';

/** A production grant lives 2 minutes; its launch code 1 minute. */
export const GRANT_LIFETIME_SECONDS = 120;
export const GRANT_LAUNCH_CODE_LIFETIME_SECONDS = 60;

export interface GrantRecord {
  grantId: string;
  /** sha256 of the plaintext grant (the lookup key). */
  grantHash: string;
  /** Kept so that a replay of the same issue answers the same fact. */
  grant: string;
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

export const hashGrant = (grant: string) => createHash('sha256').update(grant).digest('hex');

export function newGrantSecret(): string {
  return 'agr_' + randomBytes(32).toString('base64url');
}

/** Production app-to-app grants, by grant hash and by the caller's idempotency key. */
export class GrantStore {
  private readonly byHash = new Map<string, GrantRecord>();

  constructor(private readonly log?: PlatformLog) {}

  add(record: GrantRecord): void {
    this.byHash.set(record.grantHash, record);
    this.log?.append('grant', record.grantId, record);
  }

  byGrant(grant: string): GrantRecord | undefined {
    return this.byHash.get(hashGrant(grant));
  }

  byIdempotencyKey(callerAppKey: string, idempotencyKey: string): GrantRecord | undefined {
    return [...this.byHash.values()].find(
      (g) => g.callerAppKey === callerAppKey && g.idempotencyKey === idempotencyKey,
    );
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records)
      if (record.t === 'grant') {
        const grant = record.v as GrantRecord;
        this.byHash.set(grant.grantHash, grant);
      }
  }

  snapshot(): PlatformLogRecord[] {
    return [...this.byHash.values()].map((v) => ({ t: 'grant', id: v.grantId, v }));
  }
}
