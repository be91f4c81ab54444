import { create } from 'zustand';
import type {
  AppInfo,
  CollectionView,
  JobNoteView,
  NoteRect,
  ProjectView,
  ReviewPackageView,
} from '../../../shared/bridge/contract';
import { NOTE_TEXT_MAX_CHARS, COLLECTION_NAME_MAX_CHARS } from '../../../shared/library-review';
import { bridge } from '../bridge';
import { useStudio } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The review speeds offered (buttons and `[` / `]`). */
export const SPEEDS = [0.25, 0.5, 1, 1.5, 2] as const;

/** A mark as `library.mark` takes it, without the row. */
export interface TakeMark {
  flag?: 'pick' | 'reject' | null;
  stars?: number;
}

/** A loop between two times of the take (null: that end is not set). */
export interface LoopRange {
  a: number | null;
  b: number | null;
}

/** The note being written: its take, the time it is pinned to, the rectangle drawn (if any). */
export interface NoteDraft {
  jobRowId: number;
  atSeconds: number;
  rect: NoteRect | null;
}

/** Why a name or a note was not sent (the core is not asked with what it would refuse). */
export type InputProblem = 'empty' | 'tooLong';

export function nameProblem(name: string): InputProblem | null {
  const trimmed = name.trim();
  if (!trimmed) return 'empty';
  return trimmed.length > COLLECTION_NAME_MAX_CHARS ? 'tooLong' : null;
}

export function noteProblem(text: string): InputProblem | null {
  const trimmed = text.trim();
  if (!trimmed) return 'empty';
  return trimmed.length > NOTE_TEXT_MAX_CHARS ? 'tooLong' : null;
}

/** `order` with `rowId` moved `delta` places (clamped at both ends); unchanged when it is absent. */
export function moveItem(order: readonly number[], rowId: number, delta: number): number[] {
  const from = order.indexOf(rowId);
  if (from < 0) return [...order];
  return moveTo(order, rowId, from + delta);
}

/** `order` with `rowId` put at index `to` (clamped): what a drop does. */
export function moveTo(order: readonly number[], rowId: number, to: number): number[] {
  const rest = order.filter((id) => id !== rowId);
  if (rest.length === order.length) return [...order];
  const at = Math.max(0, Math.min(rest.length, to));
  return [...rest.slice(0, at), rowId, ...rest.slice(at)];
}

/** The selected results in the order they are shown (what a new collection is made of). */
export function inShownOrder(selection: readonly number[], shown: readonly number[]): number[] {
  const chosen = new Set(selection);
  return shown.filter((id) => chosen.has(id));
}

/** The loop with one end set at `seconds`: its ends kept in order (A before B). */
export function withLoopPoint(loop: LoopRange, end: 'a' | 'b', seconds: number): LoopRange {
  const next = { ...loop, [end]: Math.max(0, seconds) };
  if (next.a !== null && next.b !== null && next.a > next.b) return { a: next.b, b: next.a };
  return next;
}

/** Where the playhead goes back to when it reached the loop's end (null: play on). */
export function loopTarget(time: number, loop: LoopRange): number | null {
  if (loop.a === null || loop.b === null || loop.b - loop.a <= 0) return null;
  return time >= loop.b ? loop.a : null;
}

/**
 * Whether a collection may be shared with a project (its organization's managers then read it):
 * where the backend declares `sharedCollections` (the platform), never by the host's name.
 */
export function sharingOffered(info: Pick<AppInfo, 'capabilities'> | null): boolean {
  return info?.capabilities.sharedCollections === true;
}

const byTime = (notes: JobNoteView[]) =>
  [...notes].sort((a, b) => a.atSeconds - b.atSeconds || a.createdAt - b.createdAt);

export interface ReviewState {
  // ---------------------------------------------------------------- selection
  /** The results selected in the Library (for a collection), in the order they were chosen. */
  selection: number[];
  /** The last one toggled: Shift+click selects from it to the clicked one. */
  selectionAnchor: number | null;
  /** Toggles a result; with `range`, selects every shown result from the anchor to it. */
  toggleSelected(rowId: number, shown: readonly number[], range?: boolean): void;
  selectAll(shown: readonly number[]): void;
  clearSelection(): void;

