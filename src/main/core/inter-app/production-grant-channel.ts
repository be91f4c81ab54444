import { OutcomeUnknownError } from '../api-clients/api-errors.js';
import { sleep } from '../api-clients/retry/backoff.js';
import type { RuntimeApiError } from '../api-clients/runtime/runtime-errors.js';
import type { GrantIssue, SessionServiceClient } from '../api-clients/runtime/session-service-client.js';
import type { GrantChannel } from './grant-channel.js';
import { GrantPlaintextGoneError, InterAppError } from './grant-errors.js';
import { sendWithGrant } from './business-send.js';

/** Replays of an issue whose answer was lost, and waits on a 503 with `Retry-After`. */
const MAX_ISSUE_ATTEMPTS = 4;
/** The longest `Retry-After` honoured before the person is told to try again (seconds). */
const MAX_RETRY_AFTER_SECONDS = 10;
/** A business answer larger than this is refused (JSON answers are small). */

/**
 * The issue of a replay answered the same fact without its one-time plaintext (the simulator's
 * reading of section C: the plaintext appears once). The caller decides what to do: reuse the
 * plaintext it still holds, or issue for the action again under another key.
 */
export { GrantPlaintextGoneError };

export interface ProductionGrantChannelDeps {
  sessionService: Pick<SessionServiceClient, 'issueGrant'>;
  /** The person's RuntimeSession id now (a secret: only in the issue's body). */
  runtimeSessionId(): Promise<string>;
  /** The callee's business address (a deployment setting), without a trailing slash. */
  businessBaseUrl: string;
  /** The callee's name in sentences. */
  appLabel: string;
  wait?: (ms: number) => Promise<void>;
}

/**
 * The production channel (section C): a grant issued by the session service with the application
 * credential and the person's session; the business request sent straight to the callee's address
 * with `X-Platform-App-Grant` only (no cookie, no credential, no redirect followed).
 *
 * An issue whose answer was lost is replayed with the SAME idempotency key and body; a 503
 * `APP_GRANT_SERVICE_UNAVAILABLE` (or 429) is waited out by its `Retry-After`, bounded.
 */
export class ProductionGrantChannel implements GrantChannel {
  private readonly base: string;
  private readonly wait: (ms: number) => Promise<void>;

  constructor(private readonly d: ProductionGrantChannelDeps) {
    this.base = d.businessBaseUrl.replace(/\/+$/, '');
    this.wait = d.wait ?? ((ms) => sleep(ms));
  }

  async issue(input: Parameters<GrantChannel['issue']>[0]): Promise<{ grant: string; expiresAt: string }> {
    const body: GrantIssue = { runtimeSessionId: await this.d.runtimeSessionId(), ...input };
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= MAX_ISSUE_ATTEMPTS;
      try {
        const issued = await this.d.sessionService.issueGrant(body);
        if (!issued.grant) throw new GrantPlaintextGoneError(issued.expiresAt);
        return { grant: issued.grant, expiresAt: issued.expiresAt };
      } catch (error) {
        if (error instanceof OutcomeUnknownError && !last) continue; // the same key and body again
        const refused = asRuntimeError(error);
        if (!refused) throw error;
        const waitSeconds = refused.retryAfterSeconds ?? 1;
        const retryable = refused.status === 503 || refused.status === 429;
        if (retryable && !last && waitSeconds <= MAX_RETRY_AFTER_SECONDS) {
          await this.wait(waitSeconds * 1000);
          continue;
        }
        throw new InterAppError({
          apiCode: refused.apiCode,
          status: refused.status,
          appLabel: this.d.appLabel,
          retryAfterSeconds: refused.retryAfterSeconds,
        });
      }
    }
  }

  send(input: Parameters<GrantChannel['send']>[0]): ReturnType<GrantChannel['send']> {
    return sendWithGrant(`${this.base}${input.path}`, input, { appLabel: this.d.appLabel });
  }
}

function asRuntimeError(error: unknown): RuntimeApiError | undefined {
  return error instanceof Error && 'apiCode' in error && 'status' in error
    ? (error as RuntimeApiError)
    : undefined;
}
