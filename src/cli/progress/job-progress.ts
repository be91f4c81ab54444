import { formatDuration } from '../../shared/format-duration.js';

/**
 * Live progress of jobs on stderr, for every command that waits on jobs (`video`, `image`,
 * `batch`, `resume`, and the `sequence` commands).
 *
 * - On a terminal: one live line per job, rewritten in place (ANSI cursor movement; several jobs,
 *   several lines): what it is doing, for how long, upload and download bytes with their rate,
 *   and the time to the next poll. Redrawn at each change (at most every `minIntervalMs`) and
 *   every second for the clocks. A finished job's line is printed once, above the live ones.
 * - Elsewhere (a pipe, a file, CI): one plain line per change of what a job is doing (its status,
 *   stage, a transfer starting or ending); never an escape code, never a line per tick or byte.
 *
 * ```ts
 * const progress = createJobProgress({ stream: process.stderr, isTTY: process.stderr.isTTY });
 * progress.track('row 2');
 * progress.update('row 2', { stage: 'upload frame.png', upload: { sentBytes, totalBytes } });
 * progress.done('row 2', 'row 2 succeeded');
 * progress.close();
 * ```
 */
export interface JobProgress {
  /** Starts a job's line (its elapsed time counts from now); `update` of an unknown label does too. */
  track(label: string): void;
  /** What changed for a job; fields left out keep their value (null clears). */
  update(label: string, change: JobProgressChange): void;
  /**
   * The job ended: its line leaves the live block. `finalText` is printed in its place; left out,
   * the job's last line is; null prints nothing. Unknown or finished labels are ignored.
   */
  done(label: string, finalText?: string | null): void;
  /** Writes something else (stdout lines) without tearing the live block: cleared, written, redrawn. */
  above(write: () => void): void;
  /** Stops the clock; lines still live stay on screen as they are. */
  close(): void;
}

export interface JobProgressChange {
  /** The service's job id, once accepted. */
  jobId?: string | null;
  /** The job's status (queued, running, succeeded, …). */
  status?: string | null;
  /** What it is doing: a step of ours (discovery, upload x.png, create, download) or the service's stage. */
  stage?: string | null;
  /** The bytes of the upload in progress (a new file starts again from 0). */
  upload?: Transfer | null;
  /** The bytes of the result's download (all outputs together). */
  download?: Transfer | null;
  /** When the next poll is due (epoch ms). */
  nextPollAt?: number | null;
}

export interface Transfer {
  bytes: number;
  totalBytes: number | null;
}

export interface JobProgressOptions {
  stream: { write(text: string): unknown; columns?: number };
  /** Whether `stream` is a terminal (`process.stderr.isTTY`). */
  isTTY: boolean;
  now?: () => number;
  /** Least time between two redraws caused by changes (default 100 ms; clocks tick every second). */
  minIntervalMs?: number;
  /** Redraw period for the clocks (default 1000 ms; 0: none). */
  tickMs?: number;
}

/** Rate window: the bytes of the last few seconds. */
const RATE_WINDOW_MS = 3_000;

interface TransferState extends Transfer {
  samples: { at: number; bytes: number }[];
}

interface JobLine {
  label: string;
  startedAt: number;
  stageStartedAt: number;
  jobId: string | null;
  status: string | null;
  stage: string | null;
  upload: TransferState | null;
  download: TransferState | null;
  nextPollAt: number | null;
  /** What a plain line is printed for: status, stage, and each transfer's phase. */
  lastPlainKey: string | null;
}

const ESC = '\x1b[';

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

function rateOf(transfer: TransferState): number | null {
  const first = transfer.samples[0];
  const last = transfer.samples.at(-1);
  if (!first || !last || last.at - first.at < 200) return null;
  return ((last.bytes - first.bytes) * 1000) / (last.at - first.at);
}

function transferText(arrow: string, transfer: TransferState): string {
  const size = `${formatBytes(transfer.bytes)}${transfer.totalBytes !== null ? `/${formatBytes(transfer.totalBytes)}` : ''}`;
  const rate = rateOf(transfer);
  return `${arrow} ${size}${rate !== null ? ` ${formatBytes(Math.round(rate))}/s` : ''}`;
}

const phase = (t: TransferState | null) =>
  t === null ? '-' : t.totalBytes !== null && t.bytes >= t.totalBytes ? 'complete' : 'active';

