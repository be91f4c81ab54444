import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultDataDir } from '../../../src/main/core/app/data-dir.js';
import { createLogger, readableLine, redact } from '../../../src/main/core/logging/logger.js';
import { createFileSettingsStore, DEFAULT_UI_SETTINGS } from '../../../src/main/core/settings/ui-settings.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const tmp = () => tempFolder('fw-core-');

describe('logger', () => {
  it('never writes a registered secret or a bearer token to the log file', () => {
    const file = path.join(tmp(), 'logs', 'main.log');
    const logger = createLogger({ file });
    const key = 'sk-live-0123456789abcdef';
    logger.addSecret(key);
    logger.error('upload failed', {
      error: new Error(`server echoed ${key}`),
      header: 'Bearer other-token-123',
    });
    logger.info(`retrying with ${key}`);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(key);
    expect(text).not.toContain('other-token-123');
    expect(text).toContain('[redacted]');
    expect(text.trim().split('\n')).toHaveLength(2);
  });

  it('a log that cannot be written never fails the caller: the folder is recreated, else the line is dropped', () => {
    const dir = tmp();
    const file = path.join(dir, 'logs', 'main.log');
    const logger = createLogger({ file });
    rmSync(path.join(dir, 'logs'), { recursive: true, force: true });
    expect(() => logger.warn('after the folder was removed')).not.toThrow();
    expect(readFileSync(file, 'utf8')).toContain('after the folder was removed');
    // the folder's parent is gone and a file stands where the folder should be: nothing can be written
    rmSync(dir, { recursive: true, force: true });
    writeFileSync(dir, 'not a folder');
    expect(() => logger.error('unwritable')).not.toThrow();
    rmSync(dir, { force: true });
  });

  it('redacts every occurrence', () => {
    expect(redact('a KEY1234 b KEY1234', ['KEY1234'])).toBe('a [redacted] b [redacted]');
  });
});

describe('settings store', () => {
  it('starts from defaults, persists updates, survives a restart', () => {
    const dir = tmp();
    const store = createFileSettingsStore(dir);
    expect(store.get()).toEqual(DEFAULT_UI_SETTINGS);
    store.update({ locale: 'zh-CN' });
    expect(createFileSettingsStore(dir).get()).toEqual({ theme: 'system', locale: 'zh-CN' });
  });

  it('ignores a corrupt file instead of failing', () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'settings.json'), '{"theme": "neon"');
    expect(createFileSettingsStore(dir).get()).toEqual(DEFAULT_UI_SETTINGS);
  });

  it('refuses values outside the contract', () => {
    expect(() => createFileSettingsStore(tmp()).update({ theme: 'neon' as never })).toThrow();
  });
});

describe('data folder', () => {
  it('follows each OS convention and the override', () => {
    expect(defaultDataDir({ FRAMEWRIGHT_DATA_DIR: '/x/y' }, 'linux')).toBe('/x/y');
    expect(defaultDataDir({ XDG_CONFIG_HOME: '/cfg' }, 'linux')).toBe(path.join('/cfg', 'Framewright'));
    expect(defaultDataDir({}, 'darwin')).toContain(
      path.join('Library', 'Application Support', 'Framewright'),
    );
    expect(defaultDataDir({ APPDATA: 'C:/Users/u/AppData/Roaming' }, 'win32')).toBe(
      path.join('C:/Users/u/AppData/Roaming', 'Framewright'),
    );
  });
});

describe('the log on a terminal (readable echo)', () => {
  it('echoes each line as a person reads it, redacted the same as the JSON line', () => {
    const echoed: string[] = [];
    const logger = createLogger({ echo: (line) => echoed.push(line), echoFormat: 'readable' });
    logger.addSecret('sk-live-SECRET-1234');
    logger.info('request', {
      method: 'GET',
      route: '/bridge/invoke',
      status: 200,
      note: 'key sk-live-SECRET-1234 here',
    });
    expect(echoed).toHaveLength(1);
    expect(echoed[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}request method=GET route=\/bridge\/invoke status=200 note="key \[redacted\] here"$/,
    );
  });

  it('echoes the JSON line itself by default (one object per line, for a log collector)', () => {
    const echoed: string[] = [];
    createLogger({ echo: (line) => echoed.push(line) }).warn('not ready', { reason: 'x' });
    expect(JSON.parse(echoed[0]!)).toMatchObject({ level: 'warn', message: 'not ready', reason: 'x' });
  });

  it('keeps a line that is not JSON as it is', () => {
    expect(readableLine('plain words')).toBe('plain words');
  });
});
