/** At most this many byte-progress reports per second, for uploads and downloads alike. */
export const PROGRESS_REPORTS_PER_SECOND = 10;

export interface ThrottledProgress<A extends unknown[]> {
  /** Reports unless a report went out less than 1/{@link PROGRESS_REPORTS_PER_SECOND} s ago. */
  report(...args: A): void;
  /** Always reports (the first and the final count). */
  force(...args: A): void;
}

/**
 * Thins a stream of byte-progress reports to at most {@link PROGRESS_REPORTS_PER_SECOND} a second,
 * so a fast transfer does not flood the bridge with one event per chunk; the caller forces the
 * first and the last.
 */
export function throttleProgress<A extends unknown[]>(
  emit: (...args: A) => void,
  now: () => number = Date.now,
): ThrottledProgress<A> {
  const interval = 1000 / PROGRESS_REPORTS_PER_SECOND;
  let last = -Infinity;
  return {
    report(...args) {
      const t = now();
      if (t - last < interval) return;
      last = t;
      emit(...args);
    },
    force(...args) {
      last = now();
      emit(...args);
    },
  };
}
