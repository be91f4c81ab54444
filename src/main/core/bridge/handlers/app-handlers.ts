import { APP_NAME, APP_VERSION } from '../../../../shared/app-version.js';
import { PUBLIC_API_CAPABILITIES } from '../../app/capabilities.js';
import type { appMethods } from '../../../../shared/bridge/domains/app.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

/** App info, UI settings, the profile list and the connection: each a mapping onto a feature. */
export function createAppHandlers(ctx: HandlerContext): DomainHandlers<typeof appMethods> {
  const { profiles, connection, settings } = ctx.features;
  return {
    'app.info': () => ({
      name: APP_NAME,
      version: APP_VERSION,
      host: ctx.host.kind,
      os: process.platform,
      nodeVersion: process.versions.node,
      dataDir: ctx.dataDir,
      capabilities: PUBLIC_API_CAPABILITIES,
    }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const next = settings.update(patch);
      ctx.events.emit('settings.changed', next);
      return next;
    },
    'profiles.list': () => profiles.list(),
    'connection.get': () => connection.current,
    'connection.check': () => connection.check(),
  };
}
