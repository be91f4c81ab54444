import type { StateCreator } from 'zustand';
import type { StudioState } from './index';

export const SECTIONS = ['create', 'queue', 'library', 'playground', 'team', 'settings'] as const;
export type Section = (typeof SECTIONS)[number];

/** The sections shown: Team only to an organization manager (everyone else never sees it). */
export function visibleSections(teamManager: boolean | null): Section[] {
  return SECTIONS.filter((key) => key !== 'team' || teamManager === true);
}

export interface NavigationSlice {
  section: Section;
  setSection(section: Section): void;
}

export const createNavigationSlice: StateCreator<StudioState, [], [], NavigationSlice> = (set) => ({
  section: 'create',
  setSection: (section) => set({ section }),
});
