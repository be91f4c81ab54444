/**
 * What the browser host and the page it serves agree on, beyond the contract itself: how the page
 * proves it holds the per-run token, and how large a bridge call may be.
 */

/**
 * The page exchanges the launch link's one-time code here (`POST`, JSON `{code}`) for the per-run
 * token, and keeps the token in memory (and in this tab's `sessionStorage`, which is scoped to the
 * origin including its port). It is never a cookie: browsers send a `127.0.0.1` cookie to every
 * port, so any other local server would receive it (and could overwrite it).
 */
export const HOST_SESSION_PATH = '/bridge/session';
export const HOST_SESSION_STORAGE_KEY = 'framewright.host.token';
/** The WebSocket subprotocol of the events channel; the token rides as a second one (browsers cannot set headers). */
export const HOST_EVENTS_PROTOCOL = 'framewright.events';
export const HOST_TOKEN_PROTOCOL_PREFIX = 'framewright.token.';

/** The largest batch file (`studio.batch.*`) the contract accepts, in UTF-16 code units (JS string length). */
export const BATCH_FILE_MAX_CHARS = 2_000_000;

/**
 * The largest number of bytes one UTF-16 code unit takes in a JSON body: a control character is
 * written as `\u001f` (6 bytes); a lone surrogate likewise; everything else takes 1–3 bytes.
 */
const JSON_MAX_BYTES_PER_CHAR = 6;
/** Room for everything else a batch call carries (the file name, defaults, run label, envelope). */
const BRIDGE_ENVELOPE_ALLOWANCE_BYTES = 64 * 1024;

/**
 * The largest `POST /bridge/invoke` body the browser host reads, derived from the largest file the
 * contract accepts in one call (a batch file), so that any batch file the contract allows — even
 * one made only of characters JSON escapes — also fits the host: 12 MB + 64 KiB.
 */
export const BRIDGE_MAX_BODY_BYTES =
  BATCH_FILE_MAX_CHARS * JSON_MAX_BYTES_PER_CHAR + BRIDGE_ENVELOPE_ALLOWANCE_BYTES;
