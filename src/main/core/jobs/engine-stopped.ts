import { AppError } from '../errors.js';

/** The code of work dropped because the app is closing; the journal keeps it for the next start. */
export const ENGINE_STOPPED = 'engine.stopped';

export const ENGINE_STOPPED_MESSAGE =
  'Framewright is closing; this job is kept in the journal and continues at the next start.';

export function engineStoppedError(): AppError {
  return new AppError(ENGINE_STOPPED, ENGINE_STOPPED_MESSAGE);
}

export function isEngineStopped(error: unknown): boolean {
  return error instanceof AppError && error.code === ENGINE_STOPPED;
}
