import { create } from 'zustand';
import { createAppSlice, type AppSlice } from './app-slice';
import { createConnectionSlice, type ConnectionSlice } from './connection-slice';
import { createNavigationSlice, type NavigationSlice } from './navigation-slice';
import { createStudioSlice, type StudioSlice } from './studio-slice';

/** The studio's store, one slice per domain (zustand's slices pattern). */
export type StudioState = AppSlice & ConnectionSlice & NavigationSlice & StudioSlice;

export const useStudio = create<StudioState>()((...args) => ({
  ...createAppSlice(...args),
  ...createConnectionSlice(...args),
  ...createNavigationSlice(...args),
  ...createStudioSlice(...args),
}));

export { SECTIONS, type Section } from './navigation-slice';
