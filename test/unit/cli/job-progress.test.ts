import { afterEach, describe, expect, it, vi } from 'vitest';
import { createJobProgress, formatBytes } from '../../../src/cli/progress/job-progress.js';
import { ESC, terminalScreen } from '../../support/terminal-screen.js';

/** What a stream received, and a clock the test moves. */
function harness(isTTY: boolean, columns?: number) {
  const clock = { now: 1_000_000 };
  const writes: string[] = [];
  const progress = createJobProgress({
    stream: { write: (text: string) => writes.push(text), columns },
    isTTY,
    now: () => clock.now,
    minIntervalMs: 0,
    tickMs: 0,
  });
  return { clock, writes, progress, output: () => writes.join('') };
}

afterEach(() => vi.useRealTimers());

describe('live progress on a terminal', () => {
  it('keeps one line per job, rewritten in place: stage, elapsed, upload and download bytes with rate, next poll', () => {
    const { clock, progress, output, writes } = harness(true);
    progress.track('row 2');
    progress.track('row 3');
    progress.update('row 2', { stage: 'upload fox.png', upload: { bytes: 0, totalBytes: 4 * 1024 * 1024 } });
    clock.now += 1_000;
    progress.update('row 2', { upload: { bytes: 2 * 1024 * 1024, totalBytes: 4 * 1024 * 1024 } });
    progress.update('row 3', {
      jobId: 'job_3',
      status: 'running',
      stage: 'generating',
      nextPollAt: clock.now + 4_000,
    });
    clock.now += 2_000;
    progress.update('row 3', {
      status: 'succeeded',
      stage: 'download',
      download: { bytes: 0, totalBytes: 1024 * 1024 },
    });
    clock.now += 500;
    progress.update('row 3', { download: { bytes: 512 * 1024, totalBytes: 1024 * 1024 }, nextPollAt: null });

    expect(terminalScreen(output())).toEqual([
      'row 2 · upload fox.png 3s · elapsed 3s · ↑ 2.0 MiB/4.0 MiB 2.0 MiB/s',
      'row 3 · job_3 · succeeded: download 0s · elapsed 3s · ↓ 512 KiB/1.0 MiB 1.0 MiB/s',
    ]);
    // each redraw goes back up over the two live lines and erases them: rewritten, never appended
    expect(writes.slice(2).every((w) => w.startsWith('\x1b[2A\r\x1b[J'))).toBe(true);
    expect(writes.length).toBeGreaterThan(4);
  });

  it('counts down to the next poll and says when a poll is due', () => {
    const { clock, progress, output } = harness(true);
    progress.update('video', {
      jobId: 'job_1',
      status: 'queued',
      stage: 'queued',
      nextPollAt: clock.now + 5_000,
    });
    clock.now += 2_000;
    progress.update('video', {});
    expect(terminalScreen(output())).toEqual(['video · job_1 · queued 2s · elapsed 2s · next poll in 3s']);
    clock.now += 4_000;
    progress.update('video', {});
    expect(terminalScreen(output())).toEqual(['video · job_1 · queued 6s · elapsed 6s · polling']);
  });

  it('ticks every second for the clocks while a job is live', () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const writes: string[] = [];
    const progress = createJobProgress({ stream: { write: (t: string) => writes.push(t) }, isTTY: true });
    progress.update('video', { stage: 'create' });
    vi.advanceTimersByTime(3_000);
    expect(terminalScreen(writes.join(''))).toEqual(['video · create 3s · elapsed 3s']);
    progress.close();
    const after = writes.length;
    vi.advanceTimersByTime(5_000);
    expect(writes.length).toBe(after);
  });

  it('a finished job is printed once above the live lines; other output goes above them too', () => {
    const { clock, progress, output, writes } = harness(true);
    progress.update('row 2', { stage: 'create' });
    progress.update('row 3', { stage: 'create' });
    clock.now += 1_000;
    progress.done('row 2', 'row 2 succeeded');
    // a job that starts while something is written above joins the block afterwards, once
    progress.above(() => progress.update('row 4', { stage: 'create' }));
    expect(terminalScreen(output())).toEqual([
      'row 2 succeeded',
      'row 3 · create 1s · elapsed 1s',
      'row 4 · create 0s · elapsed 0s',
    ]);
    progress.done('row 4', null);
    // stdout on the same terminal (batch's row lines): above the live lines, which stay whole
    progress.above(() => writes.push('row 5  duplicate of row 2\n'));
    expect(terminalScreen(output())).toEqual([
      'row 2 succeeded',
      'row 5  duplicate of row 2',
      'row 3 · create 1s · elapsed 1s',
    ]);
    progress.done('row 3');
    expect(terminalScreen(output())).toEqual([
      'row 2 succeeded',
      'row 5  duplicate of row 2',
      'row 3 · create · elapsed 1s',
    ]);
  });

  it('cuts a line to the terminal width (a wrapped line would break the rewriting)', () => {
    const { progress, output } = harness(true, 20);
    progress.update('row 12', { stage: 'upload a-very-long-file-name.png' });
    const [line] = terminalScreen(output());
    expect(line).toHaveLength(19);
    expect(line!.endsWith('…')).toBe(true);
  });
});

