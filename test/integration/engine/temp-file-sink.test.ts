import { randomBytes } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SINK_SYNC_EVERY_BYTES, TempFileSink } from '../../../src/main/core/jobs/temp-file-sink.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let dir: string;
let fileHandle: FileHandle;
/** FileHandle's prototype, to watch the sink's system calls without a seam in the sink. */
let handleProto: FileHandle;

beforeAll(async () => {
  dir = tempFolder('fw-sink-');
  fileHandle = await open(path.join(dir, 'probe'), 'w');
  handleProto = Object.getPrototypeOf(fileHandle) as FileHandle;
  await fileHandle.close();
});
afterEach(() => vi.restoreAllMocks());

const chunks = (count: number, size: number) => Array.from({ length: count }, () => randomBytes(size));

describe('TempFileSink: the download path writes in batches and is durable when the pipeline resolves', () => {
  it('batches chunks that arrive while a write is in flight into few writev calls, bytes exact', async () => {
    const writev = vi.spyOn(handleProto, 'writev');
    const parts = chunks(256, 64 * 1024);
    const target = path.join(dir, 'batched.part');
    await pipeline(Readable.from(parts), new TempFileSink(target));
    expect(readFileSync(target).equals(Buffer.concat(parts))).toBe(true);
    // a 16 KiB write stream made one write per chunk (256); the sink takes 4 MiB before back-pressure
    expect(writev.mock.calls.length).toBeLessThan(64);
  });

  it('flushes to the disk during the transfer and fsyncs before the pipeline resolves', async () => {
    const order: string[] = [];
    const datasync = vi.spyOn(handleProto, 'datasync');
    datasync.mockImplementation(async function (this: FileHandle) {
      order.push('datasync');
    });
    const sync = vi.spyOn(handleProto, 'sync');
    sync.mockImplementation(async function (this: FileHandle) {
      order.push('sync');
    });
    const sink = new TempFileSink(path.join(dir, 'durable.part'));
    sink.on('finish', () => order.push('finish'));
    const total = 3 * SINK_SYNC_EVERY_BYTES;
    await pipeline(Readable.from(chunks(total / (1024 * 1024), 1024 * 1024)), sink);
    order.push('resolved');
    expect(order.filter((step) => step === 'datasync').length).toBeGreaterThanOrEqual(1);
    // the step flushes come before the final sync, which comes before finish
    expect(order.slice(-3)).toEqual(['sync', 'finish', 'resolved']);
    expect(order.indexOf('datasync')).toBeLessThan(order.indexOf('sync'));
  });

  it('a failed step flush fails the download instead of being swallowed', async () => {
    vi.spyOn(handleProto, 'datasync').mockRejectedValue(Object.assign(new Error('EIO'), { code: 'EIO' }));
    const total = 2 * SINK_SYNC_EVERY_BYTES + 1024 * 1024;
    await expect(
      pipeline(
        Readable.from(chunks(total / (1024 * 1024), 1024 * 1024)),
        new TempFileSink(path.join(dir, 'eio.part')),
      ),
    ).rejects.toThrow('EIO');
  });

  it('finishes a short write with the rest of the batch', async () => {
    const real = handleProto.writev;
    let first = true;
    vi.spyOn(handleProto, 'writev').mockImplementation(async function (
      this: FileHandle,
      buffers: readonly NodeJS.ArrayBufferView[],
      position?: number,
    ) {
      if (first) {
        first = false;
        // the kernel took only 1000 bytes of the first batch
        const head = Buffer.from((buffers[0] as Buffer).subarray(0, 1000));
        return real.call(this, [head], position);
      }
      return real.call(this, buffers, position);
    });
    const parts = chunks(8, 100_000);
    const target = path.join(dir, 'short.part');
    await pipeline(Readable.from(parts), new TempFileSink(target));
    expect(readFileSync(target).equals(Buffer.concat(parts))).toBe(true);
  });

  it('closes the file when the transfer fails', async () => {
    const openFiles = () => readdirSync('/proc/self/fd').length;
    const before = openFiles();
    const broken = new Readable({
      read() {
        this.destroy(new Error('connection reset'));
      },
    });
    const sink = new TempFileSink(path.join(dir, 'broken.part'));
    const closed = new Promise((resolve) => sink.once('close', resolve));
    await expect(pipeline(broken, sink)).rejects.toThrow('connection reset');
    await closed;
    expect(openFiles()).toBe(before);
  });
});
