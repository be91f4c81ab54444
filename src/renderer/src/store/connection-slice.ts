import type { StateCreator } from 'zustand';
import type { ConnectionState } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

/** The active profile's connection, as the core last saw it. */
export interface ConnectionSlice {
  connection: ConnectionState | null;
  checkConnection(): Promise<void>;
  receiveConnection(connection: ConnectionState): void;
}

export const createConnectionSlice: StateCreator<StudioState, [], [], ConnectionSlice> = (set, get) => ({
  connection: null,
  async checkConnection() {
    const connection = await bridge.invoke('connection.check', {});
    set({ connection });
    await get().loadProfiles();
  },
  receiveConnection(connection) {
    const wasConnected = get().connection?.state === 'connected';
    set({ connection });
    // back online while Create shows the last known contracts: fetch the live ones (Create's
    // "offline" notice and the status bar never disagree for longer than that call)
    if (connection.state === 'connected' && !wasConnected && get().servicesFromCache)
      void get().loadServices();
    // the simulator's address is known once it has started
    void get().loadProfiles();
  },
});
