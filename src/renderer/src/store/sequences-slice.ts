import type { StateCreator } from 'zustand';
import type {
  AssemblyView,
  DraftForm,
  JobView,
  MethodResult,
  SequenceSummary,
  SequenceView,
} from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** How the last Generate of the open sequence went, shot by shot. */
export type GenerateOutcome = MethodResult<'sequences.generate'>['submitted'];

/** What a shot still being a draft can change inline (the rest of its form stays as it was). */
export interface ShotEdit {
  prompt?: string;
  seconds?: number;
}

/**
 * Sequences: the list, the open sequence (its strip of shots and its latest assembly), and every
 * action on it. Each action's error is kept for the screen to show in place (`sequenceError`).
 */
export interface SequencesSlice {
  /** The sequences of the journal, newest change first (null before the first answer). */
  sequences: SequenceSummary[] | null;
  /** The open sequence's id, and the sequence as the core last answered it. */
  openSequenceId: string | null;
  sequence: SequenceView | null;
  /** Why the last action (or load) failed, as the core said it; cleared by the next action. */
  sequenceError: string | null;
  /** Actions running now ('generate:all', 'generate:<shotId>', 'assemble', …): their buttons wait. */
  sequenceBusy: string[];
  generateOutcome: GenerateOutcome | null;
  /** The cross-fade chosen for the next assembly: the strip's film length counts it. */
  sequenceCrossfade: number;
  setSequenceCrossfade(seconds: number): void;
  loadSequences(): Promise<void>;
  createSequence(name: string): Promise<boolean>;
  openSequence(sequenceId: string): Promise<void>;
  closeSequence(): void;
  /** Asks the core for the open sequence again (a call while one runs asks once more after it). */
  refreshSequence(): Promise<void>;
  renameSequence(name: string): Promise<boolean>;
  deleteSequence(sequenceId: string): Promise<boolean>;
  addShot(form: DraftForm, position?: number): Promise<boolean>;
  moveShot(shotId: string, toPosition: number): Promise<boolean>;
  removeShot(shotId: string): Promise<boolean>;
  continueShot(
    fromShotId: string,
    generationMode: 'i2v' | 'first_last_frame_video',
    lastFrameFileId?: string,
  ): Promise<boolean>;
  bridgeShots(fromShotId: string, toShotId: string): Promise<boolean>;
  /** Submits one shot, or every shot still a draft. */
  generateShots(shotId?: string): Promise<boolean>;
  /** Saves a draft shot's prompt or seconds through its draft (`drafts.save`). */
  editShot(shotId: string, edit: ShotEdit): Promise<boolean>;
  /** Opens a shot's draft in Create. */
  openShotInCreate(shotId: string): Promise<void>;
  assembleSequence(crossfadeSeconds: number): Promise<boolean>;
  receiveSequenceChanged(sequenceId: string): void;
  receiveAssembly(assembly: AssemblyView): void;
  /** A job changed: the open sequence is asked again when the job is one of its shots' (or a shot waits for its job). */
  receiveSequenceJob(job: JobView): void;
}

/** The cross-fade offered first when assembling, in seconds. */
export const DEFAULT_CROSSFADE_SECONDS = 0.5;

let refreshing: Promise<void> | undefined;
let refreshAgain = false;

