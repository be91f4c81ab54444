import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { BRIDGE_MAX_BODY_BYTES } from '../../shared/bridge/browser-host-protocol.js';
import {
  PLATFORM_CSRF_HEADER,
  PLATFORM_CSRF_PROTOCOL_PREFIX,
  PLATFORM_SESSION_OVER_CODE,
  PLATFORM_SESSION_PATH,
  PLATFORM_SIGN_IN_CONFIRM_CODE,
  PLATFORM_SIGN_IN_HOLD_SECONDS,
  PLATFORM_SWITCH_CONFIRM_CODE,
  type PlatformSessionView,
  type PlatformSignedInView,
  type PlatformSignInQuestionDetails,
} from '../../shared/bridge/platform-host-protocol.js';
import { isStagePurpose, type StagePurpose } from '../../shared/bridge/api.js';
import type { EventHub } from '../core/events/event-hub.js';
import { OBJECTS_PREFIX } from '../core/storage/signed-read-url.js';
import { mediaSignatureOf, type ResolvedMedia } from '../core/library/media-resolver.js';
import type { PlatformWorkspace, WorkspaceCore } from '../core/platform/platform-workspaces.js';
import {
  asRequestOf,
  isWellFormedLaunchCode,
  type ActiveSession,
  type SessionOver,
} from '../core/platform/runtime-sessions/server-sessions.js';
import type { RuntimeSession } from '../core/platform/runtime-sessions/session-service.js';
import { contentSecurityPolicy } from './content-security-policy.js';
import {
  AttemptLimiter,
  DEFAULT_INTER_APP_LIMITS,
  DEFAULT_SIGN_IN_LIMITS,
  type AttemptLimits,
} from './attempt-limits.js';
import {
  CAP_REFUSALS,
  CAP_RETRY_AFTER_SECONDS,
  SessionCounters,
  type CapKind,
  type SessionCaps,
} from './session-caps.js';
import {
  answerClientError,
  answerFailure,
  decodedPath,
  serveEventSockets,
  serveMediaFile,
  type EventsSocketVerdict,
  readJsonBody,
  Refusal,
  requestUrl,
  safeEqual,
  sendJson,
  serveRendererFile,
  setSecurityHeaders,
} from './http-serving.js';
import { clientAddressOf } from '../core/platform/client-address.js';
import { HeldSignIns } from './held-sign-ins.js';
import { DeploymentProbes, type ReadinessCheck } from './deployment-probes.js';
import { CallPacer, DEFAULT_CALL_PACING, type CallPacing } from './call-pacing.js';
import type { BackendMetrics, SignInOutcome } from '../core/platform/backend-metrics.js';
import { SERVER_OPTIONS, withServerLimits, type ServerLimits } from '../core/process/server-limits.js';

/**
 * The platform host: Framewright's backend as a platform application. It serves the built
 * renderer, signs people in with the platform's launch codes, and routes each bridge call to the
 * workspace of the person whose server-side session the cookie names.
 *
 * Guards, each tested (test/integration/platform-host):
 *  - `Host` must be the public URL's host, and `Origin` its origin (required on every POST and
 *    on the events socket);
 *  - the cookie is an opaque 256-bit id: HttpOnly, SameSite=Strict, Path=/, and `Secure` with
 *    the `__Host-` prefix when the public URL is https; the RuntimeSession's id stays here;
 *  - every state-changing call carries the session's CSRF token as a header (a subprotocol on
 *    the socket); a call without a session is 401, without the token 403;
 *  - a launch code posted by a browser that has a live session is not exchanged until the person
 *    confirms the switch (409 `platform.switch_confirm`, then `replace: true`); the replaced
 *    session ends (login CSRF);
 *  - a launch code posted by a browser with no live session is exchanged but held, without a
 *    cookie, until the person confirms whom it signs in (409 `platform.signin_confirm`, then
 *    `{confirmToken, confirm}`); declined or unanswered within two minutes, it ends (login CSRF);
 *  - identity is taken from the server-side session only, never from a body, query or header;
 *  - a request acts with its own cookie's RuntimeSession (`asRequestOf`), never with another
 *    browser's session of the same person;
 *  - one session holds at most `sessionCaps` uploads, bridge calls and event sockets at once
 *    (429 with `Retry-After` past a cap; released when the request or socket ends, however);
 *  - `/inter-app/` is the one cookie-less surface: other applications' servers call it with a
 *    grant (no Origin), so it is routed before the Origin check and never reads a cookie.
 */
