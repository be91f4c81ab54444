import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PlaygroundFiles } from '../../../src/main/core/services/playground-files.js';

const deadPid = () =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString());

describe('Playground files on a data folder two processes share', () => {
  it('a new start removes the files of dead processes only, never those of a live one', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'fw-playground-'));
    const first = new PlaygroundFiles(dataDir, 1024);
    const put = await first.put({ fileName: 'notes.txt', offset: 0, data: Buffer.from('hello'), last: true });
    // what a process that died left behind, and the folder layout of an older version
    const root = path.join(dataDir, 'playground', 'files');
    const deadFolder = path.join(root, `${deadPid()}-00000000-0000-4000-8000-000000000000`);
    const oldLayout = path.join(root, '11111111-1111-4111-8111-111111111111');
    for (const folder of [deadFolder, oldLayout]) {
      mkdirSync(folder, { recursive: true });
      writeFileSync(path.join(folder, 'left.txt'), 'x');
    }

    const second = new PlaygroundFiles(dataDir, 1024);
    await second.put({ fileName: 'other.txt', offset: 0, data: Buffer.from('x'), last: true });
    expect(readFileSync(await first.pathOf(put.uploadId), 'utf8')).toBe('hello');
    expect(existsSync(deadFolder)).toBe(false);
    expect(existsSync(oldLayout)).toBe(false);
  });
});