  // ---------------------------------------------------------------- collections
  collections: CollectionView[] | null;
  /** Why the last collection action failed, as the core said it. */
  collectionsError: string | null;
  /** The collection the Library shows, in its order (null: the whole library). */
  activeCollectionId: string | null;
  /** The collection action running (one at a time). */
  collectionBusy: string | null;
  /** The sequence the last "Make a sequence" made. */
  madeSequence: { collectionId: string; sequenceId: string; shots: number; skipped: number } | null;
  /** The last review package exported. */
  exported: (ReviewPackageView & { collectionId: string }) | null;
  /** The person's projects a collection may be shared with (null before asked). */
  shareProjects: ProjectView[] | null;
  loadCollections(): Promise<void>;
  setActiveCollection(collectionId: string | null): void;
  /** A new collection of these results in this order; answers it, or null (the error is kept). */
  createCollection(name: string, jobRowIds: number[]): Promise<CollectionView | null>;
  addToCollection(collectionId: string, jobRowIds: number[]): Promise<boolean>;
  removeFromCollection(collectionId: string, jobRowIds: number[]): Promise<boolean>;
  /** Sends the collection's new order (the view shows it at once; a refusal puts it back). */
  reorderCollection(collectionId: string, jobRowIds: number[]): Promise<boolean>;
  /** Moves one result of the collection `delta` places (Alt+←/→, the move buttons). */
  moveInCollection(collectionId: string, rowId: number, delta: number): Promise<boolean>;
  renameCollection(collectionId: string, name: string): Promise<boolean>;
  deleteCollection(collectionId: string): Promise<boolean>;
  loadShareProjects(): Promise<void>;
  shareCollection(collectionId: string, projectId: string | null): Promise<boolean>;
  makeSequence(collectionId: string): Promise<boolean>;
  exportPackage(collectionId: string): Promise<boolean>;
  /** Opens the exported package's folder in the file manager (hosts with local folders). */
  revealPackage(fileName: string): Promise<boolean>;

  // ---------------------------------------------------------------- notes
  /** Each result's notes, in time order (absent: not read yet). */
  notes: Record<number, JobNoteView[]>;
  notesError: string | null;
  noteDraft: NoteDraft | null;
  loadNotes(jobRowId: number): Promise<void>;
  /** Starts a note at this time of the take (N); a rectangle may be drawn before it is saved. */
  startNote(jobRowId: number, atSeconds: number, rect?: NoteRect | null): void;
  setDraftRect(rect: NoteRect | null): void;
  cancelNote(): void;
  /** Saves the draft with this text; answers what is wrong with the text, or null once saved. */
  saveNote(text: string): Promise<InputProblem | 'failed' | null>;
  updateNote(
    jobRowId: number,
    noteId: string,
    change: { text?: string; rect?: NoteRect | null },
  ): Promise<boolean>;
  deleteNote(jobRowId: number, noteId: string): Promise<boolean>;

  // ---------------------------------------------------------------- the reviewer
  /** The takes under review, in order, and which is shown (null: the reviewer is closed). */
  reviewer: { ids: number[]; index: number } | null;
  speed: number;
  loop: LoopRange;
  /** Mark saves sent and not answered yet (a quick next never drops one). */
  pendingMarks: number;
  openReviewer(ids: number[], startRowId?: number): void;
  closeReviewer(): void;
  /** Shows the take `delta` places on (clamped to the set); the loop and a draft note are left. */
  moveReviewer(delta: number): void;
  setSpeed(speed: number): void;
  /** One step slower or faster among {@link SPEEDS}. */
  stepSpeed(delta: number): void;
  setLoopPoint(end: 'a' | 'b', seconds: number): void;
  clearLoop(): void;
  /**
   * Marks a take at once (`library.mark`), for the take it was pressed on: saves of one take are
   * sent in the order pressed, whatever the reviewer shows by the time they are answered.
   */
  markTake(jobRowId: number, change: TakeMark): Promise<void>;
}

const NO_LOOP: LoopRange = { a: null, b: null };

