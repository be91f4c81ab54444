/** Keyset pagination: the cursor is the journal id of the last row of the previous page. */

export interface Page<T> {
  readonly items: T[];
  /** Pass back as `cursor` for the next (older) page; absent on the last page. */
  readonly nextCursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

/** The keyset bound of a first page: above any id a journal row gets (cursors hold 15 digits). */
export const FIRST_PAGE_BEFORE = Number.MAX_SAFE_INTEGER;

export function encodeCursor(id: number): string {
  return Buffer.from(`v1:${id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^v1:(\d{1,15})$/.exec(text);
  if (!match)
    throw new RangeError('Invalid page cursor (it must be a nextCursor returned by a previous page).');
  return Number(match[1]);
}

export function pageSize(limit: number | undefined): number {
  const size = limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) {
    throw new RangeError(`Page size must be an integer from 1 to ${MAX_PAGE_SIZE} (got ${size}).`);
  }
  return size;
}

/** Turns `limit + 1` fetched rows into a page. */
export function toPage<R extends { id: number }, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const last = kept.at(-1);
  return more && last
    ? { items: kept.map(map), nextCursor: encodeCursor(last.id) }
    : { items: kept.map(map) };
}
