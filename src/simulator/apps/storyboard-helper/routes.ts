import { createHash } from 'node:crypto';
import { iso } from '../../clock.js';
import { ApiError } from '../../errors.js';
import { newId, readBody, sendJson } from '../../http.js';
import {
  findBoard,
  FIXTURE_BOARDS,
  PANEL_IMAGE_HEIGHT,
  PANEL_IMAGE_WIDTH,
  panelImage,
  SCOPE_READ,
  SCOPE_WRITE,
  type FixtureBoard,
} from './fixtures.js';
import { authorizeCall, bodyDigest, readDigest } from './grant-check.js';
import type { AppContext, AppRoute } from './router.js';
import {
  BoardListSchema,
  BoardSchema,
  EchoSchema,
  InspectedBoard,
  InspectedBoardList,
  PanelWriteRequest,
  PanelWriteResponse,
  StoryboardError,
} from './schemas.js';
import type { PanelWrite } from './store.js';

/** Largest body of a panel write. */
export const WRITE_BODY_MAX_BYTES = 64 * 1024;
/** Largest body the echo path reads (it counts and digests, keeps nothing). */
export const ECHO_BODY_MAX_BYTES = 64 * 1024 * 1024;
/** Largest body the echo path makes with `responseBytes`. */
export const ECHO_RESPONSE_MAX_BYTES = 32 * 1024 * 1024;

const boardNotFound = () =>
  new ApiError(404, 'board_not_found', 'No board with this id belongs to the person of the grant.');

/** A board as its owner reads it now: panels with signed image addresses, the latest results, the revision. */
export function boardState(ctx: AppContext, board: FixtureBoard) {
  const writes = ctx.store.ofBoard(board.boardId);
  const last = writes.at(-1);
  const panels = board.panels.map((panel, index) => {
    const image = panelImage(panel.panelId)!;
    const signed = ctx.images.issue(panel.panelId);
    const latest = writes.filter((w) => w.panelId === panel.panelId).at(-1);
    return {
      panelId: panel.panelId,
      position: index + 1,
      prompt: panel.prompt,
      image: {
        url: `${ctx.baseUrl}/images/${encodeURIComponent(panel.panelId)}.png?${signed.query}`,
        mimeType: 'image/png' as const,
        sha256: image.sha256,
        byteSize: image.bytes.length,
        width: PANEL_IMAGE_WIDTH,
        height: PANEL_IMAGE_HEIGHT,
        expiresAt: iso(signed.expiresAtMs),
      },
      result: latest ? { ...latest.result, writeId: latest.writeId, writtenAt: latest.writtenAt } : null,
    };
  });
  return {
    boardId: board.boardId,
    title: board.title,
    revision: 1 + writes.length,
    createdAt: board.createdAt,
    updatedAt: last?.writtenAt ?? board.createdAt,
    panels,
  };
}

function summary(ctx: AppContext, board: FixtureBoard) {
  const state = boardState(ctx, board);
  return {
    boardId: board.boardId,
    title: board.title,
    panelCount: board.panels.length,
    revision: state.revision,
    updatedAt: state.updatedAt,
  };
}

/** A body-less read: its own digest of `{method, path}`, resolved for `storyboard.read`. */
async function authorizeRead(ctx: AppContext) {
  await readBody(ctx.req, WRITE_BODY_MAX_BYTES); // a GET carries nothing the digest would cover
  return authorizeCall(
    ctx.state,
    ctx.req,
    ctx.requestId,
    SCOPE_READ,
    readDigest(ctx.req.method ?? 'GET', ctx.pathWithQuery),
  );
}

/** `GET /boards`: the boards of the grant's person. */
async function listBoards(ctx: AppContext): Promise<void> {
  const grant = await authorizeRead(ctx);
  const items = FIXTURE_BOARDS.filter((b) => b.ownerUserId === grant.subject.userId).map((b) =>
    summary(ctx, b),
  );
  sendJson(ctx.res, 200, { object: 'list', items });
}

