import type { StateCreator } from 'zustand';
import type { MethodParams } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../../shared/wait-defaults';

/** The studio's settings (library folder, wait limit, media routes) and the simulator's scenario. */
export interface SettingsSlice {
  /** Base of the media routes ("/media/" or "framewright-media://media/"), from the core. */
  mediaBase: string;
  waitSeconds: number;
  libraryDir: string;
  /** The simulator's failure scenario ('' for none). */
  scenario: string;
  loadStudioSettings(): Promise<void>;
  saveLibraryDir(libraryDir: string): Promise<void>;
  saveWaitSeconds(waitSeconds: number): Promise<void>;
  loadScenario(): Promise<void>;
  setScenario(name: MethodParams<'simulator.setScenario'>['name']): Promise<void>;
  /** Ends every signed link to the person's files; answers when (ISO time). */
  revokeSharedLinks(): Promise<string>;
}

export const createSettingsSlice: StateCreator<StudioState, [], [], SettingsSlice> = (set, get) => ({
  mediaBase: '/media/',
  waitSeconds: DEFAULT_JOB_WAIT_SECONDS,
  libraryDir: '',
  scenario: '',
  async loadStudioSettings() {
    const settings = await bridge.invoke('studio.settings.get', {});
    set({
      waitSeconds: settings.waitSeconds,
      libraryDir: settings.libraryDir,
      mediaBase: settings.mediaBase,
    });
  },
  async saveLibraryDir(libraryDir) {
    await bridge.invoke('studio.settings.update', { libraryDir });
    await get().loadStudioSettings();
  },
  async saveWaitSeconds(waitSeconds) {
    await bridge.invoke('studio.settings.update', { waitSeconds });
    await get().loadStudioSettings();
  },
  async loadScenario() {
    const { scenario } = await bridge.invoke('simulator.getScenario', {});
    set({ scenario: scenario ?? '' });
  },
  async setScenario(name) {
    const { scenario } = await bridge.invoke('simulator.setScenario', { name });
    set({ scenario: scenario ?? '' });
  },
  async revokeSharedLinks() {
    return (await bridge.invoke('sharedLinks.revoke', {})).revokedAt;
  },
});
