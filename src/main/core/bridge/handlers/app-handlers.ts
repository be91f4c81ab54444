import { APP_NAME, APP_VERSION } from '../../../../shared/app-version.js';
import type { ConnectionState, appMethods } from '../../../../shared/bridge/domains/app.js';
import { ApiError, OutcomeUnknownError } from '../../platform/api-errors.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

/** Tracks the active profile's connection and pushes every change to the renderers. */
export class ConnectionMonitor {
  private state: ConnectionState;
  constructor(private readonly ctx: HandlerContext) {
    this.state = {
      profileId: ctx.services.profiles.activeId(),
      state: 'starting',
      checkedAt: new Date().toISOString(),
    };
  }

  get current(): ConnectionState {
    return this.state;
  }

  private set(next: Omit<ConnectionState, 'checkedAt'>): ConnectionState {
    this.state = { ...next, checkedAt: new Date().toISOString() };
    this.ctx.events.emit('connection.changed', this.state);
    return this.state;
  }

  /** Asks the active profile's service for `/services`, as testing a profile does. */
  async check(): Promise<ConnectionState> {
    const profileId = this.ctx.services.profiles.activeId();
    try {
      const client = await this.ctx.services.profiles.clientFor(profileId);
      await client.listServices();
      return this.set({ profileId, state: 'connected' });
    } catch (error) {
      const offline =
        error instanceof OutcomeUnknownError || (error instanceof ApiError && error.kind === 'unavailable');
      if (!offline) this.ctx.logger.warn('connection check failed', { profileId, error });
      return this.set({
        profileId,
        state: offline ? 'offline' : 'error',
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }
}

export function createAppHandlers(
  ctx: HandlerContext,
  connection: ConnectionMonitor,
): DomainHandlers<typeof appMethods> {
  const { services } = ctx;
  return {
    'app.info': () => ({
      name: APP_NAME,
      version: APP_VERSION,
      host: ctx.host,
      platform: process.platform,
      nodeVersion: process.versions.node,
      dataDir: services.dataDir,
    }),
    'settings.get': () => ctx.settings.get(),
    'settings.update': (patch) => {
      const next = ctx.settings.update(patch);
      ctx.events.emit('settings.changed', next);
      return next;
    },
    'profiles.list': async () => {
      const running = await services.simulator.peek();
      return {
        activeProfileId: services.profiles.activeId(),
        profiles: services.profiles.list().map((p) => services.profiles.summary(p, running?.baseUrl ?? null)),
      };
    },
    'connection.get': () => connection.current,
    'connection.check': () => connection.check(),
  };
}
