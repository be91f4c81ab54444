/**
 * Token buckets for the unauthenticated sign-in route: each well-formed launch code posted makes
 * the backend call the session service with the application credential, so sign-ins are limited
 * per client address, per address again for exchanges that failed, and for the whole backend.
 * A refused attempt answers 429 with `Retry-After`; nothing is exchanged, so the page may try
 * again then.
 *
 * Only an attempt that reaches the session service spends the backend-wide allowance (a malformed
 * code is refused before, at the cost of its address's own bucket), and an address whose codes
 * keep failing is slowed to one exchange per `failuresPerClient` refill: a few junk clients cannot
 * use up the allowance people need to sign in (measured by `npm run bench`, platform under load).
 */
export interface BucketLimit {
  /** The burst: attempts allowed at once. */
  capacity: number;
  /** Attempts regained per second. */
  refillPerSecond: number;
}

export interface SignInLimits {
  perClient: BucketLimit;
  /** Failed exchanges per address: when spent, that address may not try an exchange. */
  failuresPerClient?: BucketLimit;
  global: BucketLimit;
}

/**
 * 20 at once then one every 3 s per address; 5 failed exchanges then one every 30 s per address;
 * 100 exchanges at once then 5 a second for everyone.
 */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perClient: { capacity: 20, refillPerSecond: 1 / 3 },
  failuresPerClient: { capacity: 5, refillPerSecond: 1 / 30 },
  global: { capacity: 100, refillPerSecond: 5 },
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

export class SignInLimiter {
  private readonly perClient: TokenBuckets;
  private readonly failures: TokenBuckets | undefined;
  private readonly global: TokenBuckets;

  constructor(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS, now: () => number = Date.now) {
    this.perClient = new TokenBuckets(limits.perClient, now);
    this.failures = limits.failuresPerClient ? new TokenBuckets(limits.failuresPerClient, now) : undefined;
    this.global = new TokenBuckets(limits.global, now);
  }

  /**
   * Takes one attempt for `client` (any sign-in post, read or not); answers the seconds to wait
   * when refused (nothing taken). An address whose failed exchanges are spent is refused here too.
   */
  admit(client: string): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const wait = Math.max(this.perClient.wait(client), this.failures?.wait(client) ?? 0);
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    this.perClient.take(client);
    return { admitted: true };
  }

  /**
   * Takes one exchange from the backend-wide allowance, for a well-formed code about to be sent
   * to the session service; answers the seconds to wait when refused (nothing taken).
   */
  admitExchange(): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const wait = this.global.wait('');
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    this.global.take('');
    return { admitted: true };
  }

  /** An exchange from `client` failed (a spent, foreign or made-up code): counted against that address. */
  exchangeFailed(client: string): void {
    this.failures?.take(client);
  }
}
