import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { SimClock } from '../../clock.js';
import type { Subject } from '../fixtures.js';
import type { PlatformLog, PlatformLogRecord } from '../platform-log.js';

/** Section D's limits ("Limits", Debug row). */
export const DEBUG_GRANT_LIFETIME_SECONDS = 120;
export const DEBUG_RECEIVER_LIFETIME_SECONDS = 3600;
export const DEBUG_LAUNCH_CODE_LIFETIME_SECONDS = 60;
export const DEBUG_SESSION_LIFETIME_SECONDS = 3600;

/** `developer_debug`: a relay-mode grant to a production callee; `developer_local`: a peer grant. */
export type DebugSourceChannel = 'developer_debug' | 'developer_local';

/** The identity both parties of a debug call must share (the approved user, organization and identity). */
export interface DebugIdentity {
  subject: Subject;
  testAccountId: string | null;
}

export interface DebugGrantRecord extends DebugIdentity {
  grantId: string;
  /** sha256 of the plaintext grant; the plaintext itself is never stored. */
  grantHash: string;
  sourceChannel: DebugSourceChannel;
  callerAppKey: string;
  callerAppVersionId: string;
  calleeAppKey: string;
  calleeAppVersionId: string;
  apiVersion: string;
  callerAppRoles: string[];
  scope: string;
  idempotencyKey: string;
  requestDigest: string;
  /** Canonical request of the issue (idempotency). */
  requestHash: string;
  /** Peer grants: the receiver they were issued through. */
  receiverRef?: string;
  expiresAtMs: number;
  /** Set by earlier simulator versions when a replay replaced the grant; such a record is ignored. */
  replaced?: boolean;
}

export interface DebugReceiverRecord extends DebugIdentity {
  /** A shareable pairing number, not a credential. */
  receiverRef: string;
  /** The provider's (callee's) CLI binding. */
  appKey: string;
  appVersionId: string;
  callerAppKey: string;
  apiVersion: string;
  scopes: string[];
  expiresAtMs: number;
  revoked: boolean;
}

export interface DebugSessionRecord {
  /** sha256 of the session id. */
  sessionHash: string;
  appKey: string;
  appVersionId: string;
  subject: Subject;
  appRoles: string[];
  receiverRef: string;
  expiresAtMs: number;
}

/**
 * A debug launch code. Its exchange is one record (the code marked consumed together with the
 * session it created), written before anything changes in memory: a failed write leaves the code
 * unconsumed and no session, never a consumed code without a session.
 */
export interface DebugLaunchCodeRecord {
  codeHash: string;
  grantId: string;
  appKey: string;
  appVersionId: string;
  subject: Subject;
  appRoles: string[];
  receiverRef: string;
  expiresAtMs: number;
  consumed: boolean;
  session?: DebugSessionRecord;
}

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const secret = (prefix: string) => `${prefix}_${randomBytes(32).toString('base64url')}`;

/** Debug grants, receivers, launch codes, derived sessions and providers' withdrawals (section D). */
export class DebugStore {
  private readonly grants = new Map<string, DebugGrantRecord>();
  private readonly receivers = new Map<string, DebugReceiverRecord>();
  private readonly codes = new Map<string, DebugLaunchCodeRecord>();
  private readonly sessions = new Map<string, DebugSessionRecord>();
  private readonly withdrawn = new Set<string>();

  constructor(
    private readonly clock: SimClock,
    private readonly log?: PlatformLog,
  ) {}

  now(): number {
    return this.clock.nowMs();
  }

  // --- grants

  grantByPlaintext(grant: string): DebugGrantRecord | undefined {
    const record = this.grants.get(sha256(grant));
    return record && !record.replaced ? record : undefined;
  }

  /** The grant issued under this binding, channel and key (its plaintext is never kept). */
  grantByKey(
    channel: DebugSourceChannel,
    callerAppKey: string,
    callerAppVersionId: string,
    idempotencyKey: string,
  ): { record: DebugGrantRecord } | undefined {
    for (const record of this.grants.values())
      if (
        !record.replaced &&
        record.sourceChannel === channel &&
        record.callerAppKey === callerAppKey &&
        record.callerAppVersionId === callerAppVersionId &&
        record.idempotencyKey === idempotencyKey
      )
        return { record };
    return undefined;
  }

  /** Stores a new grant; returns its plaintext (answered once, never stored). */
  addGrant(record: Omit<DebugGrantRecord, 'grantHash' | 'grantId'>): {
    record: DebugGrantRecord;
    plaintext: string;
  } {
    const plaintext = secret(record.sourceChannel === 'developer_local' ? 'dpg' : 'dag');
    const full: DebugGrantRecord = {
      ...record,
      grantId: 'dgr_' + randomBytes(12).toString('hex'),
      grantHash: sha256(plaintext),
    };
    this.log?.append('debug_grant', full.grantId, full);
    this.grants.set(full.grantHash, full);
    return { record: full, plaintext };
  }

  // --- receivers

