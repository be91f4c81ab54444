/**
 * Token buckets for the unauthenticated sign-in route: each launch code posted makes the backend
 * call the session service with the application credential, so sign-ins are limited per client
 * address and for the whole backend. A refused attempt answers 429 with `Retry-After`; nothing is
 * exchanged, so the page may try again then.
 */
export interface BucketLimit {
  /** The burst: attempts allowed at once. */
  capacity: number;
  /** Attempts regained per second. */
  refillPerSecond: number;
}

export interface SignInLimits {
  perClient: BucketLimit;
  global: BucketLimit;
}

/** 20 at once then one every 3 s per address; 100 at once then 5 a second for everyone. */
export const DEFAULT_SIGN_IN_LIMITS: SignInLimits = {
  perClient: { capacity: 20, refillPerSecond: 1 / 3 },
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
  private readonly global: TokenBuckets;

  constructor(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS, now: () => number = Date.now) {
    this.perClient = new TokenBuckets(limits.perClient, now);
    this.global = new TokenBuckets(limits.global, now);
  }

  /** Takes one attempt for `client`; answers the seconds to wait when refused (nothing taken). */
  admit(client: string): { admitted: true } | { admitted: false; retryAfterSeconds: number } {
    const wait = Math.max(this.perClient.wait(client), this.global.wait(''));
    if (wait > 0) return { admitted: false, retryAfterSeconds: wait };
    this.perClient.take(client);
    this.global.take('');
    return { admitted: true };
  }
}
