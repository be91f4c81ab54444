import type { StateCreator } from 'zustand';
import type {
  BatchPreview,
  DraftForm,
  DraftMedia,
  MethodParams,
  MethodResult,
  StudioDraft,
  ServiceEntryView,
} from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import { newerConnection } from './connection-slice';
import { joiningWhileRunning, loadDraftAndServices } from './create-first-load';
import type { StudioState } from './index';
import { emptyDraftForm } from '../../../shared/bridge/draft-form';

export interface UploadProgress {
  state: string;
  /** Bytes of the upload body sent so far; null before the first byte report (or when reused). */
  sentBytes: number | null;
  totalBytes: number | null;
}

/** What the last admission check answered, or why it could not be asked. */
export type AdmissionCheck =
  | {
      kind: 'answered';
      admitted: boolean | null;
      reason: string;
      /** The platform's estimated cost, as text ("15.00 CREDIT for 5 seconds"), when it gave one. */
      cost?: string;
    }
  | { kind: 'failed'; message: string };

/** How the last submit (Generate, or Generate ×N) of the open draft ended. */
export type SubmitOutcome =
  | { kind: 'accepted' }
  | { kind: 'pending'; reason: string }
  | { kind: 'failed'; message: string }
  /** Generate ×N: how many of the `count` variations were committed, and why the others were refused. */
  | { kind: 'variations'; count: number; accepted: number; refused: number; reason: string };

