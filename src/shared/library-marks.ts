/**
 * Marks on a library result (issue 41), import-free so the renderer's keys, the core's journal
 * and the CLI's options read one vocabulary: a flag (pick or reject; none is "unmarked"), 0–5
 * stars (0: unrated) and a colour label. They live in the journal and in the result's
 * `framewright.json` sidecar, so `library reindex` restores them.
 */
export const MARK_FLAGS = ['pick', 'reject'] as const;
export type MarkFlag = (typeof MARK_FLAGS)[number];

export const MARK_LABELS = ['red', 'yellow', 'green', 'blue', 'purple'] as const;
export type MarkLabel = (typeof MARK_LABELS)[number];

export const MAX_STARS = 5;

export interface JobMarks {
  flag: MarkFlag | null;
  stars: number;
  label: MarkLabel | null;
}

/** A result nobody marked. */
export const NO_MARKS: JobMarks = Object.freeze({ flag: null, stars: 0, label: null });

/** What the Library filters by: a flag, or none ("unmarked"). */
export const MARK_FLAG_FILTERS = ['pick', 'reject', 'unmarked'] as const;
export type MarkFlagFilter = (typeof MARK_FLAG_FILTERS)[number];

/** How the Library orders what it shows: newest first (a collection: its own order), or by rating. */
export const LIBRARY_SORTS = ['newest', 'rating'] as const;
export type LibrarySort = (typeof LIBRARY_SORTS)[number];

const FLAG_RANK = { pick: 0, none: 1, reject: 2 } as const;

/**
 * Orders by rating: more stars first, then picks before the unflagged before rejects; otherwise
 * the order given is kept (stable).
 */
export function byRating<T extends { marks: JobMarks }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort(
      (a, b) =>
        b.item.marks.stars - a.item.marks.stars ||
        FLAG_RANK[a.item.marks.flag ?? 'none'] - FLAG_RANK[b.item.marks.flag ?? 'none'] ||
        a.index - b.index,
    )
    .map(({ item }) => item);
}
