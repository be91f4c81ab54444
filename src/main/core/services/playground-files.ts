import { randomUUID } from 'node:crypto';
import { appendFile, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { isProcessAlive } from '../app/process-liveness.js';
import { AppError } from '../errors.js';
import { safeSegment } from '../jobs/library-layout.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Entry {
  fileName: string;
  received: number;
  complete: boolean;
}

/** `<pid>-<uuid>`: the folder of one PlaygroundFiles, named by the process that owns it. */
const OWNER_FOLDER = /^(\d+)-[0-9a-f-]{36}$/;

/**
 * Files the Playground receives from the renderer in bounded chunks:
 * `<dataDir>/playground/files/<pid>-<instance>/<uuid>/<name>`,
 * known to the renderer only by the uuid the core issued (no renderer input names a path). The
 * whole file is bounded (`maxBytes`); a chunk must continue exactly where the last one ended.
 */
export class PlaygroundFiles {
  readonly dir: string;
  private readonly root: string;
  private readonly entries = new Map<string, Entry>();
  /**
   * Files of earlier runs are unknown to this one (ids live in memory): the folders of processes
   * that no longer run are removed before the first use. Another live process's files (the app
   * beside `framewright serve`) are left alone.
   */
  private readonly ready: Promise<void>;

  constructor(
    dataDir: string,
    private readonly maxBytes: number,
  ) {
    this.root = path.join(dataDir, 'playground', 'files');
    this.dir = path.join(this.root, `${process.pid}-${randomUUID()}`);
    this.ready = this.removeAbandoned().catch(() => undefined);
  }

  private async removeAbandoned(): Promise<void> {
    const names = await readdir(this.root).catch(() => [] as string[]);
    const abandoned = names.filter((name) => {
      const owner = OWNER_FOLDER.exec(name);
      return !owner || !isProcessAlive(Number(owner[1]));
    });
    await Promise.all(
      abandoned.map((name) => rm(path.join(this.root, name), { recursive: true, force: true })),
    );
  }

  private folderOf(id: string): string {
    if (!UUID.test(id)) throw new AppError('file.bad_id', 'Not a Playground file id.');
    return path.join(this.dir, id);
  }

  async put(input: {
    uploadId?: string;
    fileName: string;
    offset: number;
    data: Buffer;
    last: boolean;
  }): Promise<{ uploadId: string; received: number; complete: boolean; fileName: string }> {
    await this.ready;
    let id = input.uploadId;
    let entry = id ? this.entries.get(id) : undefined;
    if (id && !entry) throw new AppError('file.not_found', 'This upload is unknown; add the file again.');
    if (!id || !entry) {
      if (input.offset !== 0) throw new AppError('file.bad_chunk', 'A new file starts at offset 0.');
      id = randomUUID();
      entry = { fileName: safeSegment(input.fileName, 'file'), received: 0, complete: false };
      await mkdir(this.folderOf(id), { recursive: true, mode: 0o700 });
      this.entries.set(id, entry);
    }
    if (entry.complete) throw new AppError('file.bad_chunk', 'This file is already complete.');
    if (input.offset !== entry.received)
      throw new AppError('file.bad_chunk', `Expected the chunk at ${entry.received}, got ${input.offset}.`);
    if (entry.received + input.data.length > this.maxBytes) {
      await this.remove(id);
      throw new AppError(
        'usage.file',
        `${entry.fileName} is larger than ${this.maxBytes} bytes (25 MiB), the most the Playground takes.`,
      );
    }
    await appendFile(path.join(this.folderOf(id), entry.fileName), input.data, { mode: 0o600 });
    entry.received += input.data.length;
    if (input.last) {
      if (entry.received === 0) {
        await this.remove(id);
        throw new AppError('usage.file', `${entry.fileName} is empty.`);
      }
      entry.complete = true;
    }
    return { uploadId: id, received: entry.received, complete: entry.complete, fileName: entry.fileName };
  }

  /** The local path of a complete file (for the core's own use; never sent to the renderer). */
  async pathOf(id: string): Promise<string> {
    const entry = this.entries.get(id);
    if (!entry?.complete)
      throw new AppError('file.not_found', 'This file is no longer available; add it again.');
    const file = path.join(this.folderOf(id), entry.fileName);
    if (!(await stat(file).catch(() => undefined))?.isFile())
      throw new AppError('file.not_found', 'This file is no longer available; add it again.');
    return file;
  }

  async remove(id: string): Promise<void> {
    this.entries.delete(id);
    await rm(this.folderOf(id), { recursive: true, force: true });
  }
}
