import type { StateCreator } from 'zustand';
import type { AppInfo, UiSettings } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

export interface AppSlice {
  info: AppInfo | null;
  settings: UiSettings;
  loadError: string | null;
  loadApp(): Promise<void>;
  updateSettings(patch: Partial<UiSettings>): Promise<void>;
  receiveSettings(settings: UiSettings): void;
}

export const createAppSlice: StateCreator<StudioState, [], [], AppSlice> = (set) => ({
  info: null,
  settings: { theme: 'system', locale: 'system' },
  loadError: null,
  async loadApp() {
    try {
      const [info, settings] = await Promise.all([
        bridge.invoke('app.info', {}),
        bridge.invoke('settings.get', {}),
      ]);
      set({ info, settings, loadError: null });
    } catch (error) {
      set({ loadError: error instanceof Error ? error.message : String(error) });
    }
  },
  async updateSettings(patch) {
    const settings = await bridge.invoke('settings.update', patch);
    set({ settings });
  },
  receiveSettings(settings) {
    set({ settings });
  },
});
