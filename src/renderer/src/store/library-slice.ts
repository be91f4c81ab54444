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
  resetLibrary() {
    set({ libraryItems: null, libraryError: null, libraryModels: [], libraryModes: [] });
  },
});
