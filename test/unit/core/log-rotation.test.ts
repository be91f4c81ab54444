import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createLogger,
  DEFAULT_LOG_KEEP,
  DEFAULT_LOG_MAX_BYTES,
} from '../../../src/main/core/logging/logger.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const logFile = () => path.join(tempFolder('fw-log-'), 'logs', 'main.log');
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { message: string }).message);

describe('logs/main.log rotates', () => {
  it('stays under its size bound, keeps a few generations, drops the oldest, loses no recent line', () => {
    const file = logFile();
    const logger = createLogger({ file, rotation: { maxBytes: 2000, keep: 2 } });
    for (let i = 0; i < 200; i += 1) logger.info(`line ${i} ${'x'.repeat(40)}`);
    for (const f of [file, `${file}.1`, `${file}.2`]) expect(statSync(f).size).toBeLessThanOrEqual(2000);
    expect(existsSync(`${file}.3`)).toBe(false);
    // the newest lines are in order across the current file and the generations before it
    const recent = [...lines(`${file}.2`), ...lines(`${file}.1`), ...lines(file)].map((m) =>
      Number(m.split(' ')[1]),
    );
    expect(recent.at(-1)).toBe(199);
    expect(recent).toEqual(Array.from({ length: recent.length }, (_, i) => 200 - recent.length + i));
    expect(recent.length).toBeGreaterThan(40);
  });

  it('continues the bound across restarts (a new logger on the same file) and has sane defaults', () => {
    const file = logFile();
    createLogger({ file, rotation: { maxBytes: 1000 } }).info('x'.repeat(900));
    createLogger({ file, rotation: { maxBytes: 1000 } }).info('y'.repeat(200));
    expect(readFileSync(`${file}.1`, 'utf8')).toContain('x'.repeat(900));
    expect(lines(file)).toEqual(['y'.repeat(200)]);
    expect(DEFAULT_LOG_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(DEFAULT_LOG_KEEP).toBe(3);
  });
});