describe('progress elsewhere (a pipe, a file)', () => {
  it('prints a plain line at each change only: no escape code, no line per byte or tick', () => {
    const { clock, progress, output } = harness(false);
    progress.track('video');
    progress.update('video', { stage: 'discovery' });
    progress.update('video', { stage: 'upload fox.png', upload: { bytes: 0, totalBytes: 2048 } });
    for (let sent = 256; sent < 2048; sent += 256) {
      clock.now += 100;
      progress.update('video', { upload: { bytes: sent, totalBytes: 2048 } });
    }
    progress.update('video', { upload: { bytes: 2048, totalBytes: 2048 } });
    progress.update('video', { stage: 'create' });
    progress.update('video', {
      jobId: 'job_1',
      status: 'queued',
      stage: 'queued',
      nextPollAt: clock.now + 2_000,
    });
    progress.update('video', { nextPollAt: clock.now + 4_000 }); // a new poll time is no change to print
    progress.update('video', { status: 'running', stage: 'generating' });
    progress.done('video'); // its last line was printed already
    progress.close();
    const text = output();
    expect(text).not.toContain(ESC);
    expect(text.split('\n').filter(Boolean)).toEqual([
      'video · discovery · elapsed 0s',
      'video · upload fox.png · elapsed 0s · ↑ 0 B/2.0 KiB',
      'video · upload fox.png · elapsed 0s · ↑ 2.0 KiB/2.0 KiB 2.9 KiB/s',
      'video · create · elapsed 0s · ↑ 2.0 KiB/2.0 KiB 2.9 KiB/s',
      'video · job_1 · queued · elapsed 0s · ↑ 2.0 KiB/2.0 KiB 2.9 KiB/s',
      'video · job_1 · running: generating · elapsed 0s · ↑ 2.0 KiB/2.0 KiB 2.9 KiB/s',
    ]);
  });

  it('prints a final text given to done, and what is written "above" as is', () => {
    const { progress, output } = harness(false);
    progress.update('row 2', { stage: 'create' });
    progress.above(() => progress.update('row 3', { stage: 'create' }));
    progress.done('row 2', 'row 2 succeeded');
    progress.done('row 3', null);
    expect(output()).toBe('row 2 · create · elapsed 0s\nrow 3 · create · elapsed 0s\nrow 2 succeeded\n');
  });
});

it('formats bytes in binary units', () => {
  expect([0, 1023, 1024, 1536, 5 * 1024 ** 2, 300 * 1024 ** 3].map(formatBytes)).toEqual([
    '0 B',
    '1023 B',
    '1.0 KiB',
    '1.5 KiB',
    '5.0 MiB',
    '300 GiB',
  ]);
});
