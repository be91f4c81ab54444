import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POLL_BACKOFF, backoffDelay } from '../../../src/main/core/api-clients/retry/backoff.js';
import {
  injectiveSegment,
  jobFolder,
  outputFileName,
  safeSegment,
} from '../../../src/main/core/jobs/library-layout.js';
import { kindForStatus } from '../../../src/main/core/api-clients/api-errors.js';
import {
  MAX_RETRY_AFTER_SECONDS,
  RetryAfterTooLongError,
  parseRetryAfter,
  retryWaitMs,
} from '../../../src/main/core/api-clients/retry/retry-after.js';

const noJitter = () => 0.5;

describe('back-off', () => {
  it('polls from 2 s up to 10 s', () => {
    const steps = [0, 1, 2, 3, 4, 5, 10].map((n) => backoffDelay(DEFAULT_POLL_BACKOFF, n, noJitter));
    expect(steps[0]).toBe(2000);
    expect(steps.every((s, i) => i === 0 || s >= steps[i - 1]!)).toBe(true);
    expect(Math.max(...steps)).toBe(10_000);
  });

  it('never waits less than the server asked; longer than the bound or the limit stops with the asked wait', () => {
    const own = backoffDelay(DEFAULT_POLL_BACKOFF, 0, noJitter);
    const op = 'Test';
    expect(retryWaitMs({ serverSeconds: 7, ownDelayMs: own, operation: op })).toBe(7000);
    expect(retryWaitMs({ serverSeconds: 0.5, ownDelayMs: own, operation: op })).toBe(2000);
    expect(retryWaitMs({ serverSeconds: undefined, ownDelayMs: own, operation: op })).toBe(2000);
    expect(retryWaitMs({ serverSeconds: MAX_RETRY_AFTER_SECONDS, ownDelayMs: own, operation: op })).toBe(
      MAX_RETRY_AFTER_SECONDS * 1000,
    );
    // past the documented maximum: not shortened, refused with what the server asked
    expect(() =>
      retryWaitMs({ serverSeconds: MAX_RETRY_AFTER_SECONDS + 1, ownDelayMs: own, operation: op }),
    ).toThrow(RetryAfterTooLongError);
    // past the caller's remaining total wait limit
    const tooLong = (() => {
      try {
        retryWaitMs({ serverSeconds: 12, ownDelayMs: own, remainingMs: 10_000, operation: 'Embeddings' });
      } catch (error) {
        return error as RetryAfterTooLongError;
      }
    })();
    expect(tooLong).toBeInstanceOf(RetryAfterTooLongError);
    expect(tooLong!.message).toContain('Embeddings: the service asked to wait 12 s');
  });

  it('jitter spreads the delay within its fraction', () => {
    expect(backoffDelay(DEFAULT_POLL_BACKOFF, 0, () => 0)).toBe(1800);
    expect(backoffDelay(DEFAULT_POLL_BACKOFF, 0, () => 1)).toBe(2200);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('3')).toBe(3);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
    const inTen = new Date(Date.now() + 10_000).toUTCString();
    expect(parseRetryAfter(inTen)).toBeGreaterThan(8);
    expect(parseRetryAfter(new Date(Date.now() - 10_000).toUTCString())).toBe(0);
    expect(parseRetryAfter('-3')).toBeUndefined();
  });

  it('maps each status of the error table to its own kind', () => {
    expect([400, 422, 401, 403, 402, 404, 409, 413, 415, 429, 503, 504].map(kindForStatus)).toEqual([
      'invalid_request',
      'invalid_request',
      'identity',
      'identity',
      'balance',
      'not_found',
      'conflict',
      'too_large',
      'unsupported_format',
      'rate_limited',
      'unavailable',
      'gateway_timeout',
    ]);
  });
});

describe('library layout', () => {
  it('sanitizes names from the network against path traversal', () => {
    for (const hostile of ['../../etc/passwd', '..', '.', '', 'a/b\\c', 'CON', 'x\u0000y', ' .hidden. ']) {
      const segment = safeSegment(hostile);
      for (const bad of ['/', '\\', '\u0000']) expect(segment.includes(bad)).toBe(false);
      expect(segment).not.toBe('..');
      expect(segment.length).toBeGreaterThan(0);
      expect(path.basename(segment)).toBe(segment);
    }
    expect(safeSegment('CON')).toBe('_CON');
  });

  it('puts results under <library>/<date>/<profile>/<jobId>/', () => {
    const day = Date.UTC(2026, 10, 22, 13);
    expect(jobFolder('/lib', 'simulator', 'job_1', day)).toBe(
      path.resolve('/lib/2026-11-22/simulator/job_1'),
    );
    expect(jobFolder('/lib', 'p', '../../escape', day).startsWith(path.resolve('/lib') + path.sep)).toBe(
      true,
    );
    expect(outputFileName(0, 'result_9', 'video/mp4')).toBe('1-result_9.mp4');
    expect(outputFileName(1, '../x', 'application/x-unknown')).toBe('2-_x.bin');
  });

  it('never gives two jobs one folder: profiles and ids are encoded injectively', () => {
    const day = Date.UTC(2026, 10, 22, 13);
    // pairs a lossy cleaning (or a case-insensitive file system) would merge
    const ids = [
      'a/b',
      'a_b',
      'a\\b',
      'A_b',
      'a%2Fb',
      'a.b',
      '.',
      '..',
      '',
      'con',
      'CON',
      'a b',
      'é',
      'e\u0301',
    ];
    const long = ['x'.repeat(300), `${'x'.repeat(299)}y`, `${'x'.repeat(120)}`];
    const segments = [...ids, ...long].map(injectiveSegment);
    expect(new Set(segments.map((s) => s.toLowerCase())).size).toBe(ids.length + long.length);
    for (const segment of segments) {
      expect(path.basename(segment)).toBe(segment);
      expect(['', '.', '..']).not.toContain(segment);
      expect(segment.length).toBeLessThanOrEqual(120);
      expect(/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(segment)).toBe(false);
    }
    expect(injectiveSegment('a/b')).toBe('a%2Fb');
    expect(injectiveSegment('a_b')).toBe('a_b');
    // the same job id under two profiles, or two profiles whose names clean alike
    const folders = [
      jobFolder('/lib', 'p/1', 'job', day),
      jobFolder('/lib', 'p_1', 'job', day),
      jobFolder('/lib', 'p_1', 'a/b', day),
      jobFolder('/lib', 'p_1', 'a_b', day),
    ];
    expect(new Set(folders).size).toBe(folders.length);
  });
});
