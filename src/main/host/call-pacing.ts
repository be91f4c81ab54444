/**
 * A person's fair share of the backend: their bridge calls are paced to a steady rate (a token
 * bucket per person, not per browser: more tabs or sessions do not buy more). A call costs one,
 * and one more per 64 KiB of its body, so a person saving a 190 kB draft again and again is
 * paced like four people clicking. Within the burst nothing waits; past it a call waits its turn
 * (before its body is read: nothing is held in memory meanwhile) and is refused (429) only when
 * its turn is further away than `maxWaitMs`. A person working in the studio — a page polling its
 * jobs and library twice a second, saving a draft as they type — never waits.
 */
export interface CallPacing {
  /** Calls a person may make per second, sustained. */
  callsPerSecond: number;
  /** Calls a person may make at once after a quiet while. */
  burstCalls: number;
  /** Each this many bytes of a body cost one call more. */
  bytesPerCall: number;
  /** A call whose turn is further away than this is refused instead of waiting. */
  maxWaitMs: number;
}

export const DEFAULT_CALL_PACING: CallPacing = {
  callsPerSecond: 20,
  burstCalls: 60,
  bytesPerCall: 64 * 1024,
  maxWaitMs: 10_000,
};

/** People whose buckets are kept before full (idle) ones are dropped. */
const BUCKETS_BEFORE_SWEEP = 1024;

export class CallPacer {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly pacing: CallPacing = DEFAULT_CALL_PACING,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** What a call with a body of `bytes` costs: one, and one more per `bytesPerCall` (at most the burst). */
  cost(bytes: number): number {
    return Math.min(this.pacing.burstCalls, 1 + Math.floor(Math.max(0, bytes) / this.pacing.bytesPerCall));
  }

  /**
   * Takes a call's turn for `person`: answers how many milliseconds it waits first (0: now), or
   * undefined when its turn is further away than `maxWaitMs` (refused; nothing was taken).
   */
  reserve(person: string, bytes: number): number | undefined {
    const now = this.now();
    const { callsPerSecond, burstCalls, maxWaitMs } = this.pacing;
    const bucket = this.buckets.get(person) ?? { tokens: burstCalls, at: now };
    bucket.tokens = Math.min(burstCalls, bucket.tokens + ((now - bucket.at) / 1000) * callsPerSecond);
    bucket.at = now;
    const cost = this.cost(bytes);
    const waitMs = bucket.tokens >= cost ? 0 : ((cost - bucket.tokens) / callsPerSecond) * 1000;
    if (waitMs > maxWaitMs) return undefined;
    // the calls waiting are the bucket's debt: the next one waits behind them
    bucket.tokens -= cost;
    if (!this.buckets.has(person) && this.buckets.size >= BUCKETS_BEFORE_SWEEP) this.sweep(now);
    this.buckets.set(person, bucket);
    return waitMs;
  }

  /** Drops the buckets that are full again (their people idle long enough): memory stays bounded. */
  private sweep(now: number): void {
    const { callsPerSecond, burstCalls } = this.pacing;
    for (const [person, bucket] of this.buckets)
      if (bucket.tokens + ((now - bucket.at) / 1000) * callsPerSecond >= burstCalls)
        this.buckets.delete(person);
  }

  /** People with a bucket now (tests). */
  get size(): number {
    return this.buckets.size;
  }
}
