import type { z } from 'zod';
import { appEvents, appMethods } from './domains/app.js';
import { studioEvents, studioMethods } from './domains/studio.js';
import { playgroundEvents, playgroundMethods } from './domains/playground.js';
import { teamEvents, teamMethods } from './domains/team.js';
import { sequencesEvents, sequencesMethods } from './domains/sequences.js';
import { debugPairingEvents, debugPairingMethods } from './domains/debug-pairing.js';
import { storyboardsEvents, storyboardsMethods } from './domains/storyboards.js';
import { reviewEvents, reviewMethods } from './domains/review.js';
import { EVENT_NAMES, METHOD_NAMES, isEventName, isMethodName } from './names.js';

/**
 * The one typed contract between the renderer and the main-process core.
 *
 * Every request/response method and every pushed event is declared once, with a schema, in a
 * domain file under ./domains/ and composed here. From this single definition:
 *  - the Electron shell registers one IPC handler per method (src/main/shell/ipc.ts),
 *  - the preload exposes exactly these methods as `window.framewright` (src/preload/index.ts),
 *  - the browser host serves the same methods over HTTP and events over WebSocket (src/main/host/),
 *  - the core validates every call against `params` before a handler sees it (src/main/core/bridge/).
 * The renderer is untrusted input: params are parsed strictly on the main side.
 */
export * from './domains/app.js';
export * from './domains/studio.js';
export * from './domains/playground.js';
export * from './domains/team.js';
export * from './domains/sequences.js';
export * from './domains/debug-pairing.js';
export * from './domains/storyboards.js';
export * from './domains/review.js';

export const bridgeContract = {
  methods: {
    ...appMethods,
    ...studioMethods,
    ...playgroundMethods,
    ...teamMethods,
    ...sequencesMethods,
    ...debugPairingMethods,
    ...storyboardsMethods,
    ...reviewMethods,
  },
  events: {
    ...appEvents,
    ...studioEvents,
    ...playgroundEvents,
    ...teamEvents,
    ...sequencesEvents,
    ...debugPairingEvents,
    ...storyboardsEvents,
    ...reviewEvents,
  },
} as const;

export type BridgeContract = typeof bridgeContract;
export type MethodName = keyof BridgeContract['methods'];
export type EventName = keyof BridgeContract['events'];
export type MethodParams<M extends MethodName> = z.input<BridgeContract['methods'][M]['params']>;
export type MethodResult<M extends MethodName> = z.output<BridgeContract['methods'][M]['result']>;
export type EventPayload<E extends EventName> = z.output<BridgeContract['events'][E]>;

/** Compiles only when the two sets are equal: a name missing on either side is a type error here. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const methodNamesMatch: Same<MethodName, (typeof METHOD_NAMES)[number]> = true;
const eventNamesMatch: Same<EventName, (typeof EVENT_NAMES)[number]> = true;
void methodNamesMatch;
void eventNamesMatch;

/** The names-only module (./names.ts) lists them for the renderer; main reads them here. */
export const methodNames: readonly MethodName[] = METHOD_NAMES;
export const eventNames: readonly EventName[] = EVENT_NAMES;
export { isEventName, isMethodName };
