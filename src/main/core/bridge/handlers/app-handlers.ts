import type { appMethods } from '../../../../shared/bridge/domains/app.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

/** App info, UI settings, the profile list and the connection: each a mapping onto the root's parts. */
export function createAppHandlers(ctx: HandlerContext): DomainHandlers<typeof appMethods> {
  return {
    'app.info': () => ctx.info(),
    'settings.get': () => ctx.settings.get(),
    'settings.update': (patch) => {
      const next = ctx.settings.update(patch);
      ctx.events.emit('settings.changed', next);
      return next;
    },
    'profiles.list': () => ctx.profilesList(),
    'connection.get': () => ctx.connection.current(),
    'connection.check': () => ctx.connection.check(),
    'sharedLinks.revoke': async () => {
      await ctx.sharedLinks.revoke();
      return { revokedAt: new Date().toISOString() };
    },
  };
}
