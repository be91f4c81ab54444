import { appendFileSync, mkdirSync } from 'node:fs';
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
 * Appends one line; a log that cannot be written (its folder removed, a full disk) never fails
 * the operation being logged. The folder is recreated once; past that the line is dropped.
 */
function appendLine(file: string, line: string): void {
  try {
    appendFileSync(file, line + '\n', { mode: 0o600 });
  } catch {
    try {
      mkdirSync(path.dirname(file), { recursive: true });
      appendFileSync(file, line + '\n', { mode: 0o600 });
    } catch {
      // dropped: logging is never a reason to fail
    }
  }
}

/**
 * JSON-lines logger for the core. Every line passes through `redact`, so a key that reached an
 * error message by accident still never reaches the log file.
 */
export function createLogger(options: { file?: string; echo?: (line: string) => void } = {}): Logger {
  const secrets = new Set<string>();
  if (options.file) mkdirSync(path.dirname(options.file), { recursive: true });
  const write = (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, message };
    if (fields) {
      for (const [key, value] of Object.entries(fields)) entry[key] = describeError(value);
    }
    // values first (a key with `"` or `\` is escaped once serialised), then the line (bearer tokens)
    const line = redact(JSON.stringify(redactValue(entry, secrets)), secrets);
    if (options.file) appendLine(options.file, line);
    options.echo?.(line);
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
