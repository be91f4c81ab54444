import { closeSync, fstatSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { redactValue } from '../secrets/redact-value.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface Logger {
  log(level: LogLevel, message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** Registers a secret so that it is replaced by "[redacted]" wherever it appears in a log line. */
  addSecret(secret: string): void;
}

const BEARER = /(Bearer\s+)[^\s"',]+/gi;

/** Redacts registered secrets and any bearer token from a string. */
export function redact(text: string, secrets: Iterable<string>): string {
  let out = text.replace(BEARER, '$1[redacted]');
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out;
}

function describeError(value: unknown): unknown {
  if (value instanceof Error) {
    const details = (value as { details?: unknown }).details;
    return {
      name: value.name,
      message: value.message,
      stack: value.stack,
      ...(details === undefined ? {} : { details }),
    };
  }
  return value;
}

/**
 * Appends lines to a log file through one open descriptor (a busy backend logs every request:
 * opening and closing the file for each line cost more than the line). The descriptor is opened
 * again when the file at the path is no longer the one it holds — rotated by this process or by
 * another on the same data folder, or removed — checked at most once a second and after a
 * rotation here. A log that cannot be written (its folder removed, a full disk) never fails the
 * operation being logged: the folder is recreated once; past that the line is dropped.
 */
class LogFile {
  private fd: number | undefined;
  private inode = 0;
  private checkedAt = 0;

  constructor(private readonly file: string) {}

  append(line: string): void {
    try {
      this.write(line);
    } catch {
      this.close();
      try {
        mkdirSync(path.dirname(this.file), { recursive: true });
        this.write(line);
      } catch {
        // dropped: logging is never a reason to fail
      }
    }
  }

  /** The file at the path changed (this process rotated it): the next line opens it again. */
  reopen(): void {
    this.close();
  }

  private write(line: string): void {
    const now = Date.now();
    if (this.fd !== undefined && now - this.checkedAt >= 1000) {
      this.checkedAt = now;
      let current = -1;
      try {
        current = statSync(this.file).ino;
      } catch {
        // removed: opened again below
      }
      if (current !== this.inode) this.close();
    }
    if (this.fd === undefined) {
      this.fd = openSync(this.file, 'a', 0o600);
      this.inode = fstatSync(this.fd).ino;
      this.checkedAt = now;
    }
    writeSync(this.fd, line + '\n');
  }

  private close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      // already closed
    }
    this.fd = undefined;
  }
}

/** Size bound of the log: past `maxBytes` the file becomes `<file>.1` (older ones shift up). */
export interface LogRotation {
  /** Largest size of one log file, in bytes (default 5 MiB). */
  maxBytes?: number;
  /** How many rotated files are kept besides the current one (default 3: `.1` … `.3`). */
  keep?: number;
}

export const DEFAULT_LOG_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_LOG_KEEP = 3;

/**
 * Keeps a log file under its size bound: the current size is tracked in memory and checked
 * against the file before a rotation (another process on the data folder may have rotated or
 * written meanwhile). Rotation failures are ignored like write failures: logging never fails.
 */
function sizeBoundedFile(
  file: string,
  rotation: LogRotation,
  rotated: () => void = () => undefined,
): (lineBytes: number) => void {
  const maxBytes = rotation.maxBytes ?? DEFAULT_LOG_MAX_BYTES;
  const keep = Math.max(1, rotation.keep ?? DEFAULT_LOG_KEEP);
  const currentSize = () => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  };
  let size = currentSize();
  return (lineBytes) => {
    if (size + lineBytes > maxBytes) {
      size = currentSize();
      if (size > 0 && size + lineBytes > maxBytes) {
        try {
          rmSync(`${file}.${keep}`, { force: true });
          for (let n = keep - 1; n >= 1; n -= 1) {
            try {
              renameSync(`${file}.${n}`, `${file}.${n + 1}`);
            } catch {
              // that generation does not exist yet
            }
          }
          renameSync(file, `${file}.1`);
          rotated();
        } catch {
          // another process rotated it first, or the folder is gone: the append handles it
        }
        size = 0;
      }
    }
    size += lineBytes;
  };
}

/** How an echoed line reads: the JSON line itself, or a person's form (a terminal). */
export type EchoFormat = 'json' | 'readable';

/**
 * A JSON log line as a person reads it at a terminal: `12:00:01.234 INFO  request method=GET …`
 * (values that are not plain words are JSON-quoted). Anything that is not such a line is kept.
 */
export function readableLine(jsonLine: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(jsonLine) as Record<string, unknown>;
  } catch {
    return jsonLine;
  }
  const { time, level, message, ...fields } = entry;
  const clock = typeof time === 'string' ? time.slice(11, 23) : '';
  const rest = Object.entries(fields).map(([key, value]) => {
    const text = typeof value === 'string' && /^[\w./:@+-]*$/.test(value) ? value : JSON.stringify(value);
    return `${key}=${text}`;
  });
  return [clock, String(level).toUpperCase().padEnd(5), String(message), ...rest].join(' ').trim();
}

/**
 * JSON-lines logger for the core. Every line passes through `redact`, so a key that reached an
 * error message by accident still never reaches the log file. The file is size-bounded: it
 * rotates to `<file>.1` … `<file>.<keep>` (see {@link LogRotation}). `echo` also hears each line,
 * as JSON or (`echoFormat: 'readable'`) as {@link readableLine}, redacted the same.
 */
export function createLogger(
  options: {
    file?: string;
    echo?: (line: string) => void;
    echoFormat?: EchoFormat;
    rotation?: LogRotation;
  } = {},
): Logger {
  const secrets = new Set<string>();
  if (options.file) mkdirSync(path.dirname(options.file), { recursive: true });
  const logFile = options.file ? new LogFile(options.file) : undefined;
  const beforeAppend = options.file
    ? sizeBoundedFile(options.file, options.rotation ?? {}, () => logFile?.reopen())
    : undefined;
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) entry[key] = describeError(value);
    }
    // values first (a key with `"` or `\` is escaped once serialised), then the line (bearer tokens)
    const line = redact(JSON.stringify(redactValue(entry, secrets)), secrets);
    if (options.file) {
      beforeAppend!(Buffer.byteLength(line) + 1);
      logFile!.append(line);
    }
    options.echo?.(options.echoFormat === 'readable' ? readableLine(line) : line);
  };
  return {
    log: write,
    info: (m, f) => write('info', m, f),
    warn: (m, f) => write('warn', m, f),
    error: (m, f) => write('error', m, f),
    addSecret: (secret) => {
      if (secret) secrets.add(secret);
    },
  };
}
