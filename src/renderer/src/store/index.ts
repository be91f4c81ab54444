import { create } from 'zustand';
import { createAppSlice, type AppSlice } from './app-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createCreateSlice, type CreateSlice } from './create-slice';
import { createLibrarySlice, type LibrarySlice } from './library-slice';
import { createNavigationSlice, type NavigationSlice } from './navigation-slice';
import { createPlaygroundSlice, type PlaygroundSlice } from './playground-slice';
import { createProfilesSlice, type ProfilesSlice } from './profiles-slice';
import { createProjectsSlice, type ProjectsSlice } from './projects-slice';
import { createQueueSlice, type QueueSlice } from './queue-slice';
import { createSequencesSlice, type SequencesSlice } from './sequences-slice';
import { createSettingsSlice, type SettingsSlice } from './settings-slice';
import { createStoryboardsSlice, type StoryboardsSlice } from './storyboards-slice';
import { createTeamSlice, type TeamSlice } from './team-slice';

/**
 * The renderer's one store, one slice per domain (zustand's slices pattern). Every bridge call
 * the page makes is a slice action: components read state and call actions, never the bridge.
 */
export type StudioState = AppSlice &
  ConnectionSlice &
  ProfilesSlice &
  NavigationSlice &
  SettingsSlice &
  CreateSlice &
  QueueSlice &
  LibrarySlice &
  PlaygroundSlice &
  ProjectsSlice &
  TeamSlice &
  SequencesSlice &
  StoryboardsSlice;

export const useStudio = create<StudioState>()((...args) => ({
  ...createAppSlice(...args),
  ...createConnectionSlice(...args),
  ...createProfilesSlice(...args),
  ...createNavigationSlice(...args),
  ...createSettingsSlice(...args),
  ...createCreateSlice(...args),
  ...createQueueSlice(...args),
  ...createLibrarySlice(...args),
  ...createPlaygroundSlice(...args),
  ...createProjectsSlice(...args),
  ...createTeamSlice(...args),
  ...createSequencesSlice(...args),
  ...createStoryboardsSlice(...args),
}));

export { SECTIONS, visibleSections, type Section } from './navigation-slice';
export type { PlaygroundPanel } from './playground-slice';
