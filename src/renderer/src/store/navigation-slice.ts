import type { StateCreator } from 'zustand';
import type { StudioState } from './index';

export const SECTIONS = [
  'create',
  'queue',
  'library',
  'sequences',
  'playground',
  'team',
  'settings',
] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * The sections shown: Team only to an organization manager (everyone else never sees it), and
 * Sequences once the host is known and is not the platform (the platform does not offer them yet).
 */
export function visibleSections(teamManager: boolean | null, host?: string): Section[] {
  return SECTIONS.filter(
    (key) =>
      (key !== 'team' || teamManager === true) &&
      (key !== 'sequences' || (host !== undefined && host !== 'platform')),
  );
}

export interface NavigationSlice {
  section: Section;
  setSection(section: Section): void;
}

export const createNavigationSlice: StateCreator<StudioState, [], [], NavigationSlice> = (set) => ({
  section: 'create',
  setSection: (section) => set({ section }),
});
