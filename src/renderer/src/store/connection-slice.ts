import type { StateCreator } from 'zustand';
import type { ConnectionState, ProfileSummary } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

export interface ConnectionSlice {
  profiles: ProfileSummary[];
  activeProfileId: string | null;
  connection: ConnectionState | null;
  loadProfiles(): Promise<void>;
  checkConnection(): Promise<void>;
  receiveConnection(connection: ConnectionState): void;
}

export const createConnectionSlice: StateCreator<StudioState, [], [], ConnectionSlice> = (set, get) => ({
  profiles: [],
  activeProfileId: null,
  connection: null,
  async loadProfiles() {
    const [list, connection] = await Promise.all([
      bridge.invoke('profiles.list', {}),
      bridge.invoke('connection.get', {}),
    ]);
    set({ profiles: list.profiles, activeProfileId: list.activeProfileId, connection });
  },
  async checkConnection() {
    const connection = await bridge.invoke('connection.check', {});
    set({ connection });
    await get().loadProfiles();
  },
  receiveConnection(connection) {
    set({ connection });
    // the simulator's address is known once it has started
    void get().loadProfiles();
  },
});
