import { randomBytes } from 'node:crypto';
import type { SimClock } from '../../clock.js';
import type { Subject } from '../fixtures.js';
import type { PlatformLog, PlatformLogRecord } from '../platform-log.js';
import { hashSecret, PlatformSecrets } from '../secrets.js';

/** A CLI session granted by `cli-sessions:exchange` lives 1 hour (section E, "Source and CLI rules"). */
export const CLI_SESSION_LIFETIME_SECONDS = 3600;

/** What a CLI token permits (section E): runtime, jobs, temporary assets and app-to-app calls only. */
export const CLI_SESSION_SCOPES: readonly string[] = ['runtime', 'jobs', 'assets.temporary', 'app-calls'];

/**
 * A CLI session: the short-lived Bearer of online debugging (section B), the debug directory and
 * grants (section D) and the relay, bound to one application and one version. The access token
 * itself is never stored: only its sha256 (the lookup key).
 */
export interface CliSessionRecord {
  cliSessionId: string;
  tokenHash: string;
  appId: string;
  appKey: string;
  appVersionId: string;
  /** The test-account record the pairing chose, or null: the developer's own identity. */
  testAccountId: string | null;
  /** The identity debugging acts as (and whose account online debugging charges). */
  subject: Subject;
  /**
   * The RuntimeSession derived from this pairing (section D's `runtime-sessions/{sessionId}:resolve`).
   * A secret like every session id: in memory only, derived from `cliSessionId` by the simulator's
   * key and never persisted.
   */
  runtimeSessionId: string;
  scopes: string[];
  issuedAtMs: number;
  expiresAtMs: number;
}

export type CliSessionGrant = Pick<
  CliSessionRecord,
  'appId' | 'appKey' | 'appVersionId' | 'testAccountId' | 'subject'
>;

/** The persisted form of a CLI session: everything but the derived runtime session id. */
type StoredCliSession = Omit<CliSessionRecord, 'runtimeSessionId'>;

/** CLI sessions by token hash; expired sessions are never answered. */
export class CliSessionStore {
  private readonly byHash = new Map<string, CliSessionRecord>();

  constructor(
    private readonly clock: SimClock,
    private readonly log?: PlatformLog,
    private readonly secrets = new PlatformSecrets(),
  ) {}

  private runtimeSessionIdOf(cliSessionId: string): string {
    return this.secrets.derive('rs_dbg', 'cli_runtime_session', cliSessionId);
  }

  private static stored(record: CliSessionRecord): StoredCliSession {
    const { runtimeSessionId: _secret, ...stored } = record;
    return stored;
  }

  /** Issues a new 1-hour session; the plaintext access token is returned once, here only. */
  issue(grant: CliSessionGrant): { record: CliSessionRecord; accessToken: string } {
    const accessToken = 'fwcli_' + randomBytes(32).toString('base64url');
    const now = this.clock.nowMs();
    const cliSessionId = 'cls_' + randomBytes(12).toString('hex');
    const record: CliSessionRecord = {
      ...grant,
      cliSessionId,
      tokenHash: hashSecret(accessToken),
      runtimeSessionId: this.runtimeSessionIdOf(cliSessionId),
      scopes: [...CLI_SESSION_SCOPES],
      issuedAtMs: now,
      expiresAtMs: now + CLI_SESSION_LIFETIME_SECONDS * 1000,
    };
    this.byHash.set(record.tokenHash, record);
    this.log?.append('cli_session', record.cliSessionId, CliSessionStore.stored(record));
    return { record, accessToken };
  }

  /** The live session of a Bearer token; undefined when unknown or expired (by the simulator clock). */
  byToken(token: string | undefined): CliSessionRecord | undefined {
    if (!token) return undefined;
    const record = this.byHash.get(hashSecret(token));
    return record && record.expiresAtMs > this.clock.nowMs() ? record : undefined;
  }

  restore(records: readonly PlatformLogRecord[]): void {
    for (const record of records)
      if (record.t === 'cli_session') {
        const stored = record.v as StoredCliSession;
        this.byHash.set(stored.tokenHash, {
          ...stored,
          runtimeSessionId: this.runtimeSessionIdOf(stored.cliSessionId),
        });
      }
  }

  snapshot(): PlatformLogRecord[] {
    const now = this.clock.nowMs();
    return [...this.byHash.values()]
      .filter((v) => v.expiresAtMs > now)
      .map((v) => ({ t: 'cli_session', id: v.cliSessionId, v: CliSessionStore.stored(v) }));
  }
}