export interface PlatformHostOptions<C extends WorkspaceCore = WorkspaceCore> {
  /** The origin users reach (FRAMEWRIGHT_PUBLIC_URL). */
  publicOrigin: string;
  /** The server-side session table (runtime-sessions feature). */
  sessions: {
    signIn(launchCode: string): Promise<ActiveSession | SessionOver>;
    current(id: string | undefined): Promise<ActiveSession | SessionOver>;
    signOut(id: string): Promise<void>;
  };
  /** Subject → its workspace (platform-workspaces). */
  workspaces: { workspaceOf(subject: RuntimeSession['subject']): PlatformWorkspace<C> };
  /** Pushed events of one workspace, forwarded to that person's sockets only. */
  eventsOf?: (workspace: PlatformWorkspace<C>) => Pick<EventHub, 'subscribe'>;
  /** The studio's routes of one workspace (absent: only bridge calls and events). */
  studio?: {
    /** `POST /bridge/files?name=&for=`: a dropped file's bytes into the person's staging. */
    stage(
      workspace: PlatformWorkspace<C>,
      source: IncomingMessage,
      fileName: string,
      purpose: StagePurpose,
    ): Promise<unknown>;
    /** `GET /media/<route>`: the person's library and staged media (by journal ids only). */
    media(
      workspace: PlatformWorkspace<C>,
      route: string,
      signature: string | null,
    ): Promise<ResolvedMedia | undefined>;
    /** `GET /exports/<name>`: a marked copy the person exported, as a download. */
    exportedFile(workspace: PlatformWorkspace<C>, name: string): string | undefined;
    /** `GET /objects/…`: a signed readUrl (the platform reads it; no cookie, the signature is the capability). */
    serveObject(req: IncomingMessage, res: ServerResponse): Promise<void>;
    /** A person signed in: their job events consumer starts. */
    signedIn?(workspace: PlatformWorkspace<C>): void;
  };
  /**
   * `/inter-app/…`: calls of other applications of the platform (no cookie, no Origin: each
   * carries a grant the handler resolves; core/inter-app/sequence-create-callee.ts). Absent: 404.
   */
  interApp?: (req: IncomingMessage, res: ServerResponse) => Promise<void>;
  rendererDir: string;
  /** Sign-in attempts per client and for the whole backend (defaults: attempt-limits.ts). */
  signInLimits?: AttemptLimits;
  /** Other applications' calls per client and their grant resolves (defaults: attempt-limits.ts). */
  interAppLimits?: AttemptLimits;
  /** Other applications' calls being read or resolved at once; past it 503 with nothing read (default 32). */
  interAppConcurrent?: number;
  /** Proxies whose `X-Forwarded-For` names the client (`FRAMEWRIGHT_TRUSTED_PROXIES`). */
  trustedProxies?: readonly string[];
  /** Uploads, bridge calls and event sockets one session may hold at once (defaults: session-caps.ts). */
  sessionCaps?: SessionCaps;
  /** The pace of one person's bridge calls (defaults: call-pacing.ts). */
  callPacing?: CallPacing;
  /** The server's timeouts and connection cap (defaults: core/process/server-limits.ts). */
  serverLimits?: Partial<ServerLimits>;
  /** The limiter's clock (tests). */
  now?: () => number;
  host?: string;
  port?: number;
  /** The host's own lines (the drain, readiness changes); without `requestLog`, one per request too. */
  log?: (line: string) => void;
  /** One entry per request (the access log): see {@link RequestLogEntry}. */
  requestLog?: (entry: RequestLogEntry) => void;
  /** The backend's metrics: bridge calls, sign-ins, refusals and sockets are recorded here. */
  metrics?: Pick<BackendMetrics, 'bridgeCall' | 'signIn' | 'refused' | 'countSockets'>;
  /**
   * The backend's readiness for `/readyz` (deployment-probes.ts): why it cannot take people now,
   * or undefined. Absent: ready while not draining.
   */
  readiness?: ReadinessCheck;
}

/**
 * One request in the access log. Never a query (a launch code or a readUrl's signature rides
 * there), a header's value other than a well-formed `X-Request-ID`, a cookie, or a name: the person
 * is an opaque id, the same for every request of theirs.
 */
