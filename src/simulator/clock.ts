/** The simulator's clock: wall time plus an offset that tests can advance (asset expiry). */
export class SimClock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }

  get offsetSeconds(): number {
    return this.offsetMs / 1000;
  }
}

export function iso(ms: number): string {
  return new Date(ms).toISOString();
}
