import { PlatformLog } from '../../platform/platform-log.js';

/** What a caller writes into a panel (the body's `result`). */
export interface PanelResult {
  title: string;
  mediaUrl: string;
  mimeType: string;
  sha256: string;
  byteSize: number;
}

/**
 * One accepted panel write. Keyed by the caller's application, the person and the grant's
 * idempotency key: a replay of that key answers this record and writes nothing. No grant
 * plaintext is kept (only the grant's id).
 */
export interface PanelWrite {
  writeId: string;
  boardId: string;
  panelId: string;
  result: PanelResult;
  writtenAt: string;
  callerAppKey: string;
  /** The subject `userId` the grant named (the board's owner). */
  userId: string;
  idempotencyKey: string;
  requestDigest: string;
  grantId: string;
}

const RECORD_KIND = 'storyboard_panel_write';

/** File of storyboard-helper's own state under `--data-dir` (next to `platform-state.jsonl`). */
export const STORYBOARD_STATE_FILE = 'storyboard-helper.jsonl';

const idempotencyId = (callerAppKey: string, userId: string, key: string) =>
  JSON.stringify([callerAppKey, userId, key]);

/** The written panel results, in write order; appended to its own log file when one is given. */
export class PanelWriteStore {
  private readonly writes: PanelWrite[] = [];
  private readonly byKey = new Map<string, PanelWrite>();

  constructor(private readonly log?: PlatformLog) {
    if (!log) return;
    for (const record of log.read()) if (record.t === RECORD_KIND) this.remember(record.v as PanelWrite);
    log.compact(this.writes.map((v) => ({ t: RECORD_KIND, id: v.writeId, v })));
  }

  static open(file: string | undefined): PanelWriteStore {
    return new PanelWriteStore(file ? new PlatformLog(file) : undefined);
  }

  private remember(write: PanelWrite): void {
    this.writes.push(write);
    this.byKey.set(idempotencyId(write.callerAppKey, write.userId, write.idempotencyKey), write);
  }

  byIdempotencyKey(callerAppKey: string, userId: string, key: string): PanelWrite | undefined {
    return this.byKey.get(idempotencyId(callerAppKey, userId, key));
  }

  add(write: PanelWrite): void {
    this.remember(write);
    this.log?.append(RECORD_KIND, write.writeId, write);
  }

  /** Every write to a board, oldest first. */
  ofBoard(boardId: string): PanelWrite[] {
    return this.writes.filter((w) => w.boardId === boardId);
  }
}
