import type { StateCreator } from 'zustand';
import type {
  DebugSession,
  MethodParams,
  MethodResult,
  ProfileSummary,
} from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import { newerConnection } from './connection-slice';
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
  /** Paired debug profiles: the account billed and the session's end (null: not a paired profile). */
  debugSessions: Record<string, DebugSession | null>;
  loadDebugSession(profileId: string): Promise<DebugSession | null>;
  /** "Pair for debugging": the application's test accounts (read with the developer's portal token). */
  listTestAccounts(
    params: MethodParams<'debugPairing.testAccounts'>,
  ): Promise<MethodResult<'debugPairing.testAccounts'>>;
  /** Starts a pairing: the portal page to open. */
  startDebugPairing(params: MethodParams<'debugPairing.start'>): Promise<MethodResult<'debugPairing.start'>>;
  /** Waits for the approval, then lists the new debug profile. */
  waitDebugPairing(pairingId: string): Promise<MethodResult<'debugPairing.wait'>>;
  cancelDebugPairing(pairingId: string): Promise<void>;
}

export const createProfilesSlice: StateCreator<StudioState, [], [], ProfilesSlice> = (set, get) => ({
  profiles: [],
  activeProfileId: null,
  async loadProfiles() {
    const [list, connection] = await Promise.all([
      bridge.invoke('profiles.list', {}),
      bridge.invoke('connection.get', {}),
    ]);
    set({
      profiles: list.profiles,
      activeProfileId: list.activeProfileId,
      connection: newerConnection(get().connection, connection),
    });
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
    // a paired debug session of an organization manager opens Team in debugging, and any live
    // debug session Storyboard Helper: the capabilities are asked again
    await Promise.all([get().loadTeamAccess(), get().loadApp()]);
  },
  async removeProfile(profileId) {
    await bridge.invoke('profiles.remove', { profileId });
    await get().loadProfiles();
  },
  debugSessions: {},
  async loadDebugSession(profileId) {
    const { session } = await bridge.invoke('debugPairing.session', { profileId });
    set((s) => ({ debugSessions: { ...s.debugSessions, [profileId]: session } }));
    return session;
  },
  listTestAccounts(params) {
    return bridge.invoke('debugPairing.testAccounts', params);
  },
  startDebugPairing(params) {
    return bridge.invoke('debugPairing.start', params);
  },
  async waitDebugPairing(pairingId) {
    const result = await bridge.invoke('debugPairing.wait', { pairingId });
    set((s) => ({ debugSessions: { ...s.debugSessions, [result.profile.id]: result.session } }));
    await Promise.all([get().loadProfiles(), get().loadApp()]);
    return result;
  },
  async cancelDebugPairing(pairingId) {
    await bridge.invoke('debugPairing.cancel', { pairingId });
  },
});