  addReceiver(record: Omit<DebugReceiverRecord, 'receiverRef' | 'revoked'>): DebugReceiverRecord {
    let receiverRef: string;
    do receiverRef = String(randomInt(100_000_000, 1_000_000_000));
    while (this.receivers.has(receiverRef));
    const full: DebugReceiverRecord = { ...record, receiverRef, revoked: false };
    this.log?.append('debug_receiver', receiverRef, full);
    this.receivers.set(receiverRef, full);
    return full;
  }

  receiver(receiverRef: string): DebugReceiverRecord | undefined {
    return this.receivers.get(receiverRef);
  }

  /** A receiver that is neither revoked nor expired. */
  liveReceiver(receiverRef: string | undefined): DebugReceiverRecord | undefined {
    const r = receiverRef === undefined ? undefined : this.receivers.get(receiverRef);
    return r && !r.revoked && r.expiresAtMs > this.now() ? r : undefined;
  }

  revokeReceiver(receiverRef: string): void {
    const r = this.receivers.get(receiverRef);
    if (!r || r.revoked) return;
    const revoked = { ...r, revoked: true };
    this.log?.append('debug_receiver', receiverRef, revoked);
    this.receivers.set(receiverRef, revoked);
  }

  // --- launch codes and derived sessions

  addLaunchCode(record: Omit<DebugLaunchCodeRecord, 'codeHash' | 'consumed'>): {
    record: DebugLaunchCodeRecord;
    launchCode: string;
  } {
    const launchCode = secret('dlc');
    const full: DebugLaunchCodeRecord = { ...record, codeHash: sha256(launchCode), consumed: false };
    this.log?.append('debug_launch_code', full.codeHash, full);
    this.codes.set(full.codeHash, full);
    return { record: full, launchCode };
  }

  launchCode(launchCode: string): DebugLaunchCodeRecord | undefined {
    return this.codes.get(sha256(launchCode));
  }

  /**
   * Consumes the code and creates its session in one written record (the write first: when it
   * throws, nothing has changed). Returns the session id (plaintext, answered once).
   */
  consume(
    code: DebugLaunchCodeRecord,
    expiresAtMs: number,
  ): { session: DebugSessionRecord; sessionId: string } {
    const sessionId = secret('rs_dbg');
    const session: DebugSessionRecord = {
      sessionHash: sha256(sessionId),
      appKey: code.appKey,
      appVersionId: code.appVersionId,
      subject: { ...code.subject },
      appRoles: [...code.appRoles],
      receiverRef: code.receiverRef,
      expiresAtMs,
    };
    const consumed: DebugLaunchCodeRecord = { ...code, consumed: true, session };
    this.log?.append('debug_launch_code', code.codeHash, consumed);
    this.codes.set(code.codeHash, consumed);
    this.sessions.set(session.sessionHash, session);
    return { session, sessionId };
  }

  session(sessionId: string): DebugSessionRecord | undefined {
    return this.sessions.get(sha256(sessionId));
  }

  // --- providers' withdrawal of online debugging

  isWithdrawn(appKey: string): boolean {
    return this.withdrawn.has(appKey);
  }

  setWithdrawn(appKey: string, withdrawn: boolean): void {
    this.log?.append('debug_withdrawal', appKey, { appKey, withdrawn });
    if (withdrawn) this.withdrawn.add(appKey);
    else this.withdrawn.delete(appKey);
  }

  // --- persistence

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records) {
      if (record.t === 'debug_grant') {
        const g = record.v as DebugGrantRecord;
        this.grants.set(g.grantHash, g);
      } else if (record.t === 'debug_receiver') {
        const r = record.v as DebugReceiverRecord;
        this.receivers.set(r.receiverRef, r);
      } else if (record.t === 'debug_launch_code') {
        const c = record.v as DebugLaunchCodeRecord;
        this.codes.set(c.codeHash, c);
        if (c.session) this.sessions.set(c.session.sessionHash, c.session);
      } else if (record.t === 'debug_withdrawal') {
        const w = record.v as { appKey: string; withdrawn: boolean };
        if (w.withdrawn) this.withdrawn.add(w.appKey);
        else this.withdrawn.delete(w.appKey);
      }
    }
  }

  /** Live records only (expired grants, receivers, unconsumed expired codes and their sessions are dropped). */
  snapshot(): PlatformLogRecord[] {
    const now = this.now();
    const out: PlatformLogRecord[] = [];
    for (const g of this.grants.values())
      // expired grants stay too: a replay of their key answers the same fact (idempotency)
      if (!g.replaced) out.push({ t: 'debug_grant', id: g.grantId, v: g });
    for (const r of this.receivers.values())
      if (r.expiresAtMs > now) out.push({ t: 'debug_receiver', id: r.receiverRef, v: r });
    for (const c of this.codes.values())
      if (c.session ? c.session.expiresAtMs > now : c.expiresAtMs > now)
        out.push({ t: 'debug_launch_code', id: c.codeHash, v: c });
    for (const appKey of this.withdrawn)
      out.push({ t: 'debug_withdrawal', id: appKey, v: { appKey, withdrawn: true } });
    return out;
  }
}
