import { create } from 'zustand';
import type { DeliveryRequest, DeliveryView } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import { useStudio } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Deliveries (issue 31): the open sequence's deliveries in their formats, and the library's films
 * (every sequence's ready deliveries). A store of its own, imported only by the lazy chunks that
 * show deliveries (the Deliveries panel, the library's films), so it costs the first chunk nothing
 * (it is at its budget); it follows `sequences.delivery` events from its first use.
 */
export interface DeliveriesState {
  /** The open sequence's deliveries, newest first (with the sequence they belong to). */
  deliveries: { sequenceId: string; list: DeliveryView[] } | null;
  /** Every sequence's ready deliveries (null before the first answer). */
  films: DeliveryView[] | null;
  /** Why the last delivery action failed, as the core said it. */
  error: string | null;
  busy: boolean;
  /** The film the library plays first ("Play in the library"). */
  focusedFilm: string | null;
  loadDeliveries(sequenceId: string): Promise<void>;
  /** Starts each delivery in turn (each answers at once; progress follows as events). */
  deliver(requests: DeliveryRequest[]): Promise<boolean>;
  cancelDelivery(deliveryId: string): Promise<void>;
  loadFilms(): Promise<void>;
  /** Opens the Library with this delivery in its player. */
  playInLibrary(deliveryId: string): void;
}

/** The newest first; a view replaces the one with its id. */
function upsert(list: readonly DeliveryView[], view: DeliveryView): DeliveryView[] {
  return [view, ...list.filter((d) => d.deliveryId !== view.deliveryId)].sort(
    (a, b) => b.createdAt - a.createdAt,
  );
}

export const useDeliveries = create<DeliveriesState>()((set, get) => {
  const receive = (view: DeliveryView) => {
    const current = get().deliveries;
    if (current?.sequenceId === view.sequenceId)
      set({ deliveries: { sequenceId: view.sequenceId, list: upsert(current.list, view) } });
    if (view.state === 'ready' && get().films !== null) void get().loadFilms();
  };
  bridge.on('sequences.delivery', receive);

  return {
    deliveries: null,
    films: null,
    error: null,
    busy: false,
    focusedFilm: null,

    async loadDeliveries(sequenceId) {
      if (get().deliveries?.sequenceId !== sequenceId) set({ deliveries: null, error: null });
      try {
        const list = await bridge.invoke('sequences.deliveries.list', { sequenceId });
        set({ deliveries: { sequenceId, list } });
      } catch (error) {
        set({ error: message(error) });
      }
    },

    async deliver(requests) {
      if (get().busy) return false;
      set({ busy: true, error: null });
      try {
        for (const request of requests) receive(await bridge.invoke('sequences.deliver', request));
        return true;
      } catch (error) {
        set({ error: message(error) });
        return false;
      } finally {
        set({ busy: false });
      }
    },

    async cancelDelivery(deliveryId) {
      try {
        await bridge.invoke('sequences.deliveries.cancel', { deliveryId });
        const sequenceId = get().deliveries?.sequenceId;
        if (sequenceId) await get().loadDeliveries(sequenceId);
      } catch (error) {
        set({ error: message(error) });
      }
    },

    async loadFilms() {
      try {
        set({ films: await bridge.invoke('sequences.deliveries.list', {}) });
      } catch {
        set({ films: [] });
      }
    },

    playInLibrary(deliveryId) {
      set({ focusedFilm: deliveryId });
      useStudio.getState().setSection('library');
    },
  };
});
