import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { OutcomeUnknownError, ResponseShapeError } from '../api-clients/api-errors.js';
import { parseRetryAfter } from '../api-clients/retry/retry-after.js';
import { canonicalJsonBytes } from '../inter-app/canonical-json.js';
import type { GrantChannel } from '../inter-app/grant-channel.js';
import { GrantPlaintextGoneError, InterAppError } from '../inter-app/grant-errors.js';
import { readRequestDigest, requestDigest } from '../inter-app/request-digest.js';
import {
  Board,
  BoardList,
  CalleeError,
  PanelWriteAnswer,
  STORYBOARD_HELPER as APP,
  type BoardSummary,
  type PanelResultInput,
} from './storyboard-schemas.js';

/** Reads are tried this often, each with a NEW grant (a grant is short-lived and bound to one request). */
const READ_ATTEMPTS = 3;
/** A write whose answer was lost is sent again (the same bytes, the same grant) this often. */
const WRITE_ATTEMPTS = 3;
/** Keys issued after the first for one write whose grant plaintext is gone (restart, lost answer). */
const SUCCESSOR_KEYS = 3;
/** A grant held for a write is used only while it has this much life left. */
const GRANT_MARGIN_MS = 15_000;

/** A held write grant: in memory only, never logged or written anywhere. */
interface HeldGrant {
  grant: string;
  digest: string;
  expiresAtMs: number;
}

/**
 * Storyboard Helper's business interface, called as the signed-in person over a GrantChannel:
 * each request's exact bytes are built once, digested, a grant issued for exactly them, and those
 * same bytes sent. Answers are checked with zod; refusals become InterAppError sentences.
 */
export class StoryboardHelperClient {
  private readonly held = new Map<string, HeldGrant>();

  constructor(
    private readonly channel: GrantChannel,
    private readonly now: () => number = Date.now,
  ) {}

  async listBoards(): Promise<BoardSummary[]> {
    return (await this.read('/boards', BoardList)).items;
  }

  getBoard(boardId: string): Promise<Board> {
    return this.read(`/boards/${encodeURIComponent(boardId)}`, Board);
  }

  /**
   * Writes a result into a panel under `actionKey` (stable for the business action): a write sent
   * again is answered `replayed` by the callee. When the first key's grant plaintext is gone (a
   * lost issue answer, a restart), the panel is read first: already holding this content, it is
   * answered as a replay; else the write goes under the action's next key.
   */
  async writePanelResult(
    input: { boardId: string; panelId: string; result: PanelResultInput },
    actionKey: string,
  ): Promise<{ replayed: boolean; writeId: string }> {
    const bytes = canonicalJsonBytes({
      boardId: input.boardId,
      panelId: input.panelId,
      result: input.result,
    });
    const digest = requestDigest(bytes);
    for (let n = 0; n <= SUCCESSOR_KEYS; n += 1) {
      const key = n === 0 ? actionKey : `${actionKey}.${n}`;
      let grant: string;
      try {
        grant = await this.writeGrant(key, digest);
      } catch (error) {
        if (!(error instanceof GrantPlaintextGoneError)) throw error;
        const board = await this.getBoard(input.boardId);
        const written = board.panels.find((p) => p.panelId === input.panelId)?.result;
        if (written?.sha256 === input.result.sha256 && written.mediaUrl === input.result.mediaUrl)
          return { replayed: true, writeId: written.writeId };
        continue;
      }
      const answer = await this.sendWrite(bytes, grant);
      return { replayed: answer.replayed, writeId: answer.write.writeId };
    }
    throw new InterAppError({ apiCode: 'APP_GRANT_NOT_FOUND', status: 404, appLabel: APP.label });
  }

  private async writeGrant(key: string, digest: string): Promise<string> {
    const held = this.held.get(key);
    if (held && held.digest === digest && held.expiresAtMs - GRANT_MARGIN_MS > this.now()) return held.grant;
    const issued = await this.channel.issue({
      calleeAppKey: APP.appKey,
      apiVersion: APP.apiVersion,
      scope: APP.writeScope,
      idempotencyKey: key,
      requestDigest: digest,
    });
    this.forgetExpired();
    this.held.set(key, { grant: issued.grant, digest, expiresAtMs: Date.parse(issued.expiresAt) });
    return issued.grant;
  }

  private forgetExpired(): void {
    for (const [key, held] of this.held) if (held.expiresAtMs <= this.now()) this.held.delete(key);
  }

  /** The same bytes with the same grant after a lost answer: the callee answers the first write. */
  private async sendWrite(bytes: Buffer, grant: string): Promise<z.output<typeof PanelWriteAnswer>> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const answer = await this.channel.send({
          method: 'POST',
          path: '/panel-results',
          body: bytes,
          grant,
        });
        return answerOf(answer, PanelWriteAnswer, 'write a panel result');
      } catch (error) {
        if (attempt < WRITE_ATTEMPTS && error instanceof OutcomeUnknownError) continue;
        throw error;
      }
    }
  }

  private async read<S extends z.ZodType>(path: string, schema: S): Promise<z.output<S>> {
    const digest = readRequestDigest(path);
    for (let attempt = 1; ; attempt += 1) {
      try {
        const { grant } = await this.channel.issue({
          calleeAppKey: APP.appKey,
          apiVersion: APP.apiVersion,
          scope: APP.readScope,
          idempotencyKey: `fw-read-${randomUUID()}`,
          requestDigest: digest,
        });
        const answer = await this.channel.send({ method: 'GET', path, grant });
        return answerOf(answer, schema, `read ${path}`);
      } catch (error) {
        const again =
          error instanceof OutcomeUnknownError ||
          error instanceof GrantPlaintextGoneError ||
          (error instanceof InterAppError && (error.group === 'unavailable' || error.group === 'refused'));
        if (attempt < READ_ATTEMPTS && again) continue;
        throw error;
      }
    }
  }
}

function answerOf<S extends z.ZodType>(
  answer: { status: number; headers: Headers; body: Buffer },
  schema: S,
  operation: string,
): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(answer.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (answer.status < 200 || answer.status >= 300) {
    const refused = CalleeError.safeParse(json);
    throw new InterAppError({
      apiCode: refused.success ? refused.data.code : `http_${answer.status}`,
      status: answer.status,
      appLabel: APP.label,
      retryAfterSeconds: parseRetryAfter(answer.headers.get('retry-after') ?? undefined),
    });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success)
    throw new ResponseShapeError(`${APP.label}: ${operation}`, 'the answer is not the expected shape');
  return parsed.data;
}