/** Create: the open draft, its profile's video services, its uploads, admission, optimizer, submit and batch import. */
export interface CreateSlice {
  /** Video services of the active profile (from discovery; cached by the core for offline use). */
  services: ServiceEntryView[];
  servicesFromCache: boolean;
  servicesFetchedAt: number | null;
  servicesError: string | null;
  /** The profile the listed services belong to (null before they were listed). */
  servicesProfileId: string | null;
  draft: StudioDraft | null;
  draftError: string | null;
  /**
   * A new draft is being opened (New draft, Copy to Create): the form on screen is the one being
   * left, so it takes no edit until the new one is shown (an edit would land in the old draft).
   */
  draftOpening: boolean;
  /** Upload state and bytes by draft id + NUL + file name. */
  uploads: Record<string, UploadProgress>;
  admission: AdmissionCheck | null;
  submitting: boolean;
  submitOutcome: SubmitOutcome | null;
  loadServices(): Promise<void>;
  /** Create's load: the open draft (or a new one) and its profile's services, together; a call while one runs joins it. */
  loadCreate(): Promise<void>;
  loadDraft(): Promise<void>;
  newDraft(form?: DraftForm): Promise<void>;
  copyToCreate(jobRowId: number): Promise<void>;
  updateForm(patch: Partial<DraftForm>): void;
  /** A change the creator made: the last admission answer no longer holds. */
  editForm(patch: Partial<DraftForm>): void;
  flushDraft(): Promise<void>;
  setDraft(draft: StudioDraft): void;
  receiveUpload(draftId: string, fileName: string, progress: UploadProgress): void;
  /** Hands a dropped or picked reference to the core, which probes and stages it. */
  stageFile(file: File): Promise<DraftMedia>;
  /** Saves the draft, then asks the platform whether it would admit it now. */
  checkAdmission(): Promise<void>;
  /** Saves the draft, then submits it; on failure, takes the core's bookkeeping (it reopens a draft nothing was created for). */
  submitDraft(): Promise<void>;
  /** Saves the draft, then "Generate ×N": N jobs that differ only in seed (a second press creates nothing). */
  submitVariations(count: number): Promise<void>;
  /** Forgets the last admission answer and submit outcome (Create was left). */
  resetCreateStatus(): void;
  /** Saves the draft, then asks the optimizer (a separate billed call) for a better prompt. */
  optimizePrompt(style?: string): Promise<MethodResult<'video.optimize'>>;
  previewBatch(params: MethodParams<'studio.batch.preview'>): Promise<BatchPreview>;
  submitBatch(params: MethodParams<'studio.batch.submit'>): Promise<MethodResult<'studio.batch.submit'>>;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
let pendingSave: Promise<void> = Promise.resolve();

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const createCreateSlice: StateCreator<StudioState, [], [], CreateSlice> = (set, get) => ({
  services: [],
  servicesFromCache: false,
  servicesFetchedAt: null,
  servicesError: null,
  servicesProfileId: null,
  draft: null,
  draftError: null,
  draftOpening: false,
  uploads: {},
  admission: null,
  submitting: false,
  submitOutcome: null,

  async loadServices() {
    try {
      const profileId = get().draft?.form.profileId ?? get().activeProfileId ?? undefined;
      const list = await bridge.invoke('services.list', { profileId, serviceKind: 'video_generation' });
      set({
        services: list.services,
        servicesFromCache: list.fromCache,
        servicesFetchedAt: list.fetchedAt,
        servicesError: null,
        servicesProfileId: list.profileId,
      });
      // the list's answer told the core's connection state too; when the page shows another one, or
      // none yet, while the list is the last known copy (the change may have been pushed before
      // this page's events socket was open), read it again: the newer state wins
      const shown = get().connection;
      const disagree = shown
        ? list.profileId === shown.profileId && list.fromCache === (shown.state === 'connected')
        : list.fromCache;
      if (disagree) {
        const connection = await bridge.invoke('connection.get', {});
        set({ connection: newerConnection(get().connection, connection) });
      }
    } catch (error) {
      set({ servicesError: message(error) });
    }
  },

  // started before the first render (app/first-loads.ts) and joined by Create's mount
  loadCreate: joiningWhileRunning(() =>
    loadDraftAndServices({
      draftProfileId: () => get().draft?.form.profileId,
      servicesProfileId: () => get().servicesProfileId,
      loadDraft: () => get().loadDraft(),
      loadServices: () => get().loadServices(),
    }),
  ),

  async loadDraft() {
    try {
      const drafts = await bridge.invoke('drafts.list', {});
      const open = drafts.find((d) => d.submittedAt === null);
      if (open) set({ draft: open, draftError: null });
      else await get().newDraft();
    } catch (error) {
      set({ draftError: message(error) });
    }
  },

  async newDraft(form) {
    set({ draftOpening: true });
    try {
      await get().flushDraft();
      const profileId = get().activeProfileId ?? 'simulator';
      const draft = await bridge.invoke('drafts.create', {
        form: form ?? emptyDraftForm(profileId),
      });
      set({ draft, draftError: null });
    } finally {
      set({ draftOpening: false });
    }
  },

  async copyToCreate(jobRowId) {
    set({ draftOpening: true });
    try {
      await get().flushDraft();
      const draft = await bridge.invoke('drafts.create', { fromJobRowId: jobRowId });
      set({ draft, draftError: null, section: 'create' });
    } finally {
      set({ draftOpening: false });
    }
  },

  updateForm(patch) {
    const draft = get().draft;
    if (!draft || draft.submittedAt !== null || get().draftOpening) return;
    const next = { ...draft, form: { ...draft.form, ...patch } };
    set({ draft: next });
    // saved as you type (debounced); the draft survives a reload or a restart
    if (saveTimer) clearTimeout(saveTimer);
    saveTimer = setTimeout(() => {
      saveTimer = undefined;
      void get().flushDraft();
    }, 250);
  },

  async flushDraft() {
    if (saveTimer) {
      clearTimeout(saveTimer);
      saveTimer = undefined;
    }
    const draft = get().draft;
    if (!draft || draft.submittedAt !== null) return pendingSave;
    pendingSave = pendingSave.then(async () => {
      try {
        const saved = await bridge.invoke('drafts.save', { draftId: draft.id, form: draft.form });
        const current = get().draft;
        // keep what was typed meanwhile; take the core's bookkeeping
        if (current?.id === saved.id) set({ draft: { ...saved, form: current.form }, draftError: null });
      } catch (error) {
        set({ draftError: message(error) });
      }
    });
    return pendingSave;
  },

  editForm(patch) {
    set({ admission: null });
    get().updateForm(patch);
  },

  setDraft(draft) {
    set({ draft });
  },

  receiveUpload(draftId, fileName, progress) {
    const key = `${draftId}\u0000${fileName}`;
    const previous = get().uploads[key];
    const totalBytes = progress.totalBytes ?? previous?.totalBytes ?? null;
    // a state-only event keeps the bytes seen so far; "uploaded" means every byte was sent
    let sentBytes = progress.sentBytes;
    if (sentBytes === null && progress.state === 'uploaded') sentBytes = totalBytes;
    if (sentBytes === null && progress.state === 'uploading' && previous?.state === 'uploading')
      sentBytes = previous.sentBytes;
    set({ uploads: { ...get().uploads, [key]: { state: progress.state, sentBytes, totalBytes } } });
  },

  stageFile(file) {
    return bridge.stageFile(file);
  },

  async checkAdmission() {
    set({ admission: null });
    try {
      await get().flushDraft();
      const draft = get().draft;
      if (!draft) return;
      const r = await bridge.invoke('video.admission', { draftId: draft.id });
      const reason = [r.admission.reason, r.admission.message]
        .filter((x) => typeof x === 'string')
        .join(': ');
      const estimated = r.admission.estimatedCost as { text?: unknown } | undefined;
      const cost = typeof estimated?.text === 'string' ? estimated.text : undefined;
      set({ admission: { kind: 'answered', admitted: r.admitted, reason, ...(cost ? { cost } : {}) } });
    } catch (error) {
      set({ admission: { kind: 'failed', message: message(error) } });
    }
  },

  async submitDraft() {
    const draftId = get().draft?.id;
    if (!draftId) return;
    set({ submitting: true, submitOutcome: null });
    try {
      await get().flushDraft();
      const r = await bridge.invoke('video.submit', { draftId });
      set({
        draft: r.draft,
        submitOutcome:
          r.state === 'accepted' ? { kind: 'accepted' } : { kind: 'pending', reason: r.reason ?? '' },
      });
    } catch (error) {
      // the core reopened the draft if nothing was created: reload its bookkeeping
      const fresh = await bridge.invoke('drafts.get', { draftId }).catch(() => undefined);
      if (fresh) set({ draft: { ...fresh, form: get().draft?.form ?? fresh.form } });
      set({ submitOutcome: { kind: 'failed', message: message(error) } });
    } finally {
      set({ submitting: false });
    }
  },

  async submitVariations(count) {
    const draftId = get().draft?.id;
    if (!draftId) return;
    set({ submitting: true, submitOutcome: null });
    try {
      await get().flushDraft();
      const r = await bridge.invoke('video.variations', { draftId, count });
      const refused = r.variations.filter((v) => v.state === 'refused');
      set({
        draft: r.draft,
        submitOutcome: {
          kind: 'variations',
          count: r.count,
          accepted: r.count - refused.length,
          refused: refused.length,
          reason: refused[0]?.reason ?? '',
        },
      });
    } catch (error) {
      // the core reopened the draft if nothing was created: reload its bookkeeping
      const fresh = await bridge.invoke('drafts.get', { draftId }).catch(() => undefined);
      if (fresh) set({ draft: { ...fresh, form: get().draft?.form ?? fresh.form } });
      set({ submitOutcome: { kind: 'failed', message: message(error) } });
    } finally {
      set({ submitting: false });
    }
  },

  resetCreateStatus() {
    set({ admission: null, submitOutcome: null });
  },

  async optimizePrompt(style) {
    await get().flushDraft();
    const draftId = get().draft?.id ?? '';
    return bridge.invoke('video.optimize', { draftId, ...(style ? { style } : {}) });
  },

  previewBatch(params) {
    return bridge.invoke('studio.batch.preview', params);
  },

  submitBatch(params) {
    return bridge.invoke('studio.batch.submit', params);
  },
});
