import { iso } from '../clock.js';
import type { FixtureUser, Subject } from './fixtures.js';
import type { PlatformLog, PlatformLogRecord } from './platform-log.js';
import { randomBytes } from 'node:crypto';
import { hashSecret } from './secrets.js';

/** A production grant lives 2 minutes; its launch code 1 minute. */
export const GRANT_LIFETIME_SECONDS = 120;
export const GRANT_LAUNCH_CODE_LIFETIME_SECONDS = 60;

export interface GrantRecord {
  grantId: string;
  /**
   * sha256 of the plaintext grant (the lookup key). The plaintext is random, answered once (by the
   * issue that made it) and never kept: a replay of the same issue answers the fact without it.
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

  constructor(private readonly log?: PlatformLog) {}

  /**
   * A new grant: its record (with the hash) and its random plaintext, which the caller answers
   * once and drops ("one-time plaintext, appears once"); nothing can answer it again.
   */
  newGrant(fields: Omit<GrantRecord, 'grantHash'>): { record: GrantRecord; plaintext: string } {
    const plaintext = `agr_${randomBytes(32).toString('base64url')}`;
    return { record: { ...fields, grantHash: hashSecret(plaintext) }, plaintext };
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

/** The spec's resolved grant, as production and debug resolves answer it (never the plaintext). */
export function resolvedGrantView(
  g: Pick<
    GrantRecord,
    | 'grantId'
    | 'callerAppKey'
    | 'callerAppVersionId'
    | 'calleeAppKey'
    | 'calleeAppVersionId'
    | 'apiVersion'
    | 'subject'
    | 'callerAppRoles'
    | 'scope'
    | 'idempotencyKey'
    | 'requestDigest'
    | 'expiresAtMs'
  >,
) {
  return {
    grantId: g.grantId,
    callerAppKey: g.callerAppKey,
    callerAppVersionId: g.callerAppVersionId,
    calleeAppKey: g.calleeAppKey,
    calleeAppVersionId: g.calleeAppVersionId,
    apiVersion: g.apiVersion,
    subject: g.subject,
    callerAppRoles: g.callerAppRoles,
    scope: g.scope,
    idempotencyKey: g.idempotencyKey,
    requestDigest: g.requestDigest,
    expiresAt: iso(g.expiresAtMs),
  };
}
