import type { ConnectionState } from '../../../shared/bridge/contract.js';
import { ApiError } from '../api-clients/api-errors.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';

/**
 * The runtime's connection as the person's status bar shows it: checked with a listing of the
 * services (kept per session, so no second request), first on the person's first ask — never
 * when the workspace opens (the backend opens workspaces on its own: resume, Team, the
 * `/objects/` route).
 */
export class RuntimeConnection {
  private state: ConnectionState = {
    profileId: RUNTIME_PROFILE_ID,
    state: 'starting',
    checkedAt: new Date().toISOString(),
  };
  private firstCheck: Promise<ConnectionState> | undefined;

  constructor(
    private readonly d: {
      /** Lists the runtime's services for the person (throws when the runtime does not answer). */
      listServices(): Promise<unknown>;
      onChange(state: ConnectionState): void;
    },
  ) {}

  /** The state known now (the first ask checks it). */
  async current(): Promise<ConnectionState> {
    if (!this.firstCheck) return this.check();
    await this.firstCheck;
    return this.state;
  }

  /** Checks the runtime now and tells the page the new state. */
  check(): Promise<ConnectionState> {
    const running = this.run();
    this.firstCheck ??= running;
    return running;
  }

  private async run(): Promise<ConnectionState> {
    const checkedAt = () => new Date().toISOString();
    try {
      await this.d.listServices();
      this.state = { profileId: RUNTIME_PROFILE_ID, state: 'connected', checkedAt: checkedAt() };
    } catch (error) {
      this.state = {
        profileId: RUNTIME_PROFILE_ID,
        state: error instanceof ApiError ? 'error' : 'offline',
        detail: (error as Error).message,
        checkedAt: checkedAt(),
      };
    }
    this.d.onChange(this.state);
    return this.state;
  }
}
