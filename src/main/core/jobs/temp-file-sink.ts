import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';

/**
 * Bytes the sink takes before it stops asking for more: the network keeps being read while one
 * batch is on its way to the disk, and the chunks that arrive meanwhile go out in one `writev`.
 */
export const SINK_HIGH_WATER_MARK = 4 * 1024 * 1024;

/**
 * Every this many bytes written, the written part is flushed to the disk (`fdatasync`) while the
 * transfer goes on, so the durable write overlaps the download and the final `fsync` only has the
 * tail left to flush.
 */
export const SINK_SYNC_EVERY_BYTES = 16 * 1024 * 1024;

/**
 * A temporary file as a Writable: chunks are written as they come, batched into one `writev` while
 * a write is in flight (no copying, no concatenation), flushed to the disk in steps during the
 * transfer and `fsync`ed before `finish`, so once a pipeline into it resolves the bytes are durable
 * and may be renamed into place. The file is closed on finish and on error alike.
 */
export class TempFileSink extends Writable {
  /** Bytes the disk has taken so far (a write counts once it completes). */
  bytesWritten = 0;
  private handle: FileHandle | undefined;
  private sinceSync = 0;
  private pendingSync: Promise<void> | undefined;
  /** A failed step flush: raised by the next write or the final sync (never swallowed). */
  private syncError: Error | undefined;

  constructor(
    private readonly filePath: string,
    private readonly mode = 0o644,
  ) {
    super({ highWaterMark: SINK_HIGH_WATER_MARK });
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.filePath, 'w', this.mode).then(
      (handle) => {
        this.handle = handle;
        callback();
      },
      (error: Error) => callback(error),
    );
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeBatch([chunk], callback);
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    this.writeBatch(
      chunks.map((c) => c.chunk),
      callback,
    );
  }

  private writeBatch(buffers: Buffer[], callback: (error?: Error | null) => void): void {
    this.writeAll(buffers).then(() => callback(), callback);
  }

  private async writeAll(buffers: Buffer[]): Promise<void> {
    const handle = this.handle!;
    if (this.syncError) throw this.syncError;
    let rest = buffers;
    while (rest.length > 0) {
      const { bytesWritten } = await handle.writev(rest);
      this.bytesWritten += bytesWritten;
      this.sinceSync += bytesWritten;
      rest = remainderAfter(rest, bytesWritten);
    }
    if (this.sinceSync >= SINK_SYNC_EVERY_BYTES && !this.pendingSync) {
      this.sinceSync = 0;
      // not awaited: the disk flushes what is written while the next bytes arrive; an error is
      // kept and raised by the next write or by the final sync
      this.pendingSync = handle.datasync().then(
        () => {
          this.pendingSync = undefined;
        },
        (error: Error) => {
          this.pendingSync = undefined;
          this.syncError = error;
        },
      );
    }
  }

  override _final(callback: (error?: Error | null) => void): void {
    const handle = this.handle!;
    Promise.resolve(this.pendingSync)
      .then(() => {
        if (this.syncError) throw this.syncError;
        return handle.sync();
      })
      .then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const handle = this.handle;
    this.handle = undefined;
    if (!handle) return callback(error);
    Promise.resolve(this.pendingSync)
      .then(() => handle.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }
}

/** What is left of `buffers` after the first `written` bytes went out (a short write). */
function remainderAfter(buffers: Buffer[], written: number): Buffer[] {
  let skip = written;
  let index = 0;
  while (index < buffers.length && skip >= buffers[index]!.length) {
    skip -= buffers[index]!.length;
    index += 1;
  }
  if (index === buffers.length) return [];
  return [buffers[index]!.subarray(skip), ...buffers.slice(index + 1)];
}
