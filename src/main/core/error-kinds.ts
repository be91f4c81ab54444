import { DraftInvalidError } from '../../shared/h3/violations.js';
import { AppError } from './errors.js';
import { SecretStoreError } from './secrets/secret-store.js';

/**
 * What an error means for whoever has to act on it. The CLI's exit codes (src/cli/exit-codes.ts)
 * and the exit-code table of docs/cli.md have one row per kind.
 */
export type ErrorKind =
  | 'invalid_input' // fix the input: nothing was sent
  | 'identity' // the key or token is missing, expired or refused
  | 'balance' // insufficient balance
  | 'job_failed' // the job (or the journal's record of it) cannot finish
  | 'service'; // any other service, network or local failure

/** What a failed call means for the user, one class per row of the spec's error table. */
export type ApiErrorKind =
  | 'invalid_request' // 400 / 422: fix the field or asset; a new business intent
  | 'identity' // 401 / 403: wrong or expired identity
  | 'balance' // 402: insufficient balance
  | 'not_found' // 404: unknown or not owned (including wrong model scope)
  | 'conflict' // 409: idempotency conflict or service not available
  | 'too_large' // 413
  | 'unsupported_format' // 415
  | 'rate_limited' // 429: honour Retry-After
  | 'unavailable' // 503 (and other 5xx): honour Retry-After
  | 'gateway_timeout'; // 504: the outcome of a write is unknown

/** The kind of each ApiError code (`api.<ApiErrorKind>`), one row per row of the spec's error table. */
const API_ERROR_KINDS = {
  'api.invalid_request': 'invalid_input',
  'api.too_large': 'invalid_input',
  'api.unsupported_format': 'invalid_input',
  'api.identity': 'identity',
  'api.balance': 'balance',
  'api.not_found': 'service',
  'api.conflict': 'service',
  'api.rate_limited': 'service',
  'api.unavailable': 'service',
  'api.gateway_timeout': 'service',
} as const satisfies Record<`api.${ApiErrorKind}`, ErrorKind>;

/**
 * Every `AppError` code the core raises, with its kind: the one table the CLI's exit codes and
 * the user's next step are read from. A new code is a compile error until it is added here.
 */
