import type { ConnectionState } from '../../../../shared/bridge/contract.js';
import { ApiError, OutcomeUnknownError } from '../../platform/api-errors.js';
import type { PublicApiClient } from '../../platform/public-api-client.js';

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
      // no answer at all, or a 503, is being offline; anything else is worth a line in the log
      const offline =
        error instanceof OutcomeUnknownError || (error instanceof ApiError && error.kind === 'unavailable');
      if (!offline) this.deps.warn('connection check failed', { profileId, error });
      return this.set({
        profileId,
        state: offline ? 'offline' : 'error',
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
