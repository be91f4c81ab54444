/**
 * Token buckets for the two unauthenticated surfaces whose every well-formed attempt makes the
 * backend call the platform with its application credential: sign-ins (`POST /platform/session`:
 * a launch code exchanged) and other applications' calls (`/inter-app/`: a grant resolved). Each
 * is limited per client, and its calls to the platform for the whole backend. A refused attempt
 * answers 429 with `Retry-After`; nothing is sent, so the caller may try again then.
 *
 * Junk must never keep a genuine attempt out (a launch code, a grant):
 * - a malformed code is refused before any allowance is spent but its client's own;
 * - a client whose exchange failed lately (a spent, foreign or made-up code) is a *suspect*: its
 *   exchanges take a small allowance of their own (`suspect`), never the backend-wide one people
 *   need (`global`) — junk from many addresses spends at most one clean exchange per address;
 * - nobody is locked out: a suspect is slowed, not refused for a fixed time, so a person sharing
 *   an address with junk still gets through (and behind the TLS proxy the operator names it in
 *   `FRAMEWRIGHT_TRUSTED_PROXIES`, so the client is the real one, not the proxy everyone shares).
 */
export interface BucketLimit {
  /** The burst: attempts allowed at once. */
  capacity: number;
  /** Attempts regained per second. */
  refillPerSecond: number;
}

export interface AttemptLimits {
  /** Attempts per client (any, read or not). */
  perClient: BucketLimit;
  /** Calls to the platform for clients with no recent failure: what genuine callers need. */
  global: BucketLimit;
  /** Calls for suspect clients (an attempt of theirs failed lately), shared among them. */
  suspect?: BucketLimit;
  /** How long a failed attempt makes its client a suspect (seconds). */
  suspectForSeconds?: number;
}

/**
 * Sign-ins: 20 at once then one every 3 s per client; 100 clean exchanges at once then 5 a second;
 * 10 suspect exchanges at once then one a second; a failure makes its client a suspect for 5 minutes.
 */
export const DEFAULT_SIGN_IN_LIMITS: AttemptLimits = {
  perClient: { capacity: 20, refillPerSecond: 1 / 3 },
  global: { capacity: 100, refillPerSecond: 5 },
  suspect: { capacity: 10, refillPerSecond: 1 },
  suspectForSeconds: 300,
};

/** Buckets kept for at most this many client addresses (full buckets are forgotten first). */
const MAX_CLIENTS = 10_000;

class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly limit: BucketLimit,
    private readonly now: () => number,
  ) {}

  private level(key: string): { tokens: number; at: number } {
    const now = this.now();
    const bucket = this.buckets.get(key) ?? { tokens: this.limit.capacity, at: now };
    const refilled = Math.min(
      this.limit.capacity,
      bucket.tokens + ((now - bucket.at) / 1000) * this.limit.refillPerSecond,
    );
    return { tokens: refilled, at: now };
  }

  /** Seconds until `key` has a token (0: it has one now). */
  wait(key: string): number {
    const { tokens } = this.level(key);
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / this.limit.refillPerSecond));
  }

  take(key: string): void {
    const level = this.level(key);
    this.buckets.set(key, { tokens: level.tokens - 1, at: level.at });
    if (this.buckets.size > MAX_CLIENTS) this.forgetFull();
  }

  private forgetFull(): void {
    for (const key of [...this.buckets.keys()])
      if (this.level(key).tokens >= this.limit.capacity) this.buckets.delete(key);
    // still too many: the oldest go (a forgotten client starts with a full bucket)
    for (const key of this.buckets.keys()) {
      if (this.buckets.size <= MAX_CLIENTS) break;
      this.buckets.delete(key);
    }
  }
}

/**
 * Other applications' calls: 60 at once then 10 a second per calling server; 200 clean grant
 * resolves at once then 50 a second; 10 suspect resolves at once then 2 a second; a refused grant
 * makes its client a suspect for 5 minutes.
 */
export const DEFAULT_INTER_APP_LIMITS: AttemptLimits = {
  perClient: { capacity: 60, refillPerSecond: 10 },
  global: { capacity: 200, refillPerSecond: 50 },
  suspect: { capacity: 10, refillPerSecond: 2 },
  suspectForSeconds: 300,
};

export class AttemptLimiter {
  private readonly perClient: TokenBuckets;
  private readonly global: TokenBuckets;
  private readonly suspect: TokenBuckets;
  private readonly suspectForMs: number;
  /** When each client's last exchange failed (bounded like the buckets). */
  private readonly failedAt = new Map<string, number>();

  constructor(
    limits: AttemptLimits,
    private readonly now: () => number = Date.now,
  ) {
    this.perClient = new TokenBuckets(limits.perClient, now);
    this.global = new TokenBuckets(limits.global, now);
    this.suspect = new TokenBuckets(limits.suspect ?? DEFAULT_SIGN_IN_LIMITS.suspect!, now);
    this.suspectForMs = (limits.suspectForSeconds ?? DEFAULT_SIGN_IN_LIMITS.suspectForSeconds!) * 1000;
  }

  /**
   * Takes one attempt for `client` (any sign-in post, read or not); answers the seconds to wait
   * when refused (nothing taken).
   */
  admit(client: string): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const wait = this.perClient.wait(client);
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    this.perClient.take(client);
    return { admitted: true };
  }

  /**
   * Takes one call to the platform for `client`'s well-formed attempt (a code to exchange, a grant
   * to resolve): from the backend-wide allowance, or the suspects' one when an attempt of this
   * client failed lately; answers the seconds to wait when refused (nothing taken).
   */
  admitCall(client: string): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const pool = this.isSuspect(client) ? this.suspect : this.global;
    const wait = pool.wait('');
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    pool.take('');
    return { admitted: true };
  }

  /** An attempt of `client` failed (a spent, foreign or made-up code or grant): it is a suspect for a while. */
  failed(client: string): void {
    this.failedAt.delete(client);
    this.failedAt.set(client, this.now());
    if (this.failedAt.size > MAX_CLIENTS) this.failedAt.delete(this.failedAt.keys().next().value!);
  }

  private isSuspect(client: string): boolean {
    const at = this.failedAt.get(client);
    if (at === undefined) return false;
    if (this.now() - at < this.suspectForMs) return true;
    this.failedAt.delete(client);
    return false;
  }
}
