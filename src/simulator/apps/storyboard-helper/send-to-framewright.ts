import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from '../../errors.js';
import { canonicalJson, readBody } from '../../http.js';
import { findApp, FIXTURE_SUBJECTS, FIXTURE_USERS, type FixtureUser } from '../../platform/fixtures.js';
import { SESSION_PATH } from '../../platform/router.js';
import { findBoard, STORYBOARD_APP_KEY } from './fixtures.js';
import { GRANT_HEADER } from './grant-check.js';
import type { AppContext, AppRoute } from './router.js';
import { boardState, checkSimulatorToken } from './routes.js';
import { StoryboardError } from './schemas.js';

/**
 * storyboard-helper as a CALLER: it sends one of its boards to the person's Framewright, which
 * opens `sequence.create` (API version 2026-01) to it. Started by a simulator-only route (the
 * simulator cannot know where Framewright runs: the caller names its public origin). As the
 * board's owner it uses a storyboard-helper RuntimeSession of that person, issues one grant for
 * the exact body it then sends, and sends it with nothing identifying but the grant header.
 */

export const FRAMEWRIGHT_APP_KEY = 'framewright-studio';
export const FRAMEWRIGHT_API_VERSION = '2026-01';
export const SCOPE_SEQUENCE_CREATE = 'sequence.create';
/** Framewright's sequence-create path below its public origin. */
export const FRAMEWRIGHT_SEQUENCES_PATH = `/inter-app/${FRAMEWRIGHT_API_VERSION}/sequences`;

/** One call: the issue, and the send (Framewright's answer is read up to 1 MiB). */
const CALL_TIMEOUT_MS = 30_000;
const ANSWER_MAX_BYTES = 1024 * 1024;
/** A grant with less life than this left is not used for a new attempt. */
const GRANT_MARGIN_MS = 5_000;

