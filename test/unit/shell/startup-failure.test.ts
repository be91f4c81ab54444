import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import {
  describeStartupFailure,
  logUnexpectedErrors,
  reportStartupFailure,
} from '../../../src/main/shell/startup-failure.js';

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('what the start-up failure dialog says', () => {
  it('a full disk during a migration (SQLITE_FULL under the migration error)', () => {
    const failed = new Error(
      'Migration 7 ("job-leases") of the journal at /d/journal.sqlite failed and was rolled back: database or disk is full',
      {
        cause: sqliteError('SQLITE_FULL', 'database or disk is full'),
      },
    );
    const report = describeStartupFailure(failed, '/d');
    expect(report.message).toBe('The disk is full: Framewright could not write its data folder.');
    expect(report.detail).toContain('rolled back');
    expect(report.detail).toContain('Data folder: /d');
  });

  it('a read-only or foreign-owned data folder', () => {
    for (const error of [
      sqliteError('EACCES', "EACCES: permission denied, mkdir '/d'"),
      sqliteError('SQLITE_READONLY_DIRECTORY', 'attempt to write a readonly database'),
      sqliteError('SQLITE_CANTOPEN', 'unable to open database file'),
    ]) {
      expect(describeStartupFailure(error, '/d').message).toBe(
        'Framewright cannot write to its data folder.',
      );
    }
  });

  it('anything else still names the cause and the folder', () => {
    const report = describeStartupFailure(new TypeError('something odd'), '/d');
    expect(report).toEqual({
      message: 'Framewright could not start.',
      detail: 'something odd\n\nData folder: /d',
    });
  });

  it('exits and frees the lock even when the dialog itself fails, without opening the folder', async () => {
    const calls: string[] = [];
    const electron = {
      app: {
        releaseSingleInstanceLock: () => calls.push('release'),
        exit: (code?: number) => calls.push(`exit ${code}`),
      },
      dialog: { showMessageBox: vi.fn(async () => Promise.reject(new Error('no display'))) },
      shell: { openPath: vi.fn(async () => '') },
    };
    const log = vi.fn();
    await reportStartupFailure(electron as never, new Error('boom'), '/d', log);
    expect(calls).toEqual(['release', 'exit 1']);
    expect(electron.shell.openPath).not.toHaveBeenCalled();
    expect(log).toHaveBeenCalledWith('the start-up failure could not be shown', expect.anything());
  });

  it('Quit does not open the folder', async () => {
    const electron = {
      app: { releaseSingleInstanceLock: vi.fn(), exit: vi.fn() },
      dialog: { showMessageBox: vi.fn(async () => ({ response: 1, checkboxChecked: false })) },
      shell: { openPath: vi.fn(async () => '') },
    };
    await reportStartupFailure(electron as never, new Error('boom'), '/d', vi.fn());
    expect(electron.shell.openPath).not.toHaveBeenCalled();
    expect(electron.app.exit).toHaveBeenCalledWith(1);
  });

  it('logs unhandled rejections and uncaught exceptions', () => {
    const events = new EventEmitter();
    const log = vi.fn();
    logUnexpectedErrors(events, log);
    const reason = new Error('lost promise');
    events.emit('unhandledRejection', reason);
    events.emit('uncaughtException', new Error('thrown'));
    expect(log).toHaveBeenCalledWith('unhandled promise rejection', { error: reason });
    expect(log).toHaveBeenCalledWith('uncaught exception', {
      error: expect.objectContaining({ message: 'thrown' }),
    });
  });
});