export interface RequestLogEntry {
  /** The caller's `X-Request-ID` when well formed (1..128 of `A-Za-z0-9._:-`), else a new one; sent back. */
  requestId: string;
  method: string;
  /** The path only, at most 200 characters. */
  route: string;
  status: number;
  durationMs: number;
  /** The person whose session made the request (opaque), when one did. */
  person?: string;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A person's calls came faster than their pace for longer than a call may wait (call-pacing.ts). */
const CALLS_TOO_FAST = {
  code: 'host.calls_too_fast',
  message: 'Too many requests from you in a short time: try again in a few seconds.',
};

/** A person's id in the logs: opaque and stable, never their name or platform ids. */
export function opaquePersonId(subject: RuntimeSession['subject']): string {
  return createHash('sha256')
    .update(`framewright-log-person\n${subject.tenantId}\n${subject.userId}\n${subject.organizationId ?? ''}`)
    .digest('hex')
    .slice(0, 16);
}

export interface RunningPlatformHost {
  /** The bound address, e.g. http://127.0.0.1:PORT (users reach the public origin). */
  origin: string;
  port: number;
  /**
   * The drain before a stop (SIGTERM): readiness turns false at once; new sign-ins, uploads and
   * event sockets are refused with a retryable 503 (`host.draining`, `Retry-After`); open event
   * sockets close with 1012 (service restart: the page reconnects); the requests in flight (bridge
   * calls, uploads, downloads) finish. Answers once none is in flight — `finished: true` — or when
   * `graceMs` has passed (`finished: false`); then `close()` ends what is left.
   */
  drain(graceMs: number): Promise<{ finished: boolean; cutShort: number }>;
  close(): Promise<void>;
}

/** Code and reason an event socket is closed with by the drain (RFC 6455 1012: service restart). */
export const DRAIN_SOCKET_CLOSE = { code: 1012, reason: 'restarting' } as const;
/** How soon a request refused by the drain may try again (another replica, or this one restarted). */
export const DRAIN_RETRY_AFTER_SECONDS = 5;

/** The marked copies' types by their file's extension (the core names them `<sha256>.<ext>`). */
const EXPORT_TYPES: Record<string, string> = {
  '.mp4': 'video/mp4',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.zip': 'application/zip',
};

const SESSION_BODY_MAX_BYTES = 4 * 1024;
/** Sign-ins held for the person's confirmation at once (the oldest gives way past it). */
const HELD_SIGN_INS_MAX = 1024;
/** Where other applications call Framewright (`/inter-app/{apiVersion}/…`). */
const INTER_APP_PREFIX = '/inter-app/';
/** What is still read (and dropped) of a refused upload before its connection is closed. */
const REFUSED_UPLOAD_DRAIN_BYTES = 64 * 1024 * 1024;
const REOPEN_MESSAGE = 'Reopen Framewright from your application center.';

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-framewright_session' : 'framewright_session';
}

