/** Option parsers the command declarations share (loaded at every start, so nothing heavy here). */

/** A repeatable option: each occurrence appends its value. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];
