import { OutcomeUnknownError } from '../api-clients/api-errors.js';
import { sleep } from '../api-clients/retry/backoff.js';
import { parseRetryAfter } from '../api-clients/retry/retry-after.js';
import type { FetchLike } from '../debug-pairing/developer-api.js';
import type { GrantChannel } from './grant-channel.js';
import { GrantPlaintextGoneError, InterAppError } from './grant-errors.js';

/** Replays of an issue whose answer was lost, and waits on a 503/429 with `Retry-After`. */
const MAX_ISSUE_ATTEMPTS = 4;
/** The longest `Retry-After` waited out before the person is told to try again (seconds). */
const MAX_RETRY_AFTER_SECONDS = 10;
const ISSUE_TIMEOUT_MS = 30_000;

/** What a debug grant issue needs of a paired debug profile (a `DebugBinding` is one). */
export interface DebugGrantBinding {
  readonly appId: string;
  readonly appVersionId: string;
  /** `{developer_base_url}` (section D is under `/apps/{appId}/versions/{versionId}`). */
  readonly developerBaseUrl: string;
  /** `{debug_base_url}`. */
  readonly runtimeBaseUrl: string;
  /** The CLI session's relay address (`{debug_base_url}/inter-app`), when it named one. */
  readonly relayBaseUrl: string | null;
}

/** The one fetch shape of the debug calls (defined once, beside the pairing's developer API). */
export type { FetchLike };

export interface DebugGrantIssuerDeps {
  readonly binding: DebugGrantBinding;
  /** The CLI token now (its expiry checked by the profile directory); a secret: only in a header. */
  token(): Promise<string>;
  /** The callee's name in sentences. */
  readonly appLabel: string;
  readonly fetch?: FetchLike;
  readonly wait?: (ms: number) => Promise<void>;
}

/**
 * Section D's issue of one debug grant (`POST {developer_base_url}/apps/{appId}/versions/{versionId}
 * /app-grants` or `/debug-peer-grants`) with the CLI Bearer — never the application credential nor
 * a runtime session id. An answer lost on the way is replayed with the SAME key and body; a 503 or
 * 429 is waited out by its `Retry-After`, bounded. Because a replay answers the fact without the
 * plaintext, the plaintext of a grant issued here is remembered in memory until it expires, so
 * the same key and request give the same grant back.
 */
export class DebugGrantIssuer {
  private readonly fetchImpl: FetchLike;
  private readonly wait: (ms: number) => Promise<void>;
  /** `suffix + canonical body` → the plaintext while it lives (memory only). */
  private readonly issued = new Map<string, { grant: string; expiresAt: string }>();

  constructor(private readonly d: DebugGrantIssuerDeps) {
    this.fetchImpl = d.fetch ?? fetch;
    this.wait = d.wait ?? ((ms) => sleep(ms));
  }

  private url(suffix: string): string {
    const b = this.d.binding;
    return `${b.developerBaseUrl.replace(/\/+$/, '')}/apps/${encodeURIComponent(b.appId)}/versions/${encodeURIComponent(b.appVersionId)}${suffix}`;
  }

  async issue(
    suffix: '/app-grants' | '/debug-peer-grants',
    body: Record<string, string>,
  ): ReturnType<GrantChannel['issue']> {
    const text = JSON.stringify(body);
    const memoKey = `${suffix} ${text}`;
    this.forgetExpired();
    for (let attempt = 1; ; attempt += 1) {
      const last = attempt >= MAX_ISSUE_ATTEMPTS;
      let res: Response;
      try {
        res = await this.fetchImpl(this.url(suffix), {
          method: 'POST',
          redirect: 'error',
          headers: {
            authorization: `Bearer ${await this.d.token()}`,
            'content-type': 'application/json',
            accept: 'application/json',
          },
          body: text,
          signal: AbortSignal.timeout(ISSUE_TIMEOUT_MS),
        });
      } catch {
        if (!last) continue; // the same key and body again: the platform answers the same fact
        throw new OutcomeUnknownError(`The debug grant for ${this.d.appLabel}`, 'the connection failed');
      }
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = (await res.json()) as Record<string, unknown>;
      } catch {
        if (res.ok && !last) continue; // an answer cut on the way: replay
        parsed = undefined;
      }
      if (res.ok && parsed && typeof parsed.expiresAt === 'string') {
        if (typeof parsed.grant === 'string' && parsed.grant) {
          const answer = { grant: parsed.grant, expiresAt: parsed.expiresAt };
          this.issued.set(memoKey, answer);
          return answer;
        }
        const held = this.issued.get(memoKey);
        if (held) return held;
        throw new GrantPlaintextGoneError(
          parsed.expiresAt,
          'The debug grant was issued before; its plaintext is not answered again.',
        );
      }
      const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
      const retryable = res.status === 503 || res.status === 429;
      const waitSeconds = retryAfter ?? 1;
      if (retryable && !last && waitSeconds <= MAX_RETRY_AFTER_SECONDS) {
        await this.wait(waitSeconds * 1000);
        continue;
      }
      throw new InterAppError({
        apiCode: typeof parsed?.code === 'string' ? parsed.code : `HTTP_${res.status}`,
        status: res.status,
        appLabel: this.d.appLabel,
        ...(retryAfter !== undefined ? { retryAfterSeconds: retryAfter } : {}),
      });
    }
  }

  private forgetExpired(): void {
    const now = Date.now();
    for (const [key, value] of this.issued) if (Date.parse(value.expiresAt) <= now) this.issued.delete(key);
  }
}
