import type { StateCreator } from 'zustand';
import type { ConnectionState } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { StudioState } from './index';

/**
 * The newer of two connection states of the page: a state of another profile (the active one
 * changed) or one checked at the same time or later replaces what is shown; an older answer that
 * arrives late (a read issued before a change was pushed) never does.
 */
export function newerConnection(shown: ConnectionState | null, next: ConnectionState): ConnectionState {
  if (!shown || shown.profileId !== next.profileId) return next;
  return Date.parse(next.checkedAt) >= Date.parse(shown.checkedAt) ||
    Number.isNaN(Date.parse(shown.checkedAt))
    ? next
    : shown;
}

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
    set({ connection: newerConnection(get().connection, connection) });
    await get().loadProfiles();
  },
  receiveConnection(connection) {
    const wasConnected = get().connection?.state === 'connected';
    set({ connection: newerConnection(get().connection, connection) });
    // back online while Create shows the last known contracts: fetch the live ones (Create's
    // "offline" notice and the status bar never disagree for longer than that call)
    if (connection.state === 'connected' && !wasConnected && get().servicesFromCache)
      void get().loadServices();
    // the simulator's address is known once it has started
    void get().loadProfiles();
  },
});