export function createJobProgress(options: JobProgressOptions): JobProgress {
  const now = options.now ?? Date.now;
  const minInterval = options.minIntervalMs ?? 100;
  const tickMs = options.tickMs ?? 1_000;
  const { stream, isTTY } = options;
  const lines = new Map<string, JobLine>();
  let drawn = 0;
  let lastDraw = 0;
  let pending: ReturnType<typeof setTimeout> | null = null;
  let ticker: ReturnType<typeof setInterval> | null = null;
  let closed = false;
  /** Inside `above`: the block is off screen until the caller's write is done. */
  let suspended = false;

  const text = (line: JobLine, live: boolean): string => {
    const t = now();
    const parts = [line.label];
    if (line.jobId) parts.push(line.jobId);
    const doing = [line.status, line.stage && line.stage !== line.status ? line.stage : null]
      .filter(Boolean)
      .join(': ');
    if (doing) parts.push(`${doing}${live ? ` ${formatDuration((t - line.stageStartedAt) / 1000)}` : ''}`);
    parts.push(`elapsed ${formatDuration((t - line.startedAt) / 1000)}`);
    if (line.upload) parts.push(transferText('↑', line.upload));
    if (line.download) parts.push(transferText('↓', line.download));
    if (live && line.nextPollAt !== null)
      parts.push(
        line.nextPollAt > t ? `next poll in ${formatDuration((line.nextPollAt - t) / 1000)}` : 'polling',
      );
    return parts.join(' · ');
  };

  const fit = (s: string): string => {
    const width = stream.columns;
    // a wrapped line would break the cursor arithmetic: cut it to the terminal's width
    return width && width > 1 && s.length >= width ? `${s.slice(0, width - 2)}…` : s;
  };

  /** Cursor back to the first live line, and everything below erased. */
  const clearing = (): string => (drawn > 0 ? `${ESC}${drawn}A\r${ESC}J` : '');

  const block = (): string => {
    const live = [...lines.values()];
    drawn = live.length;
    return live.map((line) => `${fit(text(line, true))}\n`).join('');
  };

  const draw = () => {
    if (pending) {
      clearTimeout(pending);
      pending = null;
    }
    if (closed || suspended) return;
    lastDraw = now();
    stream.write(clearing() + block());
  };

  const scheduleDraw = () => {
    if (pending || closed) return;
    const wait = minInterval - (now() - lastDraw);
    if (wait <= 0) draw();
    else pending = setTimeout(draw, wait);
  };

  const ensureTicker = () => {
    if (!isTTY || ticker || closed || tickMs <= 0) return;
    ticker = setInterval(() => {
      if (lines.size > 0) draw();
    }, tickMs);
    ticker.unref?.();
  };

  const get = (label: string): JobLine => {
    let line = lines.get(label);
    if (!line) {
      const t = now();
      line = {
        label,
        startedAt: t,
        stageStartedAt: t,
        jobId: null,
        status: null,
        stage: null,
        upload: null,
        download: null,
        nextPollAt: null,
        lastPlainKey: null,
      };
      lines.set(label, line);
      ensureTicker();
    }
    return line;
  };

  const applyTransfer = (current: TransferState | null, next: Transfer | null): TransferState | null => {
    if (next === null) return null;
    const at = now();
    // a smaller count is a new transfer (the next file): its rate starts again
    const samples =
      current && next.bytes >= current.bytes
        ? [...current.samples.filter((s) => at - s.at <= RATE_WINDOW_MS), { at, bytes: next.bytes }]
        : [{ at, bytes: next.bytes }];
    return { bytes: next.bytes, totalBytes: next.totalBytes, samples };
  };

  const plainKey = (line: JobLine) =>
    [line.jobId, line.status, line.stage, phase(line.upload), phase(line.download)].join('|');

  return {
    track(label) {
      if (closed) return;
      get(label);
      if (isTTY) scheduleDraw();
    },

    update(label, change) {
      if (closed) return;
      const line = get(label);
      if (change.jobId !== undefined) line.jobId = change.jobId;
      const stageBefore = `${line.status}|${line.stage}`;
      if (change.status !== undefined) line.status = change.status;
      if (change.stage !== undefined) line.stage = change.stage;
      if (`${line.status}|${line.stage}` !== stageBefore) line.stageStartedAt = now();
      if (change.upload !== undefined) line.upload = applyTransfer(line.upload, change.upload);
      if (change.download !== undefined) line.download = applyTransfer(line.download, change.download);
      if (change.nextPollAt !== undefined) line.nextPollAt = change.nextPollAt;
      if (isTTY) {
        scheduleDraw();
        return;
      }
      const key = plainKey(line);
      if (key === line.lastPlainKey) return;
      line.lastPlainKey = key;
      stream.write(`${text(line, false)}\n`);
    },

    done(label, finalText) {
      const line = lines.get(label);
      if (!line || closed) return;
      const final = finalText === undefined ? text(line, false) : finalText;
      if (isTTY) {
        const clear = clearing();
        lines.delete(label);
        lastDraw = now();
        stream.write(clear + (final === null ? '' : `${fit(final)}\n`) + (suspended ? '' : block()));
      } else {
        lines.delete(label);
        // the job's last line is already printed unless something changed since
        const repeat = finalText === undefined && plainKey(line) === line.lastPlainKey;
        if (final !== null && !repeat) stream.write(`${final}\n`);
      }
    },

    above(write) {
      if (!isTTY || closed || drawn === 0) {
        write();
        return;
      }
      stream.write(clearing());
      drawn = 0;
      suspended = true;
      try {
        write();
      } finally {
        suspended = false;
        stream.write(block());
      }
    },

    close() {
      if (closed) return;
      if (isTTY && lines.size > 0) draw();
      closed = true;
      if (pending) clearTimeout(pending);
      if (ticker) clearInterval(ticker);
      pending = null;
      ticker = null;
    },
  };
}
