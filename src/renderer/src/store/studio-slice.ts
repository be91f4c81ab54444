import type { StateCreator } from 'zustand';
import type { DraftForm, JobView, StudioDraft, StudioService } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import { joiningWhileRunning, loadDraftAndServices } from './create-first-load';
import type { StudioState } from './index';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../../shared/wait-defaults';
import { emptyDraftForm } from '../../../shared/bridge/draft-form';

export interface DownloadProgress {
  receivedBytes: number;
  totalBytes: number | null;
}

export interface UploadProgress {
  state: string;
  /** Bytes of the upload body sent so far; null before the first byte report (or when reused). */
  sentBytes: number | null;
  totalBytes: number | null;
}

/** Create, Queue and Library state. Everything comes from the core through the bridge. */
export interface StudioSlice {
  /** Video services of the active profile (from discovery; cached by the core for offline use). */
  services: StudioService[];
  servicesFromCache: boolean;
  servicesFetchedAt: number | null;
  servicesError: string | null;
  /** The profile the listed services belong to (null before they were listed). */
  servicesProfileId: string | null;
  /** Base of the media routes ("/media/" or "framewright-media://media/"), from the core. */
  mediaBase: string;
  waitSeconds: number;
  libraryDir: string;
  draft: StudioDraft | null;
  draftError: string | null;
  /** Jobs by journal row id, and their order (newest first). */
  jobs: Record<number, JobView>;
  jobOrder: number[];
  jobsCursor: string | null;
  jobsLoaded: boolean;
  downloads: Record<number, DownloadProgress>;
  /** Upload state and bytes by draft id + NUL + file name. */
  uploads: Record<string, UploadProgress>;
  loadServices(): Promise<void>;
  /** Create's load: the open draft (or a new one) and its profile's services, together; a call while one runs joins it. */
  loadCreate(): Promise<void>;
  loadStudioSettings(): Promise<void>;
  loadDraft(): Promise<void>;
  newDraft(form?: DraftForm): Promise<void>;
  copyToCreate(jobRowId: number): Promise<void>;
  updateForm(patch: Partial<DraftForm>): void;
  flushDraft(): Promise<void>;
  setDraft(draft: StudioDraft): void;
  loadJobs(more?: boolean): Promise<void>;
  receiveJob(job: JobView): void;
  receiveDownload(outputId: number, progress: DownloadProgress): void;
  receiveUpload(draftId: string, fileName: string, progress: UploadProgress): void;
}

let saveTimer: ReturnType<typeof setTimeout> | undefined;
let pendingSave: Promise<void> = Promise.resolve();

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const createStudioSlice: StateCreator<StudioState, [], [], StudioSlice> = (set, get) => ({
  services: [],
  servicesFromCache: false,
  servicesFetchedAt: null,
  servicesError: null,
  servicesProfileId: null,
  mediaBase: '/media/',
  waitSeconds: DEFAULT_JOB_WAIT_SECONDS,
  libraryDir: '',
  draft: null,
  draftError: null,
  jobs: {},
  jobOrder: [],
  jobsCursor: null,
  jobsLoaded: false,
  downloads: {},
  uploads: {},

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

  async loadStudioSettings() {
    const settings = await bridge.invoke('studio.settings.get', {});
    set({
      waitSeconds: settings.waitSeconds,
      libraryDir: settings.libraryDir,
      mediaBase: settings.mediaBase,
    });
  },

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
    await get().flushDraft();
    const profileId = get().activeProfileId ?? 'simulator';
    const draft = await bridge.invoke('drafts.create', {
      form: form ?? emptyDraftForm(profileId),
    });
    set({ draft, draftError: null });
  },

  async copyToCreate(jobRowId) {
    await get().flushDraft();
    const draft = await bridge.invoke('drafts.create', { fromJobRowId: jobRowId });
    set({ draft, draftError: null, section: 'create' });
  },

  updateForm(patch) {
    const draft = get().draft;
    if (!draft || draft.submittedAt !== null) return;
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

  setDraft(draft) {
    set({ draft });
  },

  async loadJobs(more = false) {
    const cursor = more ? get().jobsCursor : null;
    if (more && !cursor) return;
    const page = await bridge.invoke('jobs.list', { limit: 200, ...(cursor ? { cursor } : {}) });
    const jobs = more ? { ...get().jobs } : {};
    const order = more ? [...get().jobOrder] : [];
    for (const job of page.items) {
      if (!(job.rowId in jobs)) order.push(job.rowId);
      jobs[job.rowId] = job;
    }
    set({ jobs, jobOrder: order, jobsCursor: page.nextCursor, jobsLoaded: true });
  },

  receiveJob(job) {
    const jobs = { ...get().jobs, [job.rowId]: job };
    const order = get().jobOrder.includes(job.rowId)
      ? get().jobOrder
      : [job.rowId, ...get().jobOrder].sort((a, b) => b - a);
    set({ jobs, jobOrder: order });
  },

  receiveDownload(outputId, progress) {
    set({ downloads: { ...get().downloads, [outputId]: progress } });
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
});
