import { bridgeContract, type EventName, type EventPayload } from '../../../shared/bridge/contract.js';

export type AnyEventListener = (event: EventName, payload: unknown) => void;

/**
 * Pushed events from the core to every connected renderer (Electron windows, browser-host sockets).
 * Payloads are checked against the contract before they leave.
 */
export class EventHub {
  private readonly listeners = new Set<AnyEventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = bridgeContract.events[event].parse(payload);
    for (const listener of this.listeners) {
      try {
        listener(event, checked);
      } catch {
        // one broken transport must not stop the others
      }
    }
  }

  /** How many transports listen now (an open socket keeps a platform workspace open). */
  get listenerCount(): number {
    return this.listeners.size;
  }

  subscribe(listener: AnyEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
