import { describe, expect, it } from 'vitest';
import {
  ANONYMOUS_REFUSALS_LOGGED_PER_SECOND,
  boundedRequestLog,
} from '../../../src/main/host/request-log.js';
import type { RequestLogEntry } from '../../../src/main/host/platform-host.js';

const entry = (status: number, person?: string): RequestLogEntry => ({
  requestId: 'r',
  method: 'POST',
  route: '/platform/session',
  status,
  durationMs: 1,
  ...(person ? { person } : {}),
});

describe('the access log under a flood of junk', () => {
  it('logs a few anonymous refusals a second and counts the rest, but every request of a person', () => {
    let now = 0;
    const lines: [string, Record<string, unknown>][] = [];
    const log = boundedRequestLog(
      (message, fields) => lines.push([message, fields]),
      () => now,
    );
    for (let i = 0; i < 1000; i += 1) log(entry(i % 2 ? 401 : 429));
    for (let i = 0; i < 5; i += 1) log(entry(200, 'p1'));
    log(entry(403, 'p1'));
    expect(lines.filter(([m]) => m === 'request')).toHaveLength(ANONYMOUS_REFUSALS_LOGGED_PER_SECOND + 6);
    now += 1000;
    log(entry(200, 'p1'));
    const summary = lines.find(([m]) => m === 'requests not logged')!;
    expect(summary[1]).toEqual({ count: 990, byStatus: { 401: 495, 429: 495 }, seconds: 1 });
    expect(lines.at(-1)![0]).toBe('request');
  });
});