export const ERROR_CODE_KINDS = {
  ...API_ERROR_KINDS,
  'api.outcome_unknown': 'service',
  'api.unexpected_response': 'service',
  'api.foreign_origin': 'service',
  'api.body_too_large': 'service',
  'api.retry_after_too_long': 'service',
  usage: 'invalid_input',
  'usage.file': 'invalid_input',
  'h3.draft_invalid': 'invalid_input',
  'draft.not_found': 'invalid_input',
  'draft.submitted': 'invalid_input',
  'variations.count_invalid': 'invalid_input',
  'variations.count_changed': 'invalid_input',
  'variations.not_created': 'job_failed',
  'export.invalid_source': 'invalid_input',
  'file.bad_chunk': 'invalid_input',
  'file.bad_id': 'invalid_input',
  'file.empty': 'invalid_input',
  'file.invalid_csv': 'invalid_input',
  'file.not_found': 'invalid_input',
  'file.not_media': 'invalid_input',
  'file.stage_failed': 'invalid_input',
  'file.too_large': 'invalid_input',
  'file.unknown_type': 'invalid_input',
  'file.unreadable': 'invalid_input',
  'file.unsupported_type': 'invalid_input',
  'service.model_ambiguous': 'invalid_input',
  'service.no_model_for_mode': 'invalid_input',
  'service.not_found': 'invalid_input',
  'service.unavailable': 'invalid_input',
  'profile.not_found': 'invalid_input',
  'optimization.unavailable': 'invalid_input',
  'optimization.conflict': 'invalid_input',
  'job.idempotency_conflict': 'invalid_input',
  'profile.no_key': 'identity',
  'profile.debug_token_expired': 'identity',
  'pairing.refused': 'identity',
  'pairing.no_developer_token': 'invalid_input',
  'pairing.test_account_unknown': 'invalid_input',
  'pairing.version_unknown': 'invalid_input',
  'pairing.not_found': 'invalid_input',
  'pairing.timeout': 'service',
  'pairing.cancelled': 'service',
  'pairing.unavailable': 'service',
  'pairing.unexpected_response': 'service',
  'job.abandoned': 'job_failed',
  'job.conflict_after_unknown': 'job_failed',
  'job.mismatch': 'job_failed',
  'job.not_found': 'job_failed',
  'job.rejected': 'job_failed',
  'job.unknown_service_kind': 'job_failed',
  'job.failed': 'job_failed',
  'job.no_result': 'job_failed',
  'job.pending': 'service',
  'runtime.invalid_job_body': 'invalid_input',
  'runtime.no_session': 'identity',
  'runtime.no_recovery_ref': 'identity',
  'platform.session_over': 'identity',
  'platform.backend_refused': 'service',
  'platform.not_here': 'invalid_input',
  'quota.exceeded': 'invalid_input',
  'batch.frames_unsupported': 'service',
  'batch.invalid_rows': 'service',
  'batch.not_a_number': 'service',
  'chat.busy': 'service',
  'chat.cancelled': 'service',
  'chat.not_found': 'service',
  'chat.stream_broken': 'service',
  'download.disk_full': 'service',
  'download.failed': 'service',
  'download.gave_up': 'service',
  'download.too_large': 'service',
  'download.verification_failed': 'service',
  'engine.stopped': 'service',
  'export.failed': 'service',
  'export.not_marked': 'service',
  'export.not_ready_in_time': 'service',
  internal: 'service',
  'library.busy': 'service',
  'media.queue_full': 'service',
  'draft.too_large': 'invalid_input',
  'draft.too_many': 'invalid_input',
  'library.no_file': 'service',
  'library.not_a_result': 'invalid_input',
  'library.note_not_found': 'invalid_input',
  'library.invalid_note': 'invalid_input',
  'library.too_many_notes': 'invalid_input',
  'library.package_failed': 'service',
  'collection.not_found': 'invalid_input',
  'collection.invalid': 'invalid_input',
  'collection.too_many': 'invalid_input',
  'optimization.failed': 'service',
  'profile.builtin': 'service',
  'profile.has_jobs': 'service',
  'profile.insecure_base_url': 'service',
  'profile.invalid': 'invalid_input',
  'profile.no_base_url': 'service',
  'profile.unreachable': 'service',
  'settings.library_dir_invalid': 'service',
  'simulator.lock_timeout': 'service',
  'voice.no_preview': 'service',
  'voice.preview_too_large': 'service',
  'project.invalid_name': 'invalid_input',
  'project.name_taken': 'invalid_input',
  'project.not_found': 'invalid_input',
  'project.archived': 'invalid_input',
  'team.not_manager': 'identity',
  'team.invalid_query': 'invalid_input',
  'team.unexpected_response': 'service',
  'media.no_frame': 'service',
  'media.trim_invalid': 'invalid_input',
  'media.trim_no_stream': 'invalid_input',
  'media.trim_inexact': 'service',
  'sequence.not_found': 'invalid_input',
  'sequence.invalid_name': 'invalid_input',
  'sequence.shot_not_found': 'invalid_input',
  'sequence.no_result': 'invalid_input',
  'sequence.no_first_frame': 'invalid_input',
  'sequence.needs_last_frame': 'invalid_input',
  'sequence.not_assemblable': 'invalid_input',
  'sequence.invalid_crossfade': 'invalid_input',
  'sequence.invalid_trim': 'invalid_input',
  'sequence.invalid_caption': 'invalid_input',
  'sequence.assembly_failed': 'service',
  'sequence.delivery_failed': 'service',
  'sequence.delivery_cancelled': 'service',
  'sequence.delivery_not_found': 'invalid_input',
  'release.token_missing': 'identity',
  'release.insecure_base_url': 'invalid_input',
  'release.app_not_found': 'invalid_input',
  'release.submission_invalid': 'invalid_input',
  'release.image_unreadable': 'invalid_input',
  'release.image_not_archive': 'invalid_input',
  'release.image_mismatch': 'invalid_input',
  'release.roles_invalid': 'invalid_input',
  'release.version_unusable': 'invalid_input',
  'release.image_import_failed': 'service',
  'release.upload_gave_up': 'service',
  'inter_app.not_declared': 'service',
  'inter_app.session': 'identity',
  'inter_app.conflict': 'service',
  'inter_app.unavailable': 'service',
  'inter_app.refused': 'service',
  'inter_app.not_found': 'invalid_input',
  'inter_app.failed': 'service',
  'storyboards.not_imported': 'invalid_input',
  'storyboards.nothing_to_send': 'invalid_input',
  'storyboards.film_unreachable': 'invalid_input',
  'storyboards.share_origin_invalid': 'invalid_input',
} as const satisfies Record<string, ErrorKind>;

/**
 * A request that breaks a documented limit, found before anything was sent, is `usage.<field>`
 * (InputLimitError): one family, invalid input whatever the field.
 */
export type InputLimitCode = `usage.${string}`;

/** The code of every AppError. */
export type AppErrorCode = keyof typeof ERROR_CODE_KINDS | InputLimitCode;

function isTabled(code: string): code is keyof typeof ERROR_CODE_KINDS {
  return Object.hasOwn(ERROR_CODE_KINDS, code);
}

/** The kind of an AppError code. */
export function errorKindOfCode(code: AppErrorCode): ErrorKind {
  if (isTabled(code)) return ERROR_CODE_KINDS[code];
  return code.startsWith('usage.') ? 'invalid_input' : 'service';
}

/**
 * The kind of anything thrown: an AppError by its code, an invalid draft and an out-of-range
 * value as invalid input, a secret the keychain refused as invalid input, anything else (a
 * keychain that fails, a bug) as a service failure.
 */
export function errorKindOf(error: unknown): ErrorKind {
  if (error instanceof AppError) return errorKindOfCode(error.code);
  if (error instanceof DraftInvalidError) return ERROR_CODE_KINDS[error.code];
  if (error instanceof SecretStoreError) return error.code === 'invalid-secret' ? 'invalid_input' : 'service';
  if (error instanceof RangeError) return 'invalid_input';
  return 'service';
}
