/**
 * Undo and redo of the timeline's edits (issue 40). Each edit is applied through the bridge (so it
 * is in the journal, and the deliveries' reuse keys follow it exactly as today's controls do) and
 * recorded here with what it replaced; undo applies the inverse through the same bridge methods,
 * redo applies it again.
 *
 * Where the history is kept: the page's `localStorage`, one entry per sequence. It is a recipe of
 * bridge calls, not the film's state (the journal holds that), so it belongs to the window that
 * made the edits, survives a reload or a restart of the app, costs no migration and no contract
 * change, and on the platform stays in the person's own browser. A step that no longer applies
 * (the shot was removed elsewhere) is refused by the core with its own sentence and nothing changes.
 */

export interface TrimRange {
  inSeconds: number;
  outSeconds: number;
}

export type TimelineEdit =
  | { kind: 'move'; shotId: string; label: string; from: number; to: number }
  /** A shot taken out (`present: false`) or put back (`present: true`: its inverse). */
  | { kind: 'shot-presence'; shotId: string; label: string; present: boolean }
  | { kind: 'trim'; shotId: string; label: string; before: TrimRange | null; after: TrimRange | null }
  | { kind: 'voice-time'; lineId: string; label: string; before: number; after: number }
  | { kind: 'voice-gain'; lineId: string; label: string; before: number; after: number }
  | {
      kind: 'caption';
      lineId: string;
      cueIndex: number;
      label: string;
      before: CaptionRange | null;
      after: CaptionRange | null;
    }
  | {
      kind: 'levels';
      before: { musicGainDb: number; duckDb: number };
      after: { musicGainDb: number; duckDb: number };
    };

export interface CaptionRange {
  startSeconds: number;
  endSeconds: number;
}

/** What applying an edit needs: the bridge methods behind the timeline's gestures. */
export interface EditPort {
  moveShot(shotId: string, toPosition: number): Promise<boolean>;
  removeShot(shotId: string): Promise<boolean>;
  restoreShot(shotId: string): Promise<boolean>;
  trimShot(shotId: string, range: TrimRange | null): Promise<boolean>;
  updateVoice(lineId: string, change: { atSeconds?: number; gainDb?: number }): Promise<boolean>;
  setLevels(levels: { musicGainDb: number; duckDb: number }): Promise<boolean>;
  updateCaption(lineId: string, cueIndex: number, range: CaptionRange | null): Promise<boolean>;
}

export interface History {
  done: TimelineEdit[];
  undone: TimelineEdit[];
}

/** How many steps are kept per sequence (the oldest go first). */
export const HISTORY_LIMIT = 200;

export const emptyHistory = (): History => ({ done: [], undone: [] });

/** The edit that undoes `edit`. */
export function inverse(edit: TimelineEdit): TimelineEdit {
  switch (edit.kind) {
    case 'move':
      return { ...edit, from: edit.to, to: edit.from };
    case 'shot-presence':
      return { ...edit, present: !edit.present };
    case 'trim':
    case 'voice-time':
    case 'voice-gain':
    case 'caption':
    case 'levels':
      return { ...edit, before: edit.after, after: edit.before } as TimelineEdit;
  }
}

/** Applies an edit's `after` side through the bridge; answers whether the core took it. */
export function applyEdit(edit: TimelineEdit, port: EditPort): Promise<boolean> {
  switch (edit.kind) {
    case 'move':
      return port.moveShot(edit.shotId, edit.to);
    case 'shot-presence':
      return edit.present ? port.restoreShot(edit.shotId) : port.removeShot(edit.shotId);
    case 'trim':
      return port.trimShot(edit.shotId, edit.after);
    case 'voice-time':
      return port.updateVoice(edit.lineId, { atSeconds: edit.after });
    case 'voice-gain':
      return port.updateVoice(edit.lineId, { gainDb: edit.after });
    case 'caption':
      return port.updateCaption(edit.lineId, edit.cueIndex, edit.after);
    case 'levels':
      return port.setLevels(edit.after);
  }
}

/** A new edit: on top of what was done; what was undone can no longer be redone. */
export function recorded(history: History, edit: TimelineEdit): History {
  return { done: [...history.done, edit].slice(-HISTORY_LIMIT), undone: [] };
}

/** The history after the last edit was undone (applied first: the caller applies `inverse`). */
export function afterUndo(history: History): History {
  const last = history.done[history.done.length - 1];
  if (!last) return history;
  return { done: history.done.slice(0, -1), undone: [...history.undone, last] };
}

export function afterRedo(history: History): History {
  const last = history.undone[history.undone.length - 1];
  if (!last) return history;
  return { done: [...history.done, last], undone: history.undone.slice(0, -1) };
}

