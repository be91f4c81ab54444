import { randomBytes } from 'node:crypto';

/**
 * Sign-ins exchanged for a browser with no session, held until the person confirms whom the link
 * signs in (login CSRF; PLATFORM_SIGN_IN_CONFIRM_CODE in platform-host-protocol.ts). Each is found
 * by a random 256-bit token the page keeps in memory, taken at most once, and forgotten after
 * `holdMs`; at most `max` are held (the oldest gives way). What is forgotten unconfirmed is handed
 * to `release` (the host ends that session).
 */
export class HeldSignIns<S> {
  private readonly held = new Map<string, { session: S; until: number }>();

  constructor(
    private readonly holdMs: number,
    private readonly max: number,
    private readonly release: (session: S) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** Holds a session; returns its token. */
  hold(session: S): string {
    this.sweep();
    while (this.held.size >= this.max) {
      const oldest = this.held.keys().next().value as string;
      this.forget(oldest);
    }
    const token = randomBytes(32).toString('base64url');
    this.held.set(token, { session, until: this.now() + this.holdMs });
    return token;
  }

  /** The held session of `token`, removed (undefined: unknown, taken already or past its hold). */
  take(token: string): S | undefined {
    this.sweep();
    const entry = this.held.get(token);
    if (!entry) return undefined;
    this.held.delete(token);
    return entry.session;
  }

  /** Ends every held session whose hold has passed. */
  sweep(): void {
    const now = this.now();
    for (const [token, entry] of this.held) if (entry.until <= now) this.forget(token);
  }

  /** Ends every held session (the host is closing). */
  clear(): void {
    for (const token of [...this.held.keys()]) this.forget(token);
  }

  get size(): number {
    return this.held.size;
  }

  private forget(token: string): void {
    const entry = this.held.get(token);
    if (!entry) return;
    this.held.delete(token);
    this.release(entry.session);
  }
}