/** `GET /boards/{boardId}`: one board of the grant's person (another person's is 404 like an unknown one). */
async function getBoard(ctx: AppContext): Promise<void> {
  const grant = await authorizeRead(ctx);
  const board = findBoard(ctx.params.boardId!);
  if (!board || board.ownerUserId !== grant.subject.userId) throw boardNotFound();
  sendJson(ctx.res, 200, boardState(ctx, board));
}

function writeAnswer(write: PanelWrite, replayed: boolean) {
  return {
    replayed,
    write: {
      writeId: write.writeId,
      boardId: write.boardId,
      panelId: write.panelId,
      result: write.result,
      writtenAt: write.writtenAt,
    },
  };
}

/**
 * `POST /panel-results`: writes a result into a panel of the grant's person. Everything is
 * checked before anything is written: the grant (scope `storyboard.write`, the digest of the
 * exact body received), then the body, then the board and panel. The grant's idempotency key
 * makes a replay answer the first write without writing again.
 */
async function writePanelResult(ctx: AppContext): Promise<void> {
  const raw = await readBody(ctx.req, WRITE_BODY_MAX_BYTES);
  const digest = bodyDigest(raw);
  const grant = await authorizeCall(ctx.state, ctx.req, ctx.requestId, SCOPE_WRITE, digest);
  const type = (ctx.req.headers['content-type'] ?? '').toLowerCase();
  if (type && !type.startsWith('application/json'))
    throw new ApiError(415, 'unsupported_media_type', 'The body must be application/json.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  const checked = PanelWriteRequest.safeParse(parsed);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw new ApiError(
      400,
      'invalid_request',
      issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'The body is invalid.',
      {
        details: {
          issues: checked.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
        },
      },
    );
  }
  const body = checked.data;
  const userId = grant.subject.userId;
  const earlier = ctx.store.byIdempotencyKey(grant.callerAppKey, userId, grant.idempotencyKey);
  if (earlier) {
    if (earlier.requestDigest !== digest)
      throw new ApiError(
        409,
        'idempotency_conflict',
        "This grant's idempotency key already wrote another request.",
      );
    sendJson(ctx.res, 200, writeAnswer(earlier, true));
    return;
  }
  const board = findBoard(body.boardId);
  if (!board || board.ownerUserId !== userId) throw boardNotFound();
  if (!board.panels.some((p) => p.panelId === body.panelId))
    throw new ApiError(404, 'panel_not_found', 'The board has no panel with this id.');
  const write: PanelWrite = {
    writeId: newId('pwr'),
    boardId: board.boardId,
    panelId: body.panelId,
    result: body.result,
    writtenAt: iso(ctx.state.clock.nowMs()),
    callerAppKey: grant.callerAppKey,
    userId,
    idempotencyKey: grant.idempotencyKey,
    requestDigest: digest,
    grantId: grant.grantId,
  };
  ctx.store.add(write);
  sendJson(ctx.res, 200, writeAnswer(write, false));
}

/** `GET /images/{panelId}.png?expires&signature`: the app's own storage (signed address, no grant). */
async function image(ctx: AppContext): Promise<void> {
  ctx.req.resume();
  const panelId = ctx.params.panelId!;
  const found = panelImage(panelId);
  if (!found || !ctx.images.verify(panelId, ctx.query))
    throw new ApiError(404, 'image_not_found', 'No image at this address (unknown, forged or expired).');
  ctx.res.writeHead(200, {
    'Content-Type': 'image/png',
    'Content-Length': String(found.bytes.length),
    'Cache-Control': 'private, max-age=60',
    'X-Content-Sha256': found.sha256,
  });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : found.bytes);
}

/**
 * `ANY /echo/{echoPath*}`: answers the request it received, as an HTTP test service does. Query
 * switches (for testing a client or a relay): `status` (200..599) answers that status, with
 * `location` as the `Location` header of a 3xx; `responseBytes` answers that many bytes of
 * `application/octet-stream` instead of the JSON.
 */
