import { createHash } from 'node:crypto';
import { parse as parseCsv, CsvError } from 'csv-parse/sync';
import { AppError } from '../errors.js';
import { CSV_COLUMNS } from './batch-vocabulary.js';

export { CSV_COLUMNS };
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** One row of a batch file, as written: `row` is the 1-based line on which it starts. */
export interface BatchFileRow {
  row: number;
  prompt: string;
  /** Only the columns this row fills (a CSV cell that is empty falls back to the command line). */
  overrides: Partial<Record<Exclude<CsvColumn, 'prompt'>, string>>;
}

/**
 * TXT: one prompt per line; empty (or blank) lines and lines starting with `#` are skipped. The
 * prompt is the line exactly as written (only the line break is removed).
 */
export function parseTxtBatch(text: string): BatchFileRow[] {
  const rows: BatchFileRow[] = [];
  const lines = stripBom(text).split(/\r\n|\n|\r/);
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.startsWith('#')) return;
    rows.push({ row: index + 1, prompt: line, overrides: {} });
  });
  return rows;
}

/**
 * CSV with a header row (RFC 4180 quoting: commas, quotes and line breaks inside quoted fields).
 * Column `prompt` is required; the others are in {@link CSV_COLUMNS}. Unknown columns are refused
 * (a misspelt `secnds` must not silently fall back to the default).
 */
export function parseCsvBatch(text: string, fileName: string): BatchFileRow[] {
  let records: string[][];
  try {
    records = parseCsv(text, {
      bom: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
    }) as string[][];
  } catch (error) {
    if (error instanceof CsvError) {
      const line = (error as CsvError & { lines?: number }).lines;
      throw new AppError(
        'file.invalid_csv',
        `${fileName}${line ? `, line ${line}` : ''}: not a readable CSV file (${error.message}).`,
      );
    }
    throw error;
  }
  if (records.length === 0) throw new AppError('file.invalid_csv', `${fileName} is empty.`);
  const header = records[0]!.map((name) => name.trim().toLowerCase());
  const unknown = header.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new AppError(
      'file.invalid_csv',
      `${fileName}: unknown column${unknown.length === 1 ? '' : 's'} ${unknown.map((u) => `"${u}"`).join(', ')}; the columns are ${CSV_COLUMNS.join(', ')}.`,
    );
  }
  const duplicated = header.filter((name, i) => header.indexOf(name) !== i);
  if (duplicated.length > 0)
    throw new AppError('file.invalid_csv', `${fileName}: column "${duplicated[0]}" appears twice.`);
  if (!header.includes('prompt'))
    throw new AppError('file.invalid_csv', `${fileName}: the header row has no "prompt" column.`);

  const starts = recordStartLines(stripBom(text));
  // csv-parse and the scan agree on a well-formed file; if not, fall back to record numbers.
  const lineOf = (index: number) => (starts.length === records.length ? starts[index]! : index + 1);
  const rows: BatchFileRow[] = [];
  for (let i = 1; i < records.length; i += 1) {
    const record = records[i]!;
    const overrides: BatchFileRow['overrides'] = {};
    let prompt = '';
    header.forEach((name, column) => {
      const value = record[column] ?? '';
      if (name === 'prompt') prompt = value;
      else if (value.trim() !== '') overrides[name as Exclude<CsvColumn, 'prompt'>] = value.trim();
    });
    rows.push({ row: lineOf(i), prompt, overrides });
  }
  return rows;
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The 1-based line on which each non-empty CSV record starts, as an editor shows it (a quoted
 * field may span lines). Only used for numbering; the fields come from csv-parse.
 */
function recordStartLines(text: string): number[] {
  const starts: number[] = [];
  let line = 1;
  let inQuotes = false;
  let atRecordStart = true;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    const lineBreak = c === '\n' || (c === '\r' && text[i + 1] !== '\n');
    if (atRecordStart && c !== '\n' && c !== '\r') {
      starts.push(line);
      atRecordStart = false;
    }
    if (c === '"') inQuotes = !inQuotes;
    if (lineBreak) {
      line += 1;
      if (!inQuotes) atRecordStart = true;
    }
  }
  return starts;
}

/** A row's draft in canonical form: frame files by the sha256 of their content, never by path. */
export interface CanonicalBatchDraft {
  model: string;
  generationMode: string;
  prompt: string;
  seconds: number;
  orientation: string;
  resolutionTier: string;
  seed: number | null;
  firstFrameSha256: string | null;
  lastFrameSha256: string | null;
}

/** The same canonical draft always serializes to the same bytes (fixed key order). */
export function canonicalDraftJson(draft: CanonicalBatchDraft): string {
  return JSON.stringify([
    draft.model,
    draft.generationMode,
    draft.prompt,
    draft.seconds,
    draft.orientation,
    draft.resolutionTier,
    draft.seed,
    draft.firstFrameSha256,
    draft.lastFrameSha256,
  ]);
}

export const BATCH_KEY_PREFIX = 'fw-batch-';

/**
 * The row's Idempotency-Key: `fw-batch-` + the full hex sha256 (73 visible ASCII characters; the
 * journal and the service accept up to 255) over the profile, the optional run label and the
 * canonical draft. The same row of the same file for the same profile always gets the same key,
 * so a re-run never creates a second job; a new run label is a new business intent.
 */
export function batchIdempotencyKey(
  profileId: string,
  runLabel: string | undefined,
  draft: CanonicalBatchDraft,
): string {
  const material =
    JSON.stringify(['framewright-batch/1', profileId, runLabel ?? null]) + canonicalDraftJson(draft);
  return BATCH_KEY_PREFIX + createHash('sha256').update(material, 'utf8').digest('hex');
}

/**
 * Refusals that created nothing and are fixed outside the row: the key (401/403) or the balance
 * (402). A row refused for one of these is sent again on the next run, under its next attempt
 * key; a row refused for its content (400/404/409/422…) stays refused until the row changes.
 */
const REFUSALS_FIXED_ELSEWHERE: ReadonlySet<number> = new Set([401, 402, 403]);

/**
 * The key a row is sent under in this run: its base key, or `base.2`, `base.3`, … after earlier
 * attempts were refused with 401/402/403 (nothing was created, so a new key cannot double a job).
 * Deterministic over the journal, so a re-run finds the same attempt again.
 */
export function attemptKey(
  intents: { getIntent(key: string): { state: string; statusCode?: number } | undefined },
  baseKey: string,
): string {
  for (let attempt = 1; ; attempt += 1) {
    const key = attempt === 1 ? baseKey : `${baseKey}.${attempt}`;
    const intent = intents.getIntent(key);
    if (
      !intent ||
      intent.state !== 'rejected' ||
      intent.statusCode === undefined ||
      !REFUSALS_FIXED_ELSEWHERE.has(intent.statusCode)
    )
      return key;
  }
}
