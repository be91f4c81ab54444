import type { Capabilities } from '../../../../shared/bridge/domains/app.js';
import { METHOD_NAMES } from '../../../../shared/bridge/names.js';
import { refusalsOf } from '../../backends/capabilities.js';
import type { BridgeHandlers } from '../dispatcher.js';
import { createAppHandlers } from './app-handlers.js';
import { createDebugPairingHandlers } from './debug-pairing-handlers.js';
import type { HandlerContext } from './handler-context.js';
import { createPlaygroundHandlers } from './playground-handlers.js';
import { createReviewHandlers } from './review-handlers.js';
import { createSequencesHandlers } from './sequences-handlers.js';
import { createStoryboardsHandlers } from './storyboards-handlers.js';
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
    ...createReviewHandlers(ctx),
    ...createPlaygroundHandlers(ctx),
    ...createSequencesHandlers(ctx.studio.sequences, ctx.studio.soundtrack, ctx.studio.deliveries),
    ...createTeamHandlers(ctx.team),
    ...(ctx.storyboards ? createStoryboardsHandlers(ctx.storyboards) : {}),
    ...(ctx.debugPairing && ctx.profiles
      ? createDebugPairingHandlers({ debugPairing: ctx.debugPairing, profiles: ctx.profiles })
      : {}),
  };
  return withRefusals(served, { ...ctx.studio.capabilities, ...ctx.sessionCapabilities });
}

/**
 * The full handler table of a backend: every method the studio serves, except those of a
 * capability the backend declares off, which are refused here and nowhere else (a refusal wins
 * over a handler). A method neither served nor refused is a wiring error found at start.
 */
export function withRefusals(served: Partial<BridgeHandlers>, capabilities: Capabilities): BridgeHandlers {
  const all: Partial<BridgeHandlers> = { ...served, ...refusalsOf(capabilities) };
  const missing = METHOD_NAMES.filter((method) => !(method in all));
  if (missing.length > 0) throw new Error(`No handler for ${missing.join(', ')}`);
  return all as BridgeHandlers;
}
