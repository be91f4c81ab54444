import type { ConnectionState } from '../../../shared/bridge/contract.js';
import { ApiError, OutcomeUnknownError } from '../api-clients/api-errors.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { withListServices, type ListingClient } from './startup-service-list.js';

/** What the connection monitor needs: the active profile, its client, where changes go, a log. */
export interface ConnectionMonitorDeps {
  activeProfileId(): string;
  clientFor(profileId: string): Promise<Pick<PublicApiClient, 'listServices'>>;
  /** Told every new state (the app pushes it to the renderers as `connection.changed`). */
  onChange(state: ConnectionState): void;
  warn(message: string, fields: Record<string, unknown>): void;
  now?: () => Date;
}

/** Tracks the active profile's connection: starting, connected, offline (no answer) or error. */
export class ConnectionMonitor {
  private state: ConnectionState;
  private readonly now: () => Date;

  constructor(private readonly deps: ConnectionMonitorDeps) {
    this.now = deps.now ?? (() => new Date());
    this.state = {
      profileId: deps.activeProfileId(),
      state: 'starting',
      checkedAt: this.now().toISOString(),
    };
  }

  get current(): ConnectionState {
    return this.state;
  }

  private set(next: Omit<ConnectionState, 'checkedAt'>): ConnectionState {
    this.state = { ...next, checkedAt: this.now().toISOString() };
    this.deps.onChange(this.state);
    return this.state;
  }

  /** Asks the active profile's service for `/services`, as testing a profile does. */
  async check(): Promise<ConnectionState> {
    const profileId = this.deps.activeProfileId();
    try {
      const client = await this.deps.clientFor(profileId);
      await client.listServices();
      return this.set({ profileId, state: 'connected' });
    } catch (error) {
      return this.set(this.failed(profileId, error));
    }
  }

  /**
   * What any other `/services` call of the active profile learnt (Create's discovery): the
   * connection is the one truth the status bar and Create both show, so an answer makes it
   * connected and no answer makes it offline. Told only on a change; other profiles' calls are
   * not the active connection's.
   */
  observe(profileId: string, outcome: { answered: true } | { answered: false; error: unknown }): void {
    if (profileId !== this.deps.activeProfileId()) return;
    const next = outcome.answered
      ? { profileId, state: 'connected' as const }
      : this.failed(profileId, outcome.error);
    if (next.state === this.state.state && next.profileId === this.state.profileId) return;
    this.set(next);
  }

  /**
   * A client whose `listServices()` answers are observed (see {@link observe}); every other call
   * is the client's own.
   */
  observing<C extends ListingClient>(profileId: string, client: C): C {
    return withListServices(client, async (serviceKind?: string) => {
      try {
        const list = await client.listServices(serviceKind);
        this.observe(profileId, { answered: true });
        return list;
      } catch (error) {
        this.observe(profileId, { answered: false, error });
        throw error;
      }
    });
  }

  private failed(profileId: string, error: unknown): Omit<ConnectionState, 'checkedAt'> {
    // no answer at all, or a 503, is being offline; anything else is worth a line in the log
    const offline =
      error instanceof OutcomeUnknownError || (error instanceof ApiError && error.kind === 'unavailable');
    if (!offline) this.deps.warn('connection check failed', { profileId, error });
    return {
      profileId,
      state: offline ? 'offline' : 'error',
      detail: error instanceof Error ? error.message : String(error),
    };
  }
}
