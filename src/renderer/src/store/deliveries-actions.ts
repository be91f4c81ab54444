import type { StoreApi } from 'zustand';
import type { DeliveryView } from '../../../shared/bridge/contract';
import { bridge } from '../bridge';
import type { DeliveriesSlice } from './deliveries-slice';
import type { StudioState } from './index';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

type Actions = Pick<DeliveriesSlice, 'loadDeliveries' | 'deliver' | 'cancelDelivery' | 'loadFilms'>;

/** The newest first; a view replaces the one with its id. */
function upsert(list: readonly DeliveryView[], view: DeliveryView): DeliveryView[] {
  return [view, ...list.filter((d) => d.deliveryId !== view.deliveryId)].sort(
    (a, b) => b.createdAt - a.createdAt,
  );
}

/**
 * The deliveries slice's actions (see deliveries-slice.ts): loaded on their first use, when they
 * start following `sequences.delivery` events (progress, the end of each delivery).
 */
export function deliveriesActions(
  set: StoreApi<StudioState>['setState'],
  get: StoreApi<StudioState>['getState'],
): Actions {
  const receive = (view: DeliveryView) => {
    const current = get().deliveries;
    if (current?.sequenceId === view.sequenceId)
      set({ deliveries: { sequenceId: view.sequenceId, list: upsert(current.list, view) } });
    if (view.state === 'ready' && get().films !== null) void actions.loadFilms();
  };
  bridge.on('sequences.delivery', receive);

  const actions: Actions = {
    async loadDeliveries(sequenceId) {
      if (get().deliveries?.sequenceId !== sequenceId) set({ deliveries: null, deliveryError: null });
      try {
        const list = await bridge.invoke('sequences.deliveries.list', { sequenceId });
        set({ deliveries: { sequenceId, list } });
      } catch (error) {
        set({ deliveryError: message(error) });
      }
    },

    async deliver(requests) {
      if (get().deliveryBusy) return false;
      set({ deliveryBusy: true, deliveryError: null });
      try {
        for (const request of requests) receive(await bridge.invoke('sequences.deliver', request));
        return true;
      } catch (error) {
        set({ deliveryError: message(error) });
        return false;
      } finally {
        set({ deliveryBusy: false });
      }
    },

    async cancelDelivery(deliveryId) {
      try {
        await bridge.invoke('sequences.deliveries.cancel', { deliveryId });
        const sequenceId = get().deliveries?.sequenceId;
        if (sequenceId) await actions.loadDeliveries(sequenceId);
      } catch (error) {
        set({ deliveryError: message(error) });
      }
    },

    async loadFilms() {
      try {
        set({ films: await bridge.invoke('sequences.deliveries.list', {}) });
      } catch {
        set({ films: [] });
      }
    },
  };
  return actions;
}