async function echo(ctx: AppContext): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of ctx.req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > ECHO_BODY_MAX_BYTES)
      throw new ApiError(
        413,
        'payload_too_large',
        `The echo path reads at most ${ECHO_BODY_MAX_BYTES} bytes.`,
      );
    hash.update(buffer);
  }
  const statusText = ctx.query.get('status');
  const status = statusText === null ? 200 : Number(statusText);
  if (!Number.isInteger(status) || status < 200 || status > 599)
    throw new ApiError(400, 'invalid_request', 'status must be an integer 200..599.');
  const headers: Record<string, string> = {};
  const location = ctx.query.get('location');
  if (location && status >= 300 && status < 400) headers.Location = location;
  const bytesText = ctx.query.get('responseBytes');
  if (bytesText !== null) {
    const count = Number(bytesText);
    if (!Number.isInteger(count) || count < 0 || count > ECHO_RESPONSE_MAX_BYTES)
      throw new ApiError(400, 'invalid_request', `responseBytes must be 0..${ECHO_RESPONSE_MAX_BYTES}.`);
    ctx.res.writeHead(status, {
      ...headers,
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(count),
    });
    const block = Buffer.alloc(Math.min(count, 1024 * 1024), 0x61);
    for (let left = count; left > 0; left -= block.length) {
      const part = left >= block.length ? block : block.subarray(0, left);
      if (!ctx.res.write(part)) await new Promise((resolve) => ctx.res.once('drain', resolve));
      if (ctx.res.destroyed) return;
    }
    ctx.res.end();
    return;
  }
  const received: Record<string, string> = {};
  for (const [name, value] of Object.entries(ctx.req.headers))
    if (value !== undefined) received[name] = Array.isArray(value) ? value.join(', ') : value;
  sendJson(
    ctx.res,
    status,
    {
      method: (ctx.req.method ?? 'GET').toUpperCase(),
      path: ctx.path,
      query: Object.fromEntries(ctx.query),
      headers: received,
      bodySize: size,
      bodySha256: hash.digest('hex'),
    },
    headers,
  );
}

/** Simulator-only routes are guarded by the simulator's token (not a grant); the body is left unread. */
export function checkSimulatorToken(ctx: AppContext): void {
  if (!ctx.state.identities.resolve(ctx.req.headers.authorization))
    throw new ApiError(401, 'unauthorized', "The simulator's token is required (Authorization: Bearer).", {
      headers: { 'WWW-Authenticate': 'Bearer' },
    });
}

/** Simulator-only inspection (a read: whatever body was sent is dropped). */
function requireSimulatorToken(ctx: AppContext): void {
  ctx.req.resume();
  checkSimulatorToken(ctx);
}

async function inspectBoards(ctx: AppContext): Promise<void> {
  requireSimulatorToken(ctx);
  sendJson(ctx.res, 200, {
    object: 'list',
    items: FIXTURE_BOARDS.map((b) => ({ ...summary(ctx, b), ownerUserId: b.ownerUserId })),
  });
}

async function inspectBoard(ctx: AppContext): Promise<void> {
  requireSimulatorToken(ctx);
  const board = findBoard(ctx.params.boardId!);
  if (!board) throw new ApiError(404, 'board_not_found', 'No board with this id.');
  sendJson(ctx.res, 200, {
    ...boardState(ctx, board),
    ownerUserId: board.ownerUserId,
    writes: ctx.store.ofBoard(board.boardId).map((w) => ({
      writeId: w.writeId,
      panelId: w.panelId,
      callerAppKey: w.callerAppKey,
      idempotencyKey: w.idempotencyKey,
      grantId: w.grantId,
      requestDigest: w.requestDigest,
      writtenAt: w.writtenAt,
      result: w.result,
    })),
  });
}

const err = (description: string) => ({ description, schema: StoryboardError });
const GRANT_ERRORS = {
  401: err('APP_GRANT_MISSING: no X-Platform-App-Grant header'),
  404: err('APP_GRANT_NOT_FOUND: invalid, expired, other callee, wrong scope or digest; or board_not_found'),
  500: err('APP_GRANT_RESOLVE_FAILED: the session service refused the backend itself (fails closed)'),
  503: err('APP_GRANT_SERVICE_UNAVAILABLE: the session service is unavailable (Retry-After)'),
};

