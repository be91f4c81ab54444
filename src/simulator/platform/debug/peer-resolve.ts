import type { SimulatorState } from '../../context.js';
import { resolvedGrantView } from '../grant-store.js';
import { openedForDebug, sameIdentity } from './debug-auth.js';
import type { DebugGrantRecord, DebugIdentity } from './debug-store.js';

/** The provider binding that resolves a peer grant: its application, version and identity. */
export interface PeerProvider extends DebugIdentity {
  appKey: string;
  appVersionId: string;
}

/** What a provider presents to resolve (or launch) a peer grant. */
export interface PeerGrantUse {
  grant: string;
  scope: string;
  requestDigest: string;
}

/**
 * The live peer grant (`developer_local`) this provider binding may use for exactly this scope
 * and digest: issued for its application and version, for the same identity, while its receiver
 * is live and the provider still opens the capability to online debugging; else undefined (the
 * uniform 404 of `POST …/debug-peer-grants:resolve`). Resolve does not consume.
 */
export function usablePeerGrantFor(
  state: SimulatorState,
  provider: PeerProvider,
  use: PeerGrantUse,
): DebugGrantRecord | undefined {
  const debug = state.platform.debug;
  const g = debug.grantByPlaintext(use.grant);
  if (
    !g ||
    g.sourceChannel !== 'developer_local' ||
    g.calleeAppKey !== provider.appKey ||
    g.calleeAppVersionId !== provider.appVersionId ||
    g.expiresAtMs <= debug.now() ||
    g.scope !== use.scope ||
    g.requestDigest !== use.requestDigest ||
    !debug.liveReceiver(g.receiverRef) ||
    !sameIdentity(g, provider) ||
    !openedForDebug(state, g.calleeAppKey, g.apiVersion, [g.scope])
  )
    return undefined;
  return g;
}

/**
 * A peer grant as the simulator's own storyboard-helper resolves it when it stands in for the
 * locally running provider: as the binding that opened the grant's receiver would (the same
 * checks as `POST …/debug-peer-grants:resolve` under that binding). In process, because the
 * simulator's helper holds no CLI token of its own. The answer is the resolved grant plus its
 * `sourceChannel`; never the plaintext.
 */
export function resolvePeerGrantAsReceiver(
  state: SimulatorState,
  use: PeerGrantUse,
): (ReturnType<typeof resolvedGrantView> & { sourceChannel: string }) | undefined {
  const candidate = state.platform.debug.grantByPlaintext(use.grant);
  const receiver = state.platform.debug.liveReceiver(candidate?.receiverRef);
  if (!candidate || !receiver) return undefined;
  const g = usablePeerGrantFor(
    state,
    {
      appKey: receiver.appKey,
      appVersionId: receiver.appVersionId,
      subject: receiver.subject,
      testAccountId: receiver.testAccountId,
    },
    use,
  );
  return g ? { ...resolvedGrantView(g), sourceChannel: g.sourceChannel } : undefined;
}
