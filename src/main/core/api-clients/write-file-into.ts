import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** Bytes read from the file at a time; each read goes to the target as one write. */
export const FILE_READ_CHUNK_BYTES = 256 * 1024;

/**
 * Buffers the file is read into, in turn: a buffer is read into again only once the target has
 * handed its previous bytes to the kernel, so at most this many chunks are in flight (back-pressure)
 * and memory stays at these few buffers however large the file — no new buffer per chunk for the
 * garbage collector to catch up with.
 */
export const FILE_READ_BUFFERS = 8;

/** Rejects once `target` fails or closes before `done()` was called. */
function whileOpen(target: Writable): { failed: Promise<never>; done(): void } {
  let finished = false;
  let cleanup = () => {};
  const failed = new Promise<never>((_, reject) => {
    const onError = (error: Error) => reject(error);
    const onClose = () => {
      if (!finished) reject(new Error('the connection closed before the whole body was sent'));
    };
    target.once('error', onError);
    target.once('close', onClose);
    cleanup = () => {
      target.off('error', onError);
      target.off('close', onClose);
    };
  });
  failed.catch(() => undefined);
  return {
    failed,
    done() {
      finished = true;
      cleanup();
    },
  };
}

/**
 * Writes the first `size` bytes of a file into `target` (left open; its errors are its owner's to
 * handle, they only stop this), reading them into a few reused buffers. `onBytes` is told each chunk's length as it is handed to the target. A file that
 * ends before `size` bytes (it changed since it was measured) is an error: the body would not
 * match its announced length.
 */
export async function writeFileInto(
  target: Writable,
  filePath: string,
  size: number,
  onBytes?: (bytes: number) => void,
): Promise<void> {
  const handle = await open(filePath, 'r');
  const watch = whileOpen(target);
  const buffers = Array.from({ length: FILE_READ_BUFFERS }, () =>
    Buffer.allocUnsafe(Math.min(FILE_READ_CHUNK_BYTES, Math.max(size, 1))),
  );
  const written: (Promise<void> | undefined)[] = [];
  try {
    let position = 0;
    for (let turn = 0; position < size; turn = (turn + 1) % buffers.length) {
      // this buffer's previous bytes must be gone before it is read into again
      await Promise.race([written[turn], watch.failed]);
      const buffer = buffers[turn]!;
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) {
        throw new Error(`${filePath} became shorter while it was sent (${position} of ${size} bytes).`);
      }
      position += bytesRead;
      written[turn] = new Promise<void>((resolve, reject) =>
        target.write(buffer.subarray(0, bytesRead), (error) =>
          // a write refused because the connection failed reports why it failed
          error ? reject(target.errored ?? error) : resolve(),
        ),
      );
      written[turn]!.catch(() => undefined);
      onBytes?.(bytesRead);
    }
    await Promise.race([Promise.all(written), watch.failed]);
  } finally {
    watch.done();
    await handle.close();
  }
}
