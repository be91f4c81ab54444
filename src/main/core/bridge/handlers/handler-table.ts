import { withRefusals } from '../../backends/capabilities.js';
import type { BridgeHandlers } from '../dispatcher.js';
import { createAppHandlers } from './app-handlers.js';
import { createDebugPairingHandlers } from './debug-pairing-handlers.js';
import type { HandlerContext } from './handler-context.js';
import { createPlaygroundHandlers } from './playground-handlers.js';
import { createSequencesHandlers } from './sequences-handlers.js';
import { createStudioHandlers } from './studio-handlers.js';
import { createTeamHandlers } from './team-handlers.js';

/**
 * The one handler table of the bridge, for every composition root: each domain mapped onto the
 * studio's features over the root's backend and the parts the root has; what the backend's
 * capabilities leave out is refused (`withRefusals`), in one place.
 */
export function createHandlerTable(ctx: HandlerContext): BridgeHandlers {
  const served: Partial<BridgeHandlers> = {
    ...createAppHandlers(ctx),
    ...createStudioHandlers(ctx),
    ...createPlaygroundHandlers(ctx),
    ...createSequencesHandlers(ctx.studio.sequences),
    ...createTeamHandlers(ctx.team),
    ...(ctx.debugPairing && ctx.profiles
      ? createDebugPairingHandlers({ debugPairing: ctx.debugPairing, profiles: ctx.profiles })
      : {}),
  };
  return withRefusals(served, ctx.studio.capabilities);
}
