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
    set({ connection });
    // the simulator's address is known once it has started
    void get().loadProfiles();
  },
});
