import type { StateCreator } from 'zustand';
import type { DeliveryRequest, DeliveryView } from '../../../shared/bridge/contract';
import type { deliveriesActions } from './deliveries-actions';
import type { StudioState } from './index';

/**
 * Deliveries (issue 31): the open sequence's deliveries in their formats, and the library's films
 * (every sequence's ready deliveries). The actions' work is in deliveries-actions.ts, loaded on
 * first use (the first chunk is at its budget); they follow `sequences.delivery` events from then on.
 */
export interface DeliveriesSlice {
  /** The open sequence's deliveries, newest first (with the sequence they belong to). */
  deliveries: { sequenceId: string; list: DeliveryView[] } | null;
  /** Every sequence's ready deliveries (null before the first answer). */
  films: DeliveryView[] | null;
  /** Why the last delivery action failed, as the core said it. */
  deliveryError: string | null;
  deliveryBusy: boolean;
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

export const createDeliveriesSlice: StateCreator<StudioState, [], [], DeliveriesSlice> = (set, get) => {
  let loaded: ReturnType<typeof deliveriesActions> | undefined;
  const actions = async () => (loaded ??= (await import('./deliveries-actions')).deliveriesActions(set, get));
  return {
    deliveries: null,
    films: null,
    deliveryError: null,
    deliveryBusy: false,
    focusedFilm: null,
    loadDeliveries: async (sequenceId) => (await actions()).loadDeliveries(sequenceId),
    deliver: async (requests) => (await actions()).deliver(requests),
    cancelDelivery: async (deliveryId) => (await actions()).cancelDelivery(deliveryId),
    loadFilms: async () => (await actions()).loadFilms(),
    playInLibrary: (deliveryId) => set({ focusedFilm: deliveryId, section: 'library' }),
  };
};
