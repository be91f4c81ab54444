import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { StagedFiles } from '../../../src/main/core/storage/staged-files.js';
import { tempJournal } from '../journal/helpers.js';

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const chunk = (text: string, more: Partial<Parameters<StagedFiles['putChunk']>[0]> = {}) => ({
  fileName: 'notes.txt',
  offset: 0,
  data: Buffer.from(text),
  last: true,
  ...more,
});

/** Every file under a folder, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe('Playground files on a data folder two processes share', () => {
  it('a new start removes the files of dead processes only, never those of a live one', async () => {
    t = tempJournal();
    const dataDir = t.dir;
    const first = new StagedFiles(dataDir, t.journal, 1024);
    const put = await first.putChunk(chunk('hello'));
    // what a process that died left behind, and the folder layouts of older versions
    const root = path.join(dataDir, 'staging', 'chunks');
    const deadFolder = path.join(root, `${deadPid()}-00000000-0000-4000-8000-000000000000`);
    const oldLayout = path.join(dataDir, 'playground', 'files', '11111111-1111-4111-8111-111111111111');
    for (const folder of [deadFolder, oldLayout]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'left.txt'), 'x');
    }

    const second = new StagedFiles(dataDir, t.journal, 1024);
    await second.putChunk(chunk('x', { fileName: 'other.txt' }));
    expect(readFileSync(await first.chunkedPath(put.uploadId), 'utf8')).toBe('hello');
    expect(existsSync(deadFolder)).toBe(false);
    expect(existsSync(oldLayout)).toBe(false);
  });
});

describe('the one staging store: ids, ownership and limits', () => {
  it('an id is usable only by the store and the kind of file that issued it', async () => {
    t = tempJournal();
    const store = new StagedFiles(t.dir, t.journal, 1024);
    const put = await store.putChunk(chunk('hello'));
    // another store on the same data folder (another process, or this app after a restart) never issued it
    const other = new StagedFiles(t.dir, t.journal, 1024);
    await expect(other.chunkedPath(put.uploadId)).rejects.toMatchObject({ code: 'file.not_found' });
    await expect(other.putChunk(chunk('more', { uploadId: put.uploadId, offset: 5 }))).rejects.toMatchObject({
      code: 'file.not_found',
    });
    // a chunked file is not a composer file, and an id the store never issued is neither
    expect(() => store.get(put.uploadId)).toThrow(expect.objectContaining({ code: 'file.not_found' }));
    await expect(store.chunkedPath(randomUUID())).rejects.toMatchObject({ code: 'file.not_found' });
    // an id that is not one of the store's UUIDs never becomes a path
    for (const bad of ['../journal.sqlite', '..', `${randomUUID()}/../..`])
      await expect(store.chunkedPath(bad)).rejects.toMatchObject({ code: expect.stringMatching(/^file\./) });
    expect(() => store.pathOf('../journal.sqlite')).toThrow(expect.objectContaining({ code: 'file.bad_id' }));
  });

  it('a file past the limit is refused and removed; a name never leaves the store', async () => {
    t = tempJournal();
    const store = new StagedFiles(t.dir, t.journal, 1024);
    const first = await store.putChunk(chunk('a'.repeat(1000), { last: false }));
    await expect(
      store.putChunk(chunk('b'.repeat(25), { uploadId: first.uploadId, offset: 1000, last: true })),
    ).rejects.toMatchObject({ code: 'usage.file' });
    expect(filesUnder(store.dir)).toEqual([]);
    await expect(store.chunkedPath(first.uploadId)).rejects.toMatchObject({ code: 'file.not_found' });

    const exact = await store.putChunk(chunk('c'.repeat(1024), { fileName: '../../../evil.txt' }));
    const file = await store.chunkedPath(exact.uploadId);
    expect(file.startsWith(store.dir + path.sep)).toBe(true);
    expect(
      filesUnder(t.dir).filter((f) => !f.startsWith(store.dir + path.sep) && !f.includes('journal')),
    ).toEqual([]);
    await expect(store.putChunk(chunk('', { fileName: 'empty.txt' }))).rejects.toMatchObject({
      code: 'usage.file',
    });
  });
});

describe('whole Playground files (the browser host streams them, Electron copies them)', () => {
  it('are bounded like chunked ones: past the limit nothing is kept; the answer is the id, never a path', async () => {
    t = tempJournal();
    const store = new StagedFiles(t.dir, t.journal, 1024);
    await expect(
      store.stageStream(Readable.from([Buffer.alloc(600), Buffer.alloc(600)]), 'big.wav', 'playground'),
    ).rejects.toMatchObject({ code: 'usage.file' });
    const source = path.join(t.dir, 'big-on-disk.bin');
    writeFileSync(source, Buffer.alloc(1025));
    await expect(store.stageCopy(source, 'playground')).rejects.toMatchObject({ code: 'usage.file' });
    expect(filesUnder(store.dir)).toEqual([]);

    writeFileSync(source, Buffer.alloc(1024, 1));
    const copied = await store.stageCopy(source, 'playground');
    expect(copied).toEqual({
      fileId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      fileName: 'big-on-disk.bin',
      byteSize: 1024,
    });
    expect(JSON.stringify(copied)).not.toContain(t.dir);
    const file = await store.chunkedPath((copied as { fileId: string }).fileId);
    expect(file.startsWith(store.dir + path.sep)).toBe(true);
    expect(readFileSync(file)).toEqual(Buffer.alloc(1024, 1));
  });
});
