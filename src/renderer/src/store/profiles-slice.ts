import type { StateCreator } from 'zustand';
import type { MethodParams, MethodResult, ProfileSummary } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

/** The profiles (personal, debug, the simulator), the active one, and what Settings does with them. */
export interface ProfilesSlice {
  profiles: ProfileSummary[];
  activeProfileId: string | null;
  /** Lists the profiles and the active profile's connection (both change together). */
  loadProfiles(): Promise<void>;
  /** Adds a profile; its secret goes to the keychain and is never kept in the page. */
  addProfile(params: MethodParams<'profiles.add'>): Promise<void>;
  testProfile(profileId: string): Promise<MethodResult<'profiles.test'>>;
  /** Makes a profile the active one, then lists its video services. */
  activateProfile(profileId: string): Promise<void>;
  removeProfile(profileId: string): Promise<void>;
}

export const createProfilesSlice: StateCreator<StudioState, [], [], ProfilesSlice> = (set, get) => ({
  profiles: [],
  activeProfileId: null,
  async loadProfiles() {
    const [list, connection] = await Promise.all([
      bridge.invoke('profiles.list', {}),
      bridge.invoke('connection.get', {}),
    ]);
    set({ profiles: list.profiles, activeProfileId: list.activeProfileId, connection });
  },
  async addProfile(params) {
    await bridge.invoke('profiles.add', params);
    await get().loadProfiles();
  },
  testProfile(profileId) {
    return bridge.invoke('profiles.test', { profileId });
  },
  async activateProfile(profileId) {
    await bridge.invoke('profiles.setActive', { profileId });
    await get().loadServices();
    await get().loadProfiles();
  },
  async removeProfile(profileId) {
    await bridge.invoke('profiles.remove', { profileId });
    await get().loadProfiles();
  },
});
