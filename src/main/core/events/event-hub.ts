import { bridgeContract, type EventName, type EventPayload } from '../../../shared/bridge/contract.js';

export type AnyEventListener = (event: EventName, payload: unknown) => void;

/**
 * Pushed events from the core to every connected renderer (Electron windows, browser-host sockets).
 * Payloads are checked against the contract before they leave.
 */
export class EventHub {
  private readonly listeners = new Set<AnyEventListener>();
  /** Hear every event without being a transport (metrics): they keep nothing open. */
  private readonly observers = new Set<AnyEventListener>();

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = bridgeContract.events[event].parse(payload);
    for (const listener of [...this.observers, ...this.listeners]) {
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

  /** Hears every event, like a transport, but is not counted as one (see {@link listenerCount}). */
  observe(listener: AnyEventListener): () => void {
    this.observers.add(listener);
    return () => this.observers.delete(listener);
  }

  subscribe(listener: AnyEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
