/**
 * Atomic idempotency-key reservations for the runtime's keyed creations (jobs, marked exports,
 * prompt optimizations). A creation checks its key, then reads its `readUrl`s (up to 30 s), then
 * stores its record: without a reservation, an identical request arriving during the read passes
 * the check too and makes a second job. Here the key is reserved synchronously (before any await)
 * for the whole creation:
 *
 * - a concurrent request with the same key and the same canonical body waits for the first's
 *   outcome, then runs its own check again — it finds the stored record and replays it;
 * - a concurrent request with the same key and another body is the route's conflict at once
 *   ("one key never maps to two bodies");
 * - a first request that fails releases the key, and a waiting identical one then creates.
 *
 * The reservations live in memory only (a restart ends every request in flight).
 */

interface Reservation {
  hash: string;
  done: Promise<void>;
}

export class KeyReservations {
  private readonly held = new Map<string, Reservation>();

  /** How many keys are held now (for tests and inspection). */
  get size(): number {
    return this.held.size;
  }

  /**
   * Runs `create` holding `slot` for the request whose canonical body hashes to `hash`.
   * `create` must itself look the key up first (a waiter replays through that look-up).
   */
  async hold<T>(slot: string, hash: string, conflict: () => Error, create: () => Promise<T>): Promise<T> {
    for (;;) {
      const current = this.held.get(slot);
      if (!current) break;
      if (current.hash !== hash) throw conflict();
      await current.done;
    }
    // no await between the check above and this reservation: the two are one step
    let release!: () => void;
    const done = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.held.set(slot, { hash, done });
    try {
      return await create();
    } finally {
      this.held.delete(slot);
      release();
    }
  }
}

const byOwner = new WeakMap<object, KeyReservations>();

/** The reservations of one simulator (keyed by its platform state, so two simulators never share). */
export function keyReservations(owner: object): KeyReservations {
  let reservations = byOwner.get(owner);
  if (!reservations) {
    reservations = new KeyReservations();
    byOwner.set(owner, reservations);
  }
  return reservations;
}