export const createSequencesSlice: StateCreator<StudioState, [], [], SequencesSlice> = (set, get) => {
  /** Runs one action on the open sequence: busy while it runs, its answer shown, its error kept. */
  async function act(key: string, call: (sequenceId: string) => Promise<SequenceView>): Promise<boolean> {
    const sequenceId = get().openSequenceId;
    if (!sequenceId || get().sequenceBusy.includes(key)) return false;
    set({ sequenceBusy: [...get().sequenceBusy, key], sequenceError: null });
    try {
      const view = await call(sequenceId);
      if (get().openSequenceId === view.sequenceId) set({ sequence: view });
      return true;
    } catch (error) {
      set({ sequenceError: message(error) });
      return false;
    } finally {
      set({ sequenceBusy: get().sequenceBusy.filter((k) => k !== key) });
    }
  }

  return {
    sequences: null,
    openSequenceId: null,
    sequence: null,
    sequenceError: null,
    sequenceBusy: [],
    generateOutcome: null,
    sequenceCrossfade: DEFAULT_CROSSFADE_SECONDS,

    setSequenceCrossfade(seconds) {
      set({ sequenceCrossfade: seconds });
    },

    async loadSequences() {
      try {
        const list = await bridge.invoke('sequences.list', {});
        set({ sequences: [...list].sort((a, b) => b.updatedAt - a.updatedAt), sequenceError: null });
      } catch (error) {
        set({ sequenceError: message(error) });
      }
    },

    async createSequence(name) {
      set({ sequenceError: null });
      try {
        const view = await bridge.invoke('sequences.create', { name });
        set({ openSequenceId: view.sequenceId, sequence: view, generateOutcome: null });
        void get().loadSequences();
        return true;
      } catch (error) {
        set({ sequenceError: message(error) });
        return false;
      }
    },

    async openSequence(sequenceId) {
      set({ openSequenceId: sequenceId, sequence: null, sequenceError: null, generateOutcome: null });
      await get().refreshSequence();
    },

    closeSequence() {
      set({ openSequenceId: null, sequence: null, sequenceError: null, generateOutcome: null });
      void get().loadSequences();
    },

    refreshSequence() {
      if (refreshing) {
        refreshAgain = true;
        return refreshing;
      }
      refreshing = (async () => {
        do {
          refreshAgain = false;
          const sequenceId = get().openSequenceId;
          if (!sequenceId) return;
          try {
            const view = await bridge.invoke('sequences.get', { sequenceId });
            if (get().openSequenceId === sequenceId) set({ sequence: view });
          } catch (error) {
            if (get().openSequenceId === sequenceId) set({ sequenceError: message(error) });
          }
        } while (refreshAgain);
      })().finally(() => {
        refreshing = undefined;
      });
      return refreshing;
    },

    async renameSequence(name) {
      const done = await act('rename', (sequenceId) =>
        bridge.invoke('sequences.rename', { sequenceId, name }),
      );
      if (done) void get().loadSequences();
      return done;
    },

    async deleteSequence(sequenceId) {
      set({ sequenceError: null });
      try {
        await bridge.invoke('sequences.delete', { sequenceId });
        if (get().openSequenceId === sequenceId)
          set({ openSequenceId: null, sequence: null, generateOutcome: null });
        set({ sequences: (get().sequences ?? []).filter((s) => s.sequenceId !== sequenceId) });
        void get().loadSequences();
        return true;
      } catch (error) {
        set({ sequenceError: message(error) });
        return false;
      }
    },

    addShot(form, position) {
      return act('add', (sequenceId) =>
        bridge.invoke('sequences.addShot', {
          sequenceId,
          form,
          ...(position === undefined ? {} : { position }),
        }),
      );
    },

    moveShot(shotId, toPosition) {
      return act(`move:${shotId}`, (sequenceId) =>
        bridge.invoke('sequences.moveShot', { sequenceId, shotId, toPosition }),
      );
    },

    removeShot(shotId) {
      return act(`remove:${shotId}`, (sequenceId) =>
        bridge.invoke('sequences.removeShot', { sequenceId, shotId }),
      );
    },

    continueShot(fromShotId, generationMode, lastFrameFileId) {
      return act(`continue:${fromShotId}`, (sequenceId) =>
        bridge.invoke('sequences.continueShot', {
          sequenceId,
          fromShotId,
          generationMode,
          ...(lastFrameFileId ? { lastFrameFileId } : {}),
        }),
      );
    },

    bridgeShots(fromShotId, toShotId) {
      return act(`bridge:${fromShotId}`, (sequenceId) =>
        bridge.invoke('sequences.bridgeShots', { sequenceId, fromShotId, toShotId }),
      );
    },

    generateShots(shotId) {
      set({ generateOutcome: null });
      return act(`generate:${shotId ?? 'all'}`, async (sequenceId) => {
        const r = await bridge.invoke('sequences.generate', { sequenceId, ...(shotId ? { shotId } : {}) });
        set({ generateOutcome: r.submitted });
        return r.sequence;
      });
    },

    editShot(shotId, edit) {
      return act(`edit:${shotId}`, async (sequenceId) => {
        const shot = get().sequence?.shots.find((s) => s.shotId === shotId);
        if (!shot) throw new Error('This shot is no longer in the sequence.');
        const draft = await bridge.invoke('drafts.get', { draftId: shot.draftId });
        await bridge.invoke('drafts.save', { draftId: draft.id, form: { ...draft.form, ...edit } });
        return bridge.invoke('sequences.get', { sequenceId });
      });
    },

    async openShotInCreate(shotId) {
      const shot = get().sequence?.shots.find((s) => s.shotId === shotId);
      if (!shot) return;
      set({ sequenceError: null });
      try {
        await get().flushDraft();
        const draft = await bridge.invoke('drafts.get', { draftId: shot.draftId });
        set({ draft, draftError: null, admission: null, submitOutcome: null, section: 'create' });
      } catch (error) {
        set({ sequenceError: message(error) });
      }
    },

    assembleSequence(crossfadeSeconds) {
      return act('assemble', async (sequenceId) => {
        const assembly = await bridge.invoke('sequences.assemble', { sequenceId, crossfadeSeconds });
        const sequence = get().sequence;
        if (!sequence || assembly.state !== 'assembling')
          return bridge.invoke('sequences.get', { sequenceId });
        // its end may have been pushed before this answer came back: never shown as running again
        const shown = sequence.assembly;
        if (shown?.assemblyId === assembly.assemblyId && shown.state !== 'assembling') return sequence;
        return { ...sequence, assembly, assemblyCurrent: false };
      });
    },

    receiveSequenceChanged(sequenceId) {
      if (sequenceId === get().openSequenceId) void get().refreshSequence();
      else if (get().sequences) void get().loadSequences();
    },

    receiveAssembly(assembly) {
      const sequence = get().sequence;
      if (!sequence || sequence.sequenceId !== assembly.sequenceId) return;
      const shown = sequence.assembly;
      // a late progress event never undoes an assembly's end
      if (shown?.assemblyId === assembly.assemblyId && shown.state !== 'assembling') return;
      set({ sequence: { ...sequence, assembly } });
      if (assembly.state !== 'assembling') void get().refreshSequence();
    },

    receiveSequenceJob(job) {
      const shots = get().sequence?.shots ?? [];
      if (shots.some((s) => s.jobRowId === job.rowId || s.state === 'submitted'))
        void get().refreshSequence();
    },
  };
};
