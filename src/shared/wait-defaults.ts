/**
 * How long Framewright waits, declared once (no imports: the renderer, the core and the CLI's
 * command declarations read them).
 */

/**
 * How long a submit waits for its job to end (the studio's default, `framewright video`, `batch`
 * and `resume`'s `--timeout`): past it the job stays pending and resumable. 30 minutes.
 */
export const DEFAULT_JOB_WAIT_SECONDS = 30 * 60;

/** One request to the service, when its caller sets no other limit. */
export const REQUEST_TIMEOUT_MS = 60_000;

/**
 * A synchronous call that does its work while the request is open (a chat reply, a transcription,
 * a document parse). 10 minutes.
 */
export const WORKING_CALL_TIMEOUT_MS = 10 * 60_000;

/** One download of a result's content (a long video over a slow link). 30 minutes. */
export const CONTENT_DOWNLOAD_TIMEOUT_MS = 30 * 60_000;