export const useReview = create<ReviewState>()((set, get) => {
  /** Each take's last mark save: the next one of that take waits for it. */
  const markChains = new Map<number, Promise<void>>();

  /** Runs one collection action: answers whether it went through; its refusal is kept to show. */
  const act = async (label: string, run: () => Promise<void>): Promise<boolean> => {
    set({ collectionBusy: label, collectionsError: null });
    try {
      await run();
      return true;
    } catch (error) {
      set({ collectionsError: message(error) });
      return false;
    } finally {
      set({ collectionBusy: null });
    }
  };
  const receiveCollection = (view: CollectionView) =>
    set((s) => ({
      collections: s.collections
        ? s.collections.some((c) => c.id === view.id)
          ? s.collections.map((c) => (c.id === view.id ? view : c))
          : [...s.collections, view]
        : [view],
    }));
  const receiveNote = (view: JobNoteView) =>
    set((s) => ({
      notes: {
        ...s.notes,
        [view.jobRowId]: byTime([...(s.notes[view.jobRowId] ?? []).filter((n) => n.id !== view.id), view]),
      },
    }));

  return {
    selection: [],
    selectionAnchor: null,
    toggleSelected(rowId, shown, range = false) {
      const { selection, selectionAnchor } = get();
      const from = selectionAnchor === null ? -1 : shown.indexOf(selectionAnchor);
      const to = shown.indexOf(rowId);
      if (range && from >= 0 && to >= 0) {
        const span = shown.slice(Math.min(from, to), Math.max(from, to) + 1);
        set({
          selection: [...selection, ...span.filter((id) => !selection.includes(id))],
          selectionAnchor: rowId,
        });
        return;
      }
      set({
        selection: selection.includes(rowId) ? selection.filter((id) => id !== rowId) : [...selection, rowId],
        selectionAnchor: rowId,
      });
    },
    selectAll(shown) {
      set({ selection: [...shown], selectionAnchor: shown.at(-1) ?? null });
    },
    clearSelection() {
      set({ selection: [], selectionAnchor: null });
    },

    collections: null,
    collectionsError: null,
    activeCollectionId: null,
    collectionBusy: null,
    madeSequence: null,
    exported: null,
    shareProjects: null,
    async loadCollections() {
      try {
        const { items } = await bridge.invoke('collections.list', {});
        set({ collections: items });
        const active = get().activeCollectionId;
        if (active !== null && !items.some((c) => c.id === active)) set({ activeCollectionId: null });
      } catch (error) {
        set({ collectionsError: message(error) });
      }
    },
    setActiveCollection(collectionId) {
      set({ activeCollectionId: collectionId, madeSequence: null, exported: null, collectionsError: null });
    },
    async createCollection(name, jobRowIds) {
      let made: CollectionView | null = null;
      await act('create', async () => {
        made = await bridge.invoke('collections.create', { name: name.trim(), jobRowIds });
        receiveCollection(made);
      });
      return made;
    },
    addToCollection(collectionId, jobRowIds) {
      return act('add', async () => {
        receiveCollection(await bridge.invoke('collections.addItems', { collectionId, jobRowIds }));
      });
    },
    removeFromCollection(collectionId, jobRowIds) {
      return act('remove', async () => {
        receiveCollection(await bridge.invoke('collections.removeItems', { collectionId, jobRowIds }));
      });
    },
    async reorderCollection(collectionId, jobRowIds) {
      const before = get().collections?.find((c) => c.id === collectionId);
      if (before) receiveCollection({ ...before, jobRowIds });
      const ok = await act('reorder', async () => {
        receiveCollection(await bridge.invoke('collections.reorder', { collectionId, jobRowIds }));
      });
      if (!ok && before) receiveCollection(before);
      return ok;
    },
    async moveInCollection(collectionId, rowId, delta) {
      const collection = get().collections?.find((c) => c.id === collectionId);
      if (!collection) return false;
      const order = moveItem(collection.jobRowIds, rowId, delta);
      if (order.every((id, i) => id === collection.jobRowIds[i])) return true; // at an end already
      return get().reorderCollection(collectionId, order);
    },
    renameCollection(collectionId, name) {
      return act('rename', async () => {
        receiveCollection(await bridge.invoke('collections.rename', { collectionId, name: name.trim() }));
      });
    },
    deleteCollection(collectionId) {
      return act('delete', async () => {
        await bridge.invoke('collections.delete', { collectionId });
        set((s) => ({
          collections: (s.collections ?? []).filter((c) => c.id !== collectionId),
          activeCollectionId: s.activeCollectionId === collectionId ? null : s.activeCollectionId,
        }));
      });
    },
    async loadShareProjects() {
      try {
        const list = await bridge.invoke('projects.list', {});
        set({ shareProjects: list.projects.filter((p) => !p.archived) });
      } catch (error) {
        set({ collectionsError: message(error) });
      }
    },
    shareCollection(collectionId, projectId) {
      return act('share', async () => {
        receiveCollection(await bridge.invoke('collections.share', { collectionId, projectId }));
      });
    },
    makeSequence(collectionId) {
      set({ madeSequence: null });
      return act('sequence', async () => {
        const made = await bridge.invoke('collections.toSequence', { collectionId });
        set({ madeSequence: { collectionId, ...made } });
      });
    },
    exportPackage(collectionId) {
      set({ exported: null });
      return act('export', async () => {
        const view = await bridge.invoke('collections.exportPackage', { collectionId });
        set({ exported: { ...view, collectionId } });
      });
    },
    revealPackage(fileName) {
      return act('reveal', async () => {
        await bridge.invoke('collections.revealPackage', { fileName });
      });
    },

    notes: {},
    notesError: null,
    noteDraft: null,
    async loadNotes(jobRowId) {
      try {
        const { items } = await bridge.invoke('library.notes.list', { jobRowId });
        set((s) => ({ notes: { ...s.notes, [jobRowId]: byTime(items) }, notesError: null }));
      } catch (error) {
        set({ notesError: message(error) });
      }
    },
    startNote(jobRowId, atSeconds, rect = null) {
      set({ noteDraft: { jobRowId, atSeconds: Math.max(0, atSeconds), rect }, notesError: null });
    },
    setDraftRect(rect) {
      const draft = get().noteDraft;
      if (draft) set({ noteDraft: { ...draft, rect } });
    },
    cancelNote() {
      set({ noteDraft: null });
    },
    async saveNote(text) {
      const draft = get().noteDraft;
      if (!draft) return 'failed';
      const problem = noteProblem(text);
      if (problem) return problem;
      try {
        receiveNote(
          await bridge.invoke('library.notes.add', {
            jobRowId: draft.jobRowId,
            atSeconds: draft.atSeconds,
            text: text.trim(),
            ...(draft.rect ? { rect: draft.rect } : {}),
          }),
        );
        // a draft started since (another take's N) stays
        if (get().noteDraft === draft) set({ noteDraft: null, notesError: null });
        return null;
      } catch (error) {
        set({ notesError: message(error) });
        return 'failed';
      }
    },
    async updateNote(jobRowId, noteId, change) {
      try {
        const params = {
          noteId,
          ...change,
          ...(change.text !== undefined ? { text: change.text.trim() } : {}),
        };
        receiveNote(await bridge.invoke('library.notes.update', params));
        set({ notesError: null });
        return true;
      } catch (error) {
        set({ notesError: message(error) });
        return false;
      }
    },
    async deleteNote(jobRowId, noteId) {
      try {
        await bridge.invoke('library.notes.delete', { noteId });
        set((s) => ({
          notes: { ...s.notes, [jobRowId]: (s.notes[jobRowId] ?? []).filter((n) => n.id !== noteId) },
          notesError: null,
        }));
        return true;
      } catch (error) {
        set({ notesError: message(error) });
        return false;
      }
    },

    reviewer: null,
    speed: 1,
    loop: NO_LOOP,
    pendingMarks: 0,
    openReviewer(ids, startRowId) {
      if (ids.length === 0) return;
      const index = startRowId === undefined ? 0 : Math.max(0, ids.indexOf(startRowId));
      set({ reviewer: { ids: [...ids], index }, loop: NO_LOOP, noteDraft: null });
    },
    closeReviewer() {
      set({ reviewer: null, loop: NO_LOOP, noteDraft: null });
    },
    moveReviewer(delta) {
      const reviewer = get().reviewer;
      if (!reviewer) return;
      const index = Math.max(0, Math.min(reviewer.ids.length - 1, reviewer.index + delta));
      if (index === reviewer.index) return;
      set({ reviewer: { ...reviewer, index }, loop: NO_LOOP, noteDraft: null });
    },
    setSpeed(speed) {
      set({ speed });
    },
    stepSpeed(delta) {
      const at = SPEEDS.indexOf(get().speed as (typeof SPEEDS)[number]);
      const from = at < 0 ? SPEEDS.indexOf(1) : at;
      set({ speed: SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, from + delta))]! });
    },
    setLoopPoint(end, seconds) {
      set({ loop: withLoopPoint(get().loop, end, seconds) });
    },
    clearLoop() {
      set({ loop: NO_LOOP });
    },
    markTake(jobRowId, change) {
      set((s) => ({ pendingMarks: s.pendingMarks + 1 }));
      const send = () => useStudio.getState().markResult({ jobRowId, ...change });
      // sent at once, unless a save of this take is still on its way (then right after it)
      const previous = markChains.get(jobRowId);
      const saved = (previous ? previous.then(send) : send()).finally(() =>
        set((s) => ({ pendingMarks: s.pendingMarks - 1 })),
      );
      markChains.set(jobRowId, saved);
      void saved.then(() => {
        if (markChains.get(jobRowId) === saved) markChains.delete(jobRowId);
      });
      return saved;
    },
  };
});
