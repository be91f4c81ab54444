import type { StateCreator } from 'zustand';
import type { StudioState } from './index';

export const SECTIONS = ['create', 'queue', 'library', 'playground', 'team', 'settings'] as const;
export type Section = (typeof SECTIONS)[number];

/**
 * The sections shown: Team only to an organization manager (everyone else never sees it); on the
 * platform no Playground (its calls use the personal-key interface the deployment does not have).
 */
export function visibleSections(
  teamManager: boolean | null,
  host?: 'electron' | 'browser' | 'platform',
): Section[] {
  return SECTIONS.filter(
    (key) => (key !== 'team' || teamManager === true) && (key !== 'playground' || host !== 'platform'),
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
