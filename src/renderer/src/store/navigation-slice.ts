import type { StateCreator } from 'zustand';
import type { Capabilities } from '../../../shared/bridge/contract';
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
 * Sequences once the backend's capabilities are known and offer them.
 */
export function visibleSections(
  teamManager: boolean | null,
  capabilities?: Pick<Capabilities, 'sequences'>,
): Section[] {
  return SECTIONS.filter(
    (key) =>
      (key !== 'team' || teamManager === true) && (key !== 'sequences' || capabilities?.sequences === true),
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
