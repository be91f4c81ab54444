import type { StateCreator } from 'zustand';
import type { JobDetail, JobView, MethodParams } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The library: verified results found by the last search, and what can be done with one. */
export interface LibrarySlice {
  /** The last search's results (null before the first answer). */
  libraryItems: JobView[] | null;
  libraryError: string | null;
  /** Models and modes seen in unfiltered searches, offered as filters. */
  libraryModels: string[];
  libraryModes: string[];
  searchLibrary(filters: MethodParams<'library.list'>): Promise<void>;
  jobDetail(jobRowId: number): Promise<JobDetail>;
  /** Shows a result's folder in the file manager; answers the folder. */
  revealInLibrary(jobRowId: number): Promise<string>;
  deleteFromLibrary(jobRowId: number): Promise<void>;
  /**
   * Marks a result (pick or reject, stars, a colour label): the card shows the answer at once;
   * a refusal leaves the marks as they were and says why.
   */
  markResult(change: MethodParams<'library.mark'>): Promise<void>;
  /** Results whose marked export runs (a second press joins it: one export per result). */
  exporting: number[];
  /** Per result, why its last export failed (nothing was kept). */
  exportErrors: Record<number, string>;
  /**
   * On the platform: makes the result's platform-marked copy and hands it to the browser as a
   * download (same origin; the session cookie authenticates it).
   */
  exportMarked(jobRowId: number): Promise<void>;
  /** Forgets the last search (the Library was left; it searches anew when opened). */
  resetLibrary(): void;
}

export const createLibrarySlice: StateCreator<StudioState, [], [], LibrarySlice> = (set, get) => ({
  libraryItems: null,
  libraryError: null,
  libraryModels: [],
  libraryModes: [],
  async searchLibrary(filters) {
    try {
      const { items } = await bridge.invoke('library.list', filters);
      set({ libraryItems: items, libraryError: null });
      if (!filters.model && !filters.mode)
        set({
          libraryModels: [...new Set([...get().libraryModels, ...items.map((j) => j.model)])],
          libraryModes: [
            ...new Set([...get().libraryModes, ...items.map((j) => j.generationMode ?? '').filter(Boolean)]),
          ],
        });
    } catch (error) {
      set({ libraryError: message(error) });
    }
  },
  jobDetail(jobRowId) {
    return bridge.invoke('jobs.get', { jobRowId });
  },
  async revealInLibrary(jobRowId) {
    return (await bridge.invoke('library.reveal', { jobRowId })).folder;
  },
  async deleteFromLibrary(jobRowId) {
    await bridge.invoke('library.delete', { jobRowId });
  },
  async markResult(change) {
    try {
      const view = await bridge.invoke('library.mark', change);
      const items = get().libraryItems;
      if (items) set({ libraryItems: items.map((item) => (item.rowId === view.rowId ? view : item)) });
    } catch (error) {
      set({ libraryError: message(error) });
    }
  },
  exporting: [],
  exportErrors: {},
  async exportMarked(jobRowId) {
    if (get().exporting.includes(jobRowId)) return;
    const { [jobRowId]: _previous, ...errors } = get().exportErrors;
    set({ exporting: [...get().exporting, jobRowId], exportErrors: errors });
    try {
      const exported = await bridge.invoke('library.export', { jobRowId });
      const link = document.createElement('a');
      link.href = exported.downloadPath;
      link.download = exported.fileName;
      link.rel = 'noopener';
      document.body.append(link);
      link.click();
      link.remove();
    } catch (error) {
      set({ exportErrors: { ...get().exportErrors, [jobRowId]: message(error) } });
    } finally {
      set({ exporting: get().exporting.filter((id) => id !== jobRowId) });
    }
  },
  resetLibrary() {
    set({ libraryItems: null, libraryError: null, libraryModels: [], libraryModes: [] });
  },
});
