/**
 * The expected remaining time of a job, from this profile's history: the median accept → succeeded
 * duration of its succeeded jobs with the same model and requested seconds (the journal reads the
 * samples: `JobsRepository.succeededDurations`), minus the time the job has run. Without one such
 * job there is no estimate. Past the median, the job is expected "any moment now" (0), never late.
 */
export interface DurationEstimate {
  /** The median accept → succeeded duration of the samples, in seconds. */
  readonly expectedTotalSeconds: number;
  /** How many earlier jobs it was read from (at least one). */
  readonly samples: number;
}

/** The median of a non-empty list (the mean of the two middle values for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The estimate from earlier durations in milliseconds; null without any. */
export function estimateFromDurations(durationsMs: readonly number[]): DurationEstimate | null {
  if (durationsMs.length === 0) return null;
  return { expectedTotalSeconds: median(durationsMs) / 1000, samples: durationsMs.length };
}

/** Seconds left for a job accepted at `acceptedAt` (epoch ms) at `now`: 0 once past the estimate. */
export function remainingSeconds(estimate: DurationEstimate, acceptedAt: number, now: number): number {
  return Math.max(0, estimate.expectedTotalSeconds - Math.max(0, now - acceptedAt) / 1000);
}