/** The storage the history lives in (the page's `localStorage`; a map in tests). */
export interface HistoryStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

const keyOf = (sequenceId: string) => `framewright.timeline-history.${sequenceId}`;

const EDIT_KINDS: readonly string[] = [
  'move',
  'shot-presence',
  'trim',
  'voice-time',
  'voice-gain',
  'caption',
  'levels',
];

const isEdit = (value: unknown): value is TimelineEdit => {
  if (!value || typeof value !== 'object') return false;
  const kind = (value as { kind?: unknown }).kind;
  return typeof kind === 'string' && EDIT_KINDS.includes(kind);
};

/** The sequence's history as stored; anything unreadable counts as no history (never an error). */
export function loadHistory(storage: HistoryStorage | undefined, sequenceId: string): History {
  try {
    const raw = storage?.getItem(keyOf(sequenceId));
    if (!raw) return emptyHistory();
    const parsed = JSON.parse(raw) as { done?: unknown; undone?: unknown };
    const list = (v: unknown) => (Array.isArray(v) ? v.filter(isEdit) : []);
    return { done: list(parsed.done), undone: list(parsed.undone) };
  } catch {
    return emptyHistory();
  }
}

export function saveHistory(storage: HistoryStorage | undefined, sequenceId: string, history: History): void {
  try {
    storage?.setItem(keyOf(sequenceId), JSON.stringify(history));
  } catch {
    // a full or refused storage keeps the history for this page only
  }
}

/**
 * The history of one sequence, kept in storage after every change: `edit` applies and records,
 * `undo`/`redo` apply the inverse/the edit and move it between the lists (only once the core took
 * it, so a refused step stays where it was).
 */
export class EditHistory {
  private history: History;
  private readonly listeners = new Set<(history: History) => void>();

  constructor(
    private readonly sequenceId: string,
    private port: EditPort,
    private readonly storage: HistoryStorage | undefined,
  ) {
    this.history = loadHistory(storage, sequenceId);
  }

  /** Tells `listener` of every change; answers the function that stops it. */
  subscribe(listener: (history: History) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The bridge methods to apply edits with (a screen passes its store's current actions). */
  connect(port: EditPort): void {
    this.port = port;
  }

  get state(): History {
    return this.history;
  }

  async edit(edit: TimelineEdit): Promise<boolean> {
    if (!(await applyEdit(edit, this.port))) return false;
    this.set(recorded(this.history, edit));
    return true;
  }

  /** An edit another control already applied (the forms under the timeline): recorded, not applied again. */
  record(edit: TimelineEdit): void {
    this.set(recorded(this.history, edit));
  }

  async undo(): Promise<TimelineEdit | undefined> {
    const last = this.history.done[this.history.done.length - 1];
    if (!last || !(await applyEdit(inverse(last), this.port))) return undefined;
    this.set(afterUndo(this.history));
    return last;
  }

  async redo(): Promise<TimelineEdit | undefined> {
    const last = this.history.undone[this.history.undone.length - 1];
    if (!last || !(await applyEdit(last, this.port))) return undefined;
    this.set(afterRedo(this.history));
    return last;
  }

  private set(history: History): void {
    this.history = history;
    saveHistory(this.storage, this.sequenceId, history);
    for (const listener of this.listeners) listener(history);
  }
}

/** Until the timeline connects its bridge methods, nothing is applied (the forms only record). */
const NO_PORT: EditPort = {
  moveShot: () => Promise.resolve(false),
  removeShot: () => Promise.resolve(false),
  restoreShot: () => Promise.resolve(false),
  trimShot: () => Promise.resolve(false),
  updateVoice: () => Promise.resolve(false),
  setLevels: () => Promise.resolve(false),
  updateCaption: () => Promise.resolve(false),
};

const pageStorage = (): HistoryStorage | undefined => {
  try {
    return (globalThis as { localStorage?: HistoryStorage }).localStorage;
  } catch {
    return undefined;
  }
};

const shared = new Map<string, EditHistory>();

/**
 * The page's one history of a sequence: the timeline applies, undoes and redoes through it, and the
 * forms under it (the strip's moves and trims, a line's time and gain, the music levels, a shot's
 * removal) record what they applied, so Ctrl/⌘+Z covers every edit on the screen.
 */
export function sharedHistory(sequenceId: string): EditHistory {
  let history = shared.get(sequenceId);
  if (!history) {
    history = new EditHistory(sequenceId, NO_PORT, pageStorage());
    shared.set(sequenceId, history);
  }
  return history;
}
