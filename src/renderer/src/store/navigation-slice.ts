import type { StateCreator } from 'zustand';
import type { StudioState } from './index';

export const SECTIONS = ['create', 'queue', 'library', 'playground', 'settings'] as const;
export type Section = (typeof SECTIONS)[number];

export interface NavigationSlice {
  section: Section;
  setSection(section: Section): void;
}

export const createNavigationSlice: StateCreator<StudioState, [], [], NavigationSlice> = (set) => ({
  section: 'create',
  setSection: (section) => set({ section }),
});