/** storyboard-helper's routes (its OpenAPI document is built from the same list). */
export const storyboardRoutes: AppRoute[] = [
  {
    method: 'GET',
    path: '/boards',
    handler: listBoards,
    doc: {
      operationId: 'listBoards',
      summary: "The boards of the grant's person",
      tags: ['boards'],
      security: 'grant',
      scope: SCOPE_READ,
      responses: { 200: { description: 'Board list', schema: BoardListSchema }, ...GRANT_ERRORS },
    },
  },
  {
    method: 'GET',
    path: '/boards/{boardId}',
    handler: getBoard,
    doc: {
      operationId: 'getBoard',
      summary: "One board of the grant's person with its panels (prompt, image, latest result)",
      tags: ['boards'],
      security: 'grant',
      scope: SCOPE_READ,
      responses: { 200: { description: 'Board', schema: BoardSchema }, ...GRANT_ERRORS },
    },
  },
  {
    method: 'POST',
    path: '/panel-results',
    handler: writePanelResult,
    doc: {
      operationId: 'writePanelResult',
      summary: 'Write a result (title, media address and facts) into a panel; idempotent by the grant key',
      tags: ['boards'],
      security: 'grant',
      scope: SCOPE_WRITE,
      requestBody: PanelWriteRequest,
      responses: {
        200: {
          description: 'The write (replayed: true when the key had already written it)',
          schema: PanelWriteResponse,
        },
        400: err('invalid_json, invalid_request'),
        ...GRANT_ERRORS,
        404: err("APP_GRANT_NOT_FOUND; board_not_found (unknown or another person's); panel_not_found"),
        409: err('idempotency_conflict: the grant key already wrote another request'),
        413: err('payload_too_large (64 KiB)'),
        415: err('unsupported_media_type'),
      },
    },
  },
  {
    method: 'GET',
    path: '/images/{panelId}.png',
    handler: image,
    doc: {
      operationId: 'getPanelImage',
      summary: "A panel's PNG at the signed address a board answered (no grant)",
      tags: ['storage'],
      security: 'signed_url',
      query: [
        { name: 'expires', description: 'expiry (ms since the epoch, simulator clock)' },
        { name: 'signature', description: 'signature of the address' },
      ],
      responses: {
        200: { description: 'The PNG', contentType: 'image/png' },
        404: err('image_not_found: unknown, forged or expired address'),
      },
    },
  },
  {
    method: 'ALL',
    path: '/echo/{echoPath*}',
    handler: echo,
    doc: {
      operationId: 'echo',
      summary:
        'Answers the request it received (method, path, query, headers, body size and sha256); no grant',
      tags: ['echo'],
      security: 'none',
      query: [
        { name: 'status', description: 'answer this status (200..599)' },
        { name: 'location', description: 'the Location header of a 3xx status' },
        { name: 'responseBytes', description: 'answer this many bytes (octet-stream) instead of the JSON' },
      ],
      responses: {
        200: { description: 'The request as received', schema: EchoSchema },
        400: err('invalid_request: bad status or responseBytes'),
        413: err('payload_too_large (64 MiB)'),
        default: { description: 'With ?status=N: that status (and Location for a 3xx)', schema: EchoSchema },
      },
    },
  },
  {
    method: 'GET',
    path: '/_simulator/boards',
    handler: inspectBoards,
    doc: {
      operationId: 'inspectBoards',
      summary: "Simulator-only: every board with its owner (the simulator's token, no grant)",
      tags: ['simulator-only'],
      security: 'simulator_token',
      responses: {
        200: { description: 'Every board', schema: InspectedBoardList },
        401: err('unauthorized'),
      },
    },
  },
  {
    method: 'GET',
    path: '/_simulator/boards/{boardId}',
    handler: inspectBoard,
    doc: {
      operationId: 'inspectBoard',
      summary: "Simulator-only: a board's current state and every write it received",
      tags: ['simulator-only'],
      security: 'simulator_token',
      responses: {
        200: { description: 'The board and its writes', schema: InspectedBoard },
        401: err('unauthorized'),
        404: err('board_not_found'),
      },
    },
  },
];