function cookieValue(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/** A state-changing call must carry the session's CSRF token (a header no other site can set). */
function requireCsrf(req: IncomingMessage, session: ActiveSession): void {
  if (!safeEqual(String(req.headers[PLATFORM_CSRF_HEADER] ?? ''), session.csrfToken))
    throw new Refusal(403, 'host.csrf', 'This call lacks the page’s CSRF token.');
}

/** Who a session is, without anything that acts for them (what the sign-in questions show). */
function signedInView(session: ActiveSession): PlatformSignedInView {
  return {
    userId: session.subject.userId,
    ...(session.subject.organizationId ? { organizationId: session.subject.organizationId } : {}),
  };
}

function viewOf(session: ActiveSession): PlatformSessionView {
  return {
    ...signedInView(session),
    appRoles: [...session.appRoles],
    expiresAt: session.expiresAt,
    csrfToken: session.csrfToken,
  };
}

export async function startPlatformHost<C extends WorkspaceCore>(
  options: PlatformHostOptions<C>,
): Promise<RunningPlatformHost> {
  const rendererDir = path.resolve(options.rendererDir);
  if (!existsSync(path.join(rendererDir, 'index.html'))) {
    throw new Error(`No built renderer at ${rendererDir}. Run "npm run build" first.`);
  }
  const publicUrl = new URL(options.publicOrigin);
  const publicOrigin = publicUrl.origin;
  const secure = publicUrl.protocol === 'https:';
  const cookieName = sessionCookieName(secure);
  const cookieAttributes = `HttpOnly; SameSite=Strict; Path=/${secure ? '; Secure' : ''}`;
  const setCookie = (id: string) => `${cookieName}=${id}; Max-Age=${7 * 24 * 3600}; ${cookieAttributes}`;
  const clearCookie = `${cookieName}=; Max-Age=0; ${cookieAttributes}`;
  const log = options.log ?? (() => undefined);
  const signInLimiter = new AttemptLimiter(options.signInLimits ?? DEFAULT_SIGN_IN_LIMITS, options.now);
  const interAppLimiter = new AttemptLimiter(options.interAppLimits ?? DEFAULT_INTER_APP_LIMITS, options.now);
  const interAppConcurrent = options.interAppConcurrent ?? 32;
  let interAppInFlight = 0;
  const trustedProxies = new Set(options.trustedProxies ?? []);
  const counters = new SessionCounters(options.sessionCaps);
  const pacing = options.callPacing ?? DEFAULT_CALL_PACING;
  const pacer = new CallPacer(pacing, options.now);
  const retryAfter = { 'Retry-After': String(CAP_RETRY_AFTER_SECONDS) };
  const endSession = (id: string) => options.sessions.signOut(id).catch(() => undefined);
  const heldSignIns = new HeldSignIns<ActiveSession>(
    PLATFORM_SIGN_IN_HOLD_SECONDS * 1000,
    HELD_SIGN_INS_MAX,
    (session) => void endSession(session.id),
    options.now,
  );
  const heldSweep = setInterval(() => heldSignIns.sweep(), 10_000);
  heldSweep.unref();
  const probes = new DeploymentProbes(options.readiness ?? (() => Promise.resolve(undefined)), log);
  /** Requests being answered (not the probes'): the drain waits for them. */
  const inFlight = new Set<ServerResponse>();
  let idle: (() => void) | undefined;
  /** New work the drain no longer takes: the body is left unread and the connection closed. */
  const refuseWhileDraining = (what: string) => {
    if (probes.isDraining)
      throw new Refusal(
        503,
        'host.draining',
        `Framewright is restarting and takes no new ${what} here; try again in a few seconds.`,
        { 'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS), Connection: 'close' },
      );
  };

  /**
   * Runs `work` holding one of the session's `kind`, or answers 429 (the body unread, the
   * connection closed). The count comes back once the work has settled and the response is closed,
   * however each ended (answered, failed, the client gone).
   */
  const capped = async (
    req: IncomingMessage,
    res: ServerResponse,
    session: ActiveSession,
    kind: CapKind,
    work: () => Promise<void>,
  ) => {
    const release = counters.take(session.id, kind);
    if (!release) {
      options.metrics?.refused(`cap.${kind}`);
      return sendJson(
        res,
        429,
        { ok: false, error: CAP_REFUSALS[kind] },
        { ...retryAfter, Connection: 'close' },
      );
    }
    let pending = 2;
    const settled = () => {
      pending -= 1;
      if (pending === 0) release();
    };
    res.once('close', settled);
    try {
      await work();
    } finally {
      settled();
    }
  };

  const hostIsOurs = (req: IncomingMessage) => req.headers.host === publicUrl.host;
  /** Origin must be ours when sent; on state-changing calls (and sockets) it must be sent. */
  const originIsOurs = (req: IncomingMessage, required: boolean) =>
    req.headers.origin === undefined ? !required : req.headers.origin === publicOrigin;

  /**
   * 401 `platform.session_over`. The cookie is cleared only when `clear` (the request's own cookie
   * names the session that is over): an answer to a request sent without one, or to a stale
   * confirmation, may arrive after a sign-in set a new cookie, and must not clear that one.
   */
  const over = (res: ServerResponse, clear: boolean) =>
    sendJson(
      res,
      401,
      { ok: false, error: { code: PLATFORM_SESSION_OVER_CODE, message: REOPEN_MESSAGE } },
      clear ? { 'Set-Cookie': clearCookie } : {},
    );

  /** Whose session each request is answered for (the access log's opaque person). */
  const personOf = new WeakMap<ServerResponse, string>();
  /** A sign-in's outcome where its status does not tell it (metrics). */
  const signInOutcomeOf = new WeakMap<ServerResponse, SignInOutcome>();
  const signInOutcome = (res: ServerResponse): SignInOutcome => {
    const marked = signInOutcomeOf.get(res);
    if (marked) return marked;
    if (res.statusCode === 200) return res.hasHeader('set-cookie') ? 'signed_in' : 'declined';
    if (res.statusCode === 409) return 'confirm_asked';
    if (res.statusCode === 429) return 'too_many';
    if (res.statusCode === 503) return 'draining';
    return res.statusCode < 500 ? 'refused' : 'failed';
  };
  /** The active session of the request's cookie, or undefined after answering "reopen". */
  const sessionOf = async (req: IncomingMessage, res: ServerResponse) => {
    const cookie = cookieValue(req, cookieName);
    const session = await options.sessions.current(cookie);
    if (session.status === 'over') {
      over(res, cookie !== undefined);
      return undefined;
    }
    personOf.set(res, opaquePersonId(session.subject));
    return session;
  };

  const sessionRoute = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'GET') {
      const session = await sessionOf(req, res);
      if (session) sendJson(res, 200, { ok: true, result: viewOf(session) });
      return;
    }
    if (req.method === 'DELETE') {
      const session = await sessionOf(req, res);
      if (!session) return;
      requireCsrf(req, session);
      await options.sessions.signOut(session.id);
      return sendJson(res, 200, { ok: true, result: null }, { 'Set-Cookie': clearCookie });
    }
    if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
    refuseWhileDraining('sign-ins');
    // each sign-in may make the backend call the session service: limited per address (and per
    // address again for failed exchanges), and overall for the codes that reach the service
    const client = clientAddressOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    const tooMany = (retryAfterSeconds: number) => {
      req.resume();
      return sendJson(
        res,
        429,
        {
          ok: false,
          error: { code: 'host.too_many_sign_ins', message: 'Too many sign-ins: try again shortly.' },
        },
        { 'Retry-After': String(retryAfterSeconds) },
      );
    };
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      throw new Refusal(415, 'host.content_type', 'The launch code is sent as JSON.');
    // only the launch code and the person's answers are read: identity fields of a body never are
    const body = (await readJsonBody(req, SESSION_BODY_MAX_BYTES)) as {
      launchCode?: unknown;
      replace?: unknown;
      confirmToken?: unknown;
      confirm?: unknown;
    } | null;
    // the answer to a held sign-in calls nothing out (a 256-bit token, taken once): not an attempt
    if (typeof body?.confirmToken === 'string')
      return answerHeldSignIn(req, res, body.confirmToken, body.confirm);
    const admitted = signInLimiter.admit(client);
    if (!admitted.admitted) return tooMany(admitted.retryAfterSeconds);
    const launchCode = body?.launchCode;
    // refused before anything else: a malformed code is never sent to the session service
    if (!isWellFormedLaunchCode(launchCode))
      throw new Refusal(400, 'host.bad_launch_code', 'That is not a launch code.');
    // login CSRF: a link must not silently replace who this browser is signed in as. With a live
    // session here, nothing is exchanged until the person confirms (`replace: true`).
    const previousId = cookieValue(req, cookieName);
    const previous = previousId ? await options.sessions.current(previousId) : undefined;
    if (previous?.status === 'active' && body?.replace !== true) {
      const signedIn = signedInView(previous);
      signInOutcomeOf.set(res, 'switch_asked');
      return sendJson(res, 409, {
        ok: false,
        error: {
          code: PLATFORM_SWITCH_CONFIRM_CODE,
          message: 'This browser is signed in already: confirm before the link signs you in.',
          details: { signedIn },
        },
      });
    }
    const exchange = signInLimiter.admitCall(client);
    if (!exchange.admitted) return tooMany(exchange.retryAfterSeconds);
    const session = await options.sessions.signIn(launchCode);
    if (session.status === 'over') signInLimiter.failed(client);
    // a new sign-in always ends this browser's previous session (confirmed above when it was live)
    if (previousId && previous?.status === 'active') await options.sessions.signOut(previousId);
    // the browser's previous session, if it sent one, is over or was just ended
    if (session.status === 'over') return over(res, previousId !== undefined);
    // login CSRF with no session here: the link's person is shown and confirmed before any cookie
    if (previous?.status !== 'active') {
      const question: PlatformSignInQuestionDetails = {
        signingIn: signedInView(session),
        confirmToken: heldSignIns.hold(session),
      };
      return sendJson(res, 409, {
        ok: false,
        error: {
          code: PLATFORM_SIGN_IN_CONFIRM_CODE,
          message: 'Confirm whom this link signs in before it does.',
          details: question,
        },
      });
    }
    signedInAs(res, session);
  };

  const signedInAs = (res: ServerResponse, session: ActiveSession) => {
    options.studio?.signedIn?.(options.workspaces.workspaceOf(session.subject));
    personOf.set(res, opaquePersonId(session.subject));
    sendJson(res, 200, { ok: true, result: viewOf(session) }, { 'Set-Cookie': setCookie(session.id) });
  };

  /** The person's answer to `platform.signin_confirm`: the held session gets its cookie, or ends. */
  const answerHeldSignIn = async (
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    confirm: unknown,
  ) => {
    const session = heldSignIns.take(token);
    // unknown, answered already or held too long: nothing is signed in
    // (a second answer, as from a double click, leaves the browser's cookie as the first set it)
    if (!session) return over(res, false);
    if (confirm !== true) {
      await endSession(session.id);
      return sendJson(res, 200, { ok: true, result: null });
    }
    // a session this browser started meanwhile gives way to the one the person confirmed
    const previousId = cookieValue(req, cookieName);
    if (previousId && previousId !== session.id) await endSession(previousId);
    signedInAs(res, session);
  };

  const invoke = async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
    const session = await sessionOf(req, res);
    if (!session) return;
    requireCsrf(req, session);
    if (!(req.headers['content-type'] ?? '').startsWith('application/json'))
      throw new Refusal(415, 'host.content_type', 'Bridge calls are JSON.');
    // counted before the body is read: one session cannot hold many 12 MB bodies at once
    await capped(req, res, session, 'calls', async () => {
      // the person's fair share: a call past their pace waits its turn, its body still unread
      const bytes = Number(req.headers['content-length']) || 0;
      const waitMs = pacer.reserve(opaquePersonId(session.subject), bytes);
      if (waitMs === undefined) {
        options.metrics?.refused('pace.calls');
        return sendJson(
          res,
          429,
          { ok: false, error: CALLS_TOO_FAST },
          { 'Retry-After': String(Math.ceil(pacing.maxWaitMs / 1000)), Connection: 'close' },
        );
      }
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      const body = await readJsonBody(req, BRIDGE_MAX_BODY_BYTES);
      const { method, params } = (body ?? {}) as { method?: unknown; params?: unknown };
      const workspace = options.workspaces.workspaceOf(session.subject);
      const started = performance.now();
      const answer = await asRequestOf(session, () => workspace.dispatcher.dispatch(method, params));
      options.metrics?.bridgeCall(method, (performance.now() - started) / 1000, answer);
      sendJson(res, 200, answer);
    });
  };

  const stage = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const studio = options.studio;
    if (!studio) throw new Refusal(404, 'host.not_found', 'Not found.');
    if (req.method !== 'POST') throw new Refusal(405, 'host.method', 'Use POST.');
    const session = await sessionOf(req, res);
    if (!session) return;
    requireCsrf(req, session);
    // not a "simple" content type: a cross-site form or fetch cannot send it without a preflight
    if (!(req.headers['content-type'] ?? '').startsWith('application/octet-stream'))
      throw new Refusal(415, 'host.content_type', 'Files are sent as application/octet-stream.');
    const name = url.searchParams.get('name') ?? 'file';
    const purpose = url.searchParams.get('for') ?? 'composer';
    if (!isStagePurpose(purpose))
      throw new Refusal(400, 'file.bad_purpose', 'Files are staged for "composer" or "playground".');
    refuseWhileDraining('uploads');
    await capped(req, res, session, 'uploads', async () => {
      const workspace = options.workspaces.workspaceOf(session.subject);
      try {
        const result = await asRequestOf(session, () => studio.stage(workspace, req, name, purpose));
        sendJson(res, 200, { ok: true, result });
      } catch (error) {
        const shaped = error as { code?: unknown; message?: unknown; details?: unknown };
        const code = typeof shaped.code === 'string' ? shaped.code : 'file.stage_failed';
        sendJson(res, 200, {
          ok: false,
          error: {
            code,
            message: typeof shaped.message === 'string' ? shaped.message : 'The file could not be staged.',
            // the quota's numbers (what is used, the limits): nothing else of an error leaves
            ...(code === 'quota.exceeded' && shaped.details !== undefined ? { details: shaped.details } : {}),
          },
        });
        // a refused upload's remaining bytes are read and dropped (so the page reads the answer
        // rather than a reset connection), up to a bound past which the connection is closed
        if (!req.readableEnded && !req.destroyed) {
          let dropped = 0;
          req.on('data', (chunk: Buffer) => {
            dropped += chunk.length;
            if (dropped > REFUSED_UPLOAD_DRAIN_BYTES) req.destroy();
          });
          req.resume();
        }
      }
    });
  };

  /** `/media/` and `/exports/`: the cookie's person's own files only (a guessed id names their own rows). */
  const personalFile = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const studio = options.studio;
    if (!studio) throw new Refusal(404, 'host.not_found', 'Not found.');
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'host.method', 'Use GET.');
    const session = await sessionOf(req, res);
    if (!session) return;
    const workspace = options.workspaces.workspaceOf(session.subject);
    if (url.pathname.startsWith('/media/')) {
      const found = await asRequestOf(session, () =>
        studio.media(workspace, decodedPath(url.pathname.slice('/media/'.length)), mediaSignatureOf(url)),
      ).catch(() => undefined);
      if (!found) throw new Refusal(404, 'host.not_found', 'Not found.');
      return serveMediaFile(req, res, found);
    }
    const name = decodedPath(url.pathname.slice('/exports/'.length)).replace(/^\//, '');
    const file = studio.exportedFile(workspace, name);
    if (!file || !existsSync(file)) throw new Refusal(404, 'host.not_found', 'Not found.');
    const type = EXPORT_TYPES[path.extname(name)] ?? 'application/octet-stream';
    return serveMediaFile(req, res, { path: file, mimeType: type, disposition: 'attachment' });
  };

  /**
   * Another application's call, unauthenticated until its grant is resolved: limited per calling
   * server and in all (a refused grant makes its caller a suspect with a small allowance of its own),
   * and at most `interAppConcurrent` read or resolved at once. A refused call reads no body and
   * closes its connection: a flood cannot hold memory or make the backend call the platform.
   */
  const interAppCall = async (
    req: IncomingMessage,
    res: ServerResponse,
    handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  ) => {
    const client = clientAddressOf(req.socket.remoteAddress, req.headers['x-forwarded-for'], trustedProxies);
    const refuse = (status: 429 | 503, retryAfterSeconds: number) => {
      if (status === 429) options.metrics?.refused('inter_app.too_many');
      sendJson(
        res,
        status,
        { code: status === 429 ? 'too_many_requests' : 'busy', message: 'Try again after Retry-After.' },
        { 'Retry-After': String(retryAfterSeconds), Connection: 'close' },
      );
      res.once('finish', () => req.destroy());
    };
    if (interAppInFlight >= interAppConcurrent) return refuse(503, 1);
    const attempt = interAppLimiter.admit(client);
    if (!attempt.admitted) return refuse(429, attempt.retryAfterSeconds);
    const call = interAppLimiter.admitCall(client);
    if (!call.admitted) return refuse(429, call.retryAfterSeconds);
    interAppInFlight += 1;
    try {
      await handler(req, res);
    } finally {
      interAppInFlight -= 1;
      // a missing, refused or oversized grant or body: this caller is a suspect for a while
      if ([400, 401, 404, 408, 413].includes(res.statusCode)) interAppLimiter.failed(client);
    }
  };

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const early = requestUrl(req);
    // the platform reads signed readUrls by the public name; the signature is the only credential
    if (early.pathname.startsWith(OBJECTS_PREFIX) && options.studio && hostIsOurs(req))
      return options.studio.serveObject(req, res);
    if (!hostIsOurs(req))
      throw new Refusal(421, 'host.bad_host', 'Requests must address this host by its public name.');
    // another application's backend: a grant per call (resolved by the handler), never a cookie
    if (early.pathname.startsWith(INTER_APP_PREFIX)) {
      if (!options.interApp) throw new Refusal(404, 'host.not_found', 'Not found.');
      return interAppCall(req, res, options.interApp);
    }
    const safe = req.method === 'GET' || req.method === 'HEAD';
    if (!originIsOurs(req, !safe))
      throw new Refusal(403, 'host.bad_origin', 'Cross-origin requests are refused.');
    const url = requestUrl(req);
    if (url.pathname === PLATFORM_SESSION_PATH) return sessionRoute(req, res);
    if (url.pathname === '/bridge/invoke') return invoke(req, res);
    if (url.pathname === '/bridge/files') return stage(req, res, url);
    if (url.pathname.startsWith('/media/') || url.pathname.startsWith('/exports/'))
      return personalFile(req, res, url);
    if (url.pathname.startsWith('/bridge/') || url.pathname.startsWith('/platform/'))
      throw new Refusal(404, 'host.not_found', 'Not found.');
    if (!safe) throw new Refusal(405, 'host.method', 'Method not allowed.');
    return serveRendererFile(rendererDir, url.pathname, res, req.method === 'HEAD');
  };

  const server = withServerLimits(
    http.createServer(SERVER_OPTIONS, (req, res) => {
      // the orchestrator's probes: before the Host check and every other rule, no data either way
      if (DeploymentProbes.isProbe(req)) {
        probes.answer(req, res).catch((error: unknown) => answerFailure(res, error));
        return;
      }
      const started = performance.now();
      const offered = req.headers['x-request-id'];
      const requestId = typeof offered === 'string' && REQUEST_ID.test(offered) ? offered : randomUUID();
      res.setHeader('X-Request-ID', requestId);
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (inFlight.size === 0) idle?.();
      });
      setSecurityHeaders(res, contentSecurityPolicy());
      res.on('finish', () => {
        // the path only: a query may carry a launch code or a readUrl's signature
        const pathname = ((req.url ?? '').split('?')[0] ?? '').slice(0, 200);
        if (pathname === PLATFORM_SESSION_PATH && req.method === 'POST')
          options.metrics?.signIn(signInOutcome(res));
        if (!options.requestLog) return log(`${req.method ?? '-'} ${pathname} ${res.statusCode}`);
        const person = personOf.get(res);
        options.requestLog({
          requestId,
          method: req.method ?? '-',
          route: pathname,
          status: res.statusCode,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(person ? { person } : {}),
        });
      });
      route(req, res).catch((error: unknown) => answerFailure(res, error));
    }),
    options.serverLimits,
  );
  server.on('clientError', answerClientError);

  const sockets = serveEventSockets(server, {
    hostIsOurs,
    originIsOurs: (req) => originIsOurs(req, true),
    async admit(req): Promise<EventsSocketVerdict> {
      if (probes.isDraining)
        return {
          accept: false,
          status: '503 Service Unavailable',
          headers: { 'Retry-After': String(DRAIN_RETRY_AFTER_SECONDS) },
        };
      const session = await options.sessions.current(cookieValue(req, cookieName));
      if (session.status === 'over') return { accept: false, status: '401 Unauthorized' };
      // browsers cannot set headers on a socket: the CSRF token rides as a subprotocol
      const offered = String(req.headers['sec-websocket-protocol'] ?? '').split(',');
      const csrfOk = offered.some((p) => {
        const value = p.trim();
        return (
          value.startsWith(PLATFORM_CSRF_PROTOCOL_PREFIX) &&
          safeEqual(value.slice(PLATFORM_CSRF_PROTOCOL_PREFIX.length), session.csrfToken)
        );
      });
      if (!csrfOk) return { accept: false, status: '403 Forbidden' };
      const release = counters.take(session.id, 'sockets');
      if (!release) {
        options.metrics?.refused('cap.sockets');
        return { accept: false, status: '429 Too Many Requests', headers: retryAfter };
      }
      // the count comes back when the connection ends, whether or not the socket ever opened
      req.socket.once('close', release);
      const workspace = options.workspaces.workspaceOf(session.subject);
      return {
        accept: true,
        opened(ws) {
          // each pushed event is a use of the session: once it is over (revoked, signed out,
          // expired) the socket closes and nothing more reaches the page. In order, one at a time.
          let sending = Promise.resolve();
          const unsubscribe = options.eventsOf?.(workspace).subscribe((event, payload) => {
            sending = sending.then(async () => {
              if (ws.readyState !== ws.OPEN) return;
              const still = await options.sessions.current(session.id).catch(() => undefined);
              if (still?.status !== 'active') return ws.close(4401, PLATFORM_SESSION_OVER_CODE);
              if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event, payload }));
            });
          });
          ws.on('close', () => unsubscribe?.());
        },
      };
    },
  });

  if (options.metrics) options.metrics.countSockets = () => sockets.clients.size;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const hostPart = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    origin: `http://${hostPart}:${address.port}`,
    port: address.port,
    async drain(graceMs) {
      probes.startDraining();
      log('draining: readiness is false; new sign-ins, uploads and event sockets are refused');
      for (const client of sockets.clients) client.close(DRAIN_SOCKET_CLOSE.code, DRAIN_SOCKET_CLOSE.reason);
      const quiet = new Promise<boolean>((resolve) => {
        if (inFlight.size === 0) return resolve(true);
        idle = () => resolve(true);
      });
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), graceMs)));
      const finished = await Promise.race([quiet, late]);
      clearTimeout(timer);
      idle = undefined;
      return { finished, cutShort: finished ? 0 : inFlight.size };
    },
    async close() {
      clearInterval(heldSweep);
      heldSignIns.clear();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
