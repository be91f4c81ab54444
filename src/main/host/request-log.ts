import type { RequestLogEntry } from './platform-host.js';

/** Refused anonymous requests logged per second; the rest are counted in one line a second. */
export const ANONYMOUS_REFUSALS_LOGGED_PER_SECOND = 10;

/**
 * The access log with a bound on what strangers can make it write: a request refused without a
 * session (junk cookies, junk launch codes — thousands a second from a flood) is logged up to
 * {@link ANONYMOUS_REFUSALS_LOGGED_PER_SECOND} a second; past it they are counted, by status, in
 * one `requests not logged` line when the second is over. Every request of a person, and every
 * answered one, is logged. (The metrics count every request either way.)
 */
export function boundedRequestLog(
  write: (message: string, fields: Record<string, unknown>) => void,
  now: () => number = Date.now,
): (entry: RequestLogEntry) => void {
  let windowStart = 0;
  let logged = 0;
  let skipped: Record<string, number> = {};
  let skippedCount = 0;
  return (entry) => {
    const at = now();
    if (at - windowStart >= 1000) {
      if (skippedCount > 0)
        write('requests not logged', { count: skippedCount, byStatus: skipped, seconds: 1 });
      windowStart = at;
      logged = 0;
      skipped = {};
      skippedCount = 0;
    }
    const anonymousRefusal = entry.person === undefined && entry.status >= 400;
    if (anonymousRefusal && logged >= ANONYMOUS_REFUSALS_LOGGED_PER_SECOND) {
      skipped[entry.status] = (skipped[entry.status] ?? 0) + 1;
      skippedCount += 1;
      return;
    }
    if (anonymousRefusal) logged += 1;
    write('request', { ...entry });
  };
}
