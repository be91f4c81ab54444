/**
 * Which parts of an image archive still go to the platform, from the import session just read
 * (section E, "Image import order") and the parts the journal recorded.
 *
 * - A part the journal recorded and the session lists with the same ETag is done: never sent again.
 * - A part the session lists but the journal does not (the answer was lost with a dropped
 *   connection, or the process died before writing it down) is adopted from the session: the
 *   platform has its bytes, so they are not sent again either.
 * - A part the journal recorded but the session does not list (the platform lost it) is sent again:
 *   `complete` must name only parts the platform holds.
 * - Any other part is sent, to the URL of this read (URLs are short-lived: never reused from an
 *   earlier read, never stored).
 */

export interface SessionParts {
  partSizeBytes: number;
  partCount: number;
  uploadParts: { partNumber: number; url: string; method: string; sizeBytes?: number | undefined }[];
  uploadedParts: { partNumber: number; etag: string; sizeBytes: number }[];
}

export interface RecordedPart {
  partNumber: number;
  etag: string;
  sizeBytes: number;
}

export type PlannedPart =
  | { partNumber: number; offset: number; sizeBytes: number; action: 'done'; etag: string }
  | { partNumber: number; offset: number; sizeBytes: number; action: 'adopt'; etag: string }
  | {
      partNumber: number;
      offset: number;
      sizeBytes: number;
      action: 'send';
      url: string;
      method: string;
    };

export class PartPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartPlanError';
  }
}

/** The byte range of each part of a file of `fileSize` bytes cut into `partSizeBytes` parts. */
export function partRanges(
  fileSize: number,
  partSizeBytes: number,
): { partNumber: number; offset: number; sizeBytes: number }[] {
  if (!Number.isInteger(partSizeBytes) || partSizeBytes <= 0)
    throw new PartPlanError('The part size is not a positive whole number of bytes.');
  const count = Math.max(1, Math.ceil(fileSize / partSizeBytes));
  return Array.from({ length: count }, (_, i) => {
    const offset = i * partSizeBytes;
    return { partNumber: i + 1, offset, sizeBytes: Math.min(partSizeBytes, fileSize - offset) };
  });
}

export function planParts(
  fileSize: number,
  session: SessionParts,
  recorded: readonly RecordedPart[],
): PlannedPart[] {
  const ranges = partRanges(fileSize, session.partSizeBytes);
  if (ranges.length !== session.partCount)
    throw new PartPlanError(
      `The import session expects ${session.partCount} parts of ${session.partSizeBytes} bytes, but the file makes ${ranges.length}: it is not the file this session was opened for.`,
    );
  return ranges.map((range) => {
    const onPlatform = session.uploadedParts.find((p) => p.partNumber === range.partNumber);
    const mine = recorded.find((p) => p.partNumber === range.partNumber);
    if (onPlatform && onPlatform.sizeBytes === range.sizeBytes) {
      if (mine && mine.etag === onPlatform.etag && mine.sizeBytes === range.sizeBytes)
        return { ...range, action: 'done' as const, etag: mine.etag };
      return { ...range, action: 'adopt' as const, etag: onPlatform.etag };
    }
    const target = session.uploadParts.find((p) => p.partNumber === range.partNumber);
    if (!target)
      throw new PartPlanError(`The import session gives no upload address for part ${range.partNumber}.`);
    if (target.sizeBytes !== undefined && target.sizeBytes !== range.sizeBytes)
      throw new PartPlanError(
        `The import session expects part ${range.partNumber} to be ${target.sizeBytes} bytes, the file gives ${range.sizeBytes}.`,
      );
    return { ...range, action: 'send' as const, url: target.url, method: target.method };
  });
}