const SendRequest = z
  .object({
    /** Framewright's public origin (its platform host), http or https. */
    targetBaseUrl: z
      .string()
      .max(2048)
      .regex(/^https?:\/\/[^\s/?#@]+(\/[^\s?#]*)?$/, 'an http or https address without query or credentials'),
  })
  .strict();

export const SendAnswerDoc = z.object({}).loose();

/** The body Framewright receives: the board's content, nothing about who sends it. */
export interface SentBoard {
  boardId: string;
  title: string;
  revision: number;
  panels: {
    panelId: string;
    position: number;
    prompt: string;
    image: { url: string; mimeType: string; sha256: string; byteSize: number };
  }[];
}

/** A grant issued for one send, with the exact bytes it covers (memory only, for its 2 minutes). */
interface IssuedSend {
  body: Buffer;
  grant: string;
  expiresAtMs: number;
}

const sha256Hex = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * The sender's memory: the owner's storyboard-helper session (its id is a secret, never logged
 * or answered) and the grants of sends within their life, by idempotency key, so a retried send
 * of one board revision carries the same bytes and grant (Framewright answers the same sequence).
 */
export class FramewrightSender {
  private readonly sessions = new Map<FixtureUser, string>();
  private readonly sends = new Map<string, IssuedSend>();

  /** The owner's usable storyboard-helper session: the one kept, else one opened as the person would. */
  sessionOf(ctx: AppContext, user: FixtureUser): string {
    const sessions = ctx.state.platform.sessions;
    const kept = this.sessions.get(user);
    if (kept && sessions.usable(STORYBOARD_APP_KEY, kept)) return kept;
    const app = findApp(STORYBOARD_APP_KEY)!;
    const code = sessions.issueLaunchCode(app, user);
    const session = sessions.exchange(STORYBOARD_APP_KEY, code.launchCode);
    if (!session)
      throw new ApiError(
        403,
        'owner_access_revoked',
        "The board's owner cannot use storyboard-helper now (access revoked).",
      );
    this.sessions.set(user, session.sessionId);
    return session.sessionId;
  }

  live(key: string, nowMs: number): IssuedSend | undefined {
    for (const [k, send] of this.sends) if (send.expiresAtMs <= nowMs) this.sends.delete(k);
    const send = this.sends.get(key);
    return send && send.expiresAtMs - GRANT_MARGIN_MS > nowMs ? send : undefined;
  }

  remember(key: string, send: IssuedSend): void {
    this.sends.set(key, send);
  }
}

function ownerOf(ownerUserId: string): FixtureUser | undefined {
  return FIXTURE_USERS.find((user) => FIXTURE_SUBJECTS[user].userId === ownerUserId);
}

/** The board as sent: its content only (the panel images at their signed addresses). */
export function sentBoard(state: ReturnType<typeof boardState>): SentBoard {
  return {
    boardId: state.boardId,
    title: state.title,
    revision: state.revision,
    panels: state.panels.map((p) => ({
      panelId: p.panelId,
      position: p.position,
      prompt: p.prompt,
      image: {
        url: p.image.url,
        mimeType: p.image.mimeType,
        sha256: p.image.sha256,
        byteSize: p.image.byteSize,
      },
    })),
  };
}

/**
 * `POST {session_base_url}/apps/storyboard-helper/app-grants` with storyboard-helper's own
 * credential, as its backend would. A refusal keeps the session service's status and code; an
 * answer without the one-time plaintext (the key was issued before) cannot be sent again.
 */
async function issueGrant(
  ctx: AppContext,
  runtimeSessionId: string,
  idempotencyKey: string,
  requestDigest: string,
): Promise<{ grant: string; expiresAtMs: number }> {
  const app = findApp(STORYBOARD_APP_KEY)!;
  const url = `${new URL(ctx.state.baseUrl).origin}${SESSION_PATH}/apps/${STORYBOARD_APP_KEY}/app-grants`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${app.appCredential}`,
        'Content-Type': 'application/json',
        'X-Request-ID': ctx.requestId,
      },
      body: JSON.stringify({
        runtimeSessionId,
        calleeAppKey: FRAMEWRIGHT_APP_KEY,
        apiVersion: FRAMEWRIGHT_API_VERSION,
        scope: SCOPE_SEQUENCE_CREATE,
        idempotencyKey,
        requestDigest,
      }),
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(503, 'APP_GRANT_SERVICE_UNAVAILABLE', 'The session service did not answer.', {
      retryable: true,
      headers: { 'Retry-After': '1' },
    });
  }
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 200 && typeof body.grant === 'string' && typeof body.expiresAt === 'string')
    return { grant: body.grant, expiresAtMs: Date.parse(body.expiresAt) };
  if (res.status === 200 || res.status === 409)
    throw new ApiError(
      409,
      'board_revision_already_sent',
      'This revision of the board was sent to this Framewright already and its grant is no longer held; ' +
        'write a panel result (a new revision) to send it again.',
      { details: { idempotencyKey } },
    );
  const retryAfter = res.headers.get('retry-after');
  throw new ApiError(
    res.status,
    typeof body.code === 'string' ? body.code : 'grant_issue_failed',
    typeof body.message === 'string'
      ? body.message
      : `The session service refused the grant (${res.status}).`,
    retryAfter ? { headers: { 'Retry-After': retryAfter } } : {},
  );
}

/** Sends the bytes with only the grant header and Content-Type; no redirect is followed. */
async function sendToFramewright(target: string, send: IssuedSend): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(target + FRAMEWRIGHT_SEQUENCES_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', [GRANT_HEADER]: send.grant },
      body: send.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(CALL_TIMEOUT_MS),
    });
  } catch {
    throw new ApiError(502, 'framewright_unreachable', 'Framewright did not answer at the target address.');
  }
  if (res.status >= 300 && res.status < 400) {
    await res.body?.cancel();
    throw new ApiError(
      502,
      'framewright_redirect_refused',
      'Framewright answered a redirect; none is followed.',
      {
        details: { upstreamStatus: res.status },
      },
    );
  }
  return res;
}

async function boundedText(res: Response): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  const bytes = declared > ANSWER_MAX_BYTES ? undefined : Buffer.from(await res.arrayBuffer());
  if (!bytes || bytes.length > ANSWER_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw new ApiError(502, 'framewright_answer_too_large', 'Framewright answered more than 1 MiB.');
  }
  return bytes;
}

/** The idempotency key of one send: stable for a board revision and a target Framewright. */
export function sendKey(boardId: string, revision: number, target: string): string {
  return `board-to-framewright:${boardId}:r${revision}:${sha256Hex(target).slice(0, 12)}`;
}

/** `POST /_simulator/boards/{boardId}/send-to-framewright` `{targetBaseUrl}`. */
export function sendToFramewrightRoute(sender: FramewrightSender): AppRoute {
  return {
    method: 'POST',
    path: '/_simulator/boards/{boardId}/send-to-framewright',
    handler: async (ctx) => {
      checkSimulatorToken(ctx);
      const raw = await readBody(ctx.req, 4096);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
      }
      const checked = SendRequest.safeParse(parsed);
      if (!checked.success)
        throw new ApiError(400, 'invalid_request', 'The body is {"targetBaseUrl": "http(s)://…"} only.');
      const target = checked.data.targetBaseUrl.replace(/\/+$/, '');
      const board = findBoard(ctx.params.boardId!);
      const owner = board && ownerOf(board.ownerUserId);
      if (!board || !owner) throw new ApiError(404, 'board_not_found', 'No board with this id.');
      const state = boardState(ctx, board);
      const key = sendKey(board.boardId, state.revision, target);
      let send = sender.live(key, ctx.state.clock.nowMs());
      if (!send) {
        const body = Buffer.from(canonicalJson(sentBoard(state)), 'utf8');
        const digest = 'sha256:' + sha256Hex(body);
        const issued = await issueGrant(ctx, sender.sessionOf(ctx, owner), key, digest);
        send = { body, ...issued };
        sender.remember(key, send);
      }
      const answer = await sendToFramewright(target, send);
      const bytes = await boundedText(answer);
      const headers: Record<string, string> = {
        'Content-Type': answer.headers.get('content-type') ?? 'application/octet-stream',
        'Content-Length': String(bytes.length),
        'Cache-Control': 'no-store',
      };
      const retryAfter = answer.headers.get('retry-after');
      if (retryAfter) headers['Retry-After'] = retryAfter;
      ctx.res.writeHead(answer.status, headers);
      ctx.res.end(bytes);
    },
    doc: {
      operationId: 'sendBoardToFramewright',
      summary:
        "Simulator-only: as the board's owner, issue a sequence.create grant for the exact board body and " +
        "POST it to {targetBaseUrl}/inter-app/2026-01/sequences; answers Framewright's answer as it came",
      tags: ['simulator-only'],
      security: 'simulator_token',
      requestBody: SendRequest,
      responses: {
        default: {
          description: "Framewright's answer, passed on as it came (its status, JSON body and Retry-After)",
          schema: SendAnswerDoc,
        },
        400: { description: 'invalid_json, invalid_request', schema: StoryboardError },
        401: { description: 'unauthorized (no simulator token)', schema: StoryboardError },
        403: {
          description: 'owner_access_revoked; APP_CAPABILITY_NOT_DECLARED from the session service',
          schema: StoryboardError,
        },
        404: { description: 'board_not_found', schema: StoryboardError },
        409: { description: 'board_revision_already_sent', schema: StoryboardError },
        502: {
          description: 'framewright_unreachable, framewright_redirect_refused, framewright_answer_too_large',
          schema: StoryboardError,
        },
        503: { description: 'APP_GRANT_SERVICE_UNAVAILABLE (Retry-After)', schema: StoryboardError },
      },
    },
  };
}
