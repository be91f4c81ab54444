import type { App, Dialog, Shell } from 'electron';
import { JournalBackupError, JournalCorruptError } from '../core/journal/journal-safety.js';
import { JournalHistoryMismatchError, JournalTooNewError } from '../core/journal/migrator.js';

export interface StartupFailureElectron {
  app: Pick<App, 'releaseSingleInstanceLock' | 'exit'>;
  dialog: Pick<Dialog, 'showMessageBox'>;
  shell: Pick<Shell, 'openPath'>;
}

export interface StartupFailureReport {
  /** One line: what went wrong. */
  readonly message: string;
  /** The cause as the core said it, and what to do. */
  readonly detail: string;
}

/** The error codes of every cause in `error`'s chain (`cause`), outermost first. */
function codesOf(error: unknown): string[] {
  const codes: string[] = [];
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string') codes.push(e.code);
    if (codes.length > 8) break;
  }
  return codes;
}

/** Node's and SQLite's answers for a folder or file this user may not write. */
const READ_ONLY_CODES = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EEXIST',
  'SQLITE_PERM',
  'SQLITE_CANTOPEN',
]);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** What the dialog says for a core that would not start over `dataDir`. */
export function describeStartupFailure(error: unknown, dataDir: string): StartupFailureReport {
  const codes = codesOf(error);
  const cause = messageOf(error);
  const folder = `Data folder: ${dataDir}`;
  if (error instanceof JournalTooNewError) {
    return {
      message: 'This data folder was last used by a newer version of Framewright.',
      detail: `${cause}\n\n${folder}`,
    };
  }
  if (error instanceof JournalCorruptError) {
    return {
      message: 'The journal of this data folder is damaged and was moved aside.',
      detail: `${cause}\n\n${folder}`,
    };
  }
  if (error instanceof JournalHistoryMismatchError) {
    return {
      message: 'The journal was written by a different build of Framewright.',
      detail: `${cause}\n\n${folder}`,
    };
  }
  if (codes.some((code) => code === 'ENOSPC' || code === 'SQLITE_FULL')) {
    return {
      message: 'The disk is full: Framewright could not write its data folder.',
      detail: `Free some space and start Framewright again. Nothing was lost.\n\n${cause}\n\n${folder}`,
    };
  }
  if (codes.some((code) => READ_ONLY_CODES.has(code) || code.startsWith('SQLITE_READONLY'))) {
    return {
      message: 'Framewright cannot write to its data folder.',
      detail:
        `The folder is read-only, belongs to another user, or is not a folder. Make it a folder you can write and start again.\n\n` +
        `${cause}\n\n${folder}`,
    };
  }
  if (error instanceof JournalBackupError) {
    return {
      message: 'The journal could not be backed up before its upgrade.',
      detail: `${cause}\n\n${folder}`,
    };
  }
  return { message: 'Framewright could not start.', detail: `${cause}\n\n${folder}` };
}

export const OPEN_FOLDER_BUTTON = 'Open data folder';
export const QUIT_BUTTON = 'Quit';

/**
 * The core did not start: a native error dialog with the cause and the data folder, offering to
 * open the folder; then the single-instance lock is released and the app exits (code 1), so the
 * next launch is not swallowed by a windowless instance.
 */
export async function reportStartupFailure(
  electron: StartupFailureElectron,
  error: unknown,
  dataDir: string,
  log: (message: string, fields?: Record<string, unknown>) => void,
): Promise<void> {
  const report = describeStartupFailure(error, dataDir);
  try {
    log('the core failed to start', { error, dataDir });
    const { response } = await electron.dialog.showMessageBox({
      type: 'error',
      title: 'Framewright could not start',
      message: report.message,
      detail: report.detail,
      buttons: [OPEN_FOLDER_BUTTON, QUIT_BUTTON],
      defaultId: 0,
      cancelId: 1,
      noLink: true,
    });
    if (response === 0) {
      const failed = await electron.shell.openPath(dataDir);
      if (failed) log('could not open the data folder', { dataDir, reason: failed });
    }
  } catch (dialogError) {
    log('the start-up failure could not be shown', { error: dialogError });
  } finally {
    electron.app.releaseSingleInstanceLock();
    electron.app.exit(1);
  }
}

export interface ProcessEvents {
  on(event: 'unhandledRejection', listener: (reason: unknown) => void): unknown;
  on(event: 'uncaughtException', listener: (error: Error) => void): unknown;
}

/** Unhandled rejections and uncaught exceptions of the main process go to the log, never nowhere. */
export function logUnexpectedErrors(
  processEvents: ProcessEvents,
  log: (message: string, fields?: Record<string, unknown>) => void,
): void {
  processEvents.on('unhandledRejection', (reason) => log('unhandled promise rejection', { error: reason }));
  processEvents.on('uncaughtException', (error) => log('uncaught exception', { error }));
}
