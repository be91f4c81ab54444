import type { DebugPeer } from './debug-peer-grant-channel.js';
import { DebugPeerGrantChannel } from './debug-peer-grant-channel.js';
import { DebugRelayGrantChannel } from './debug-relay-grant-channel.js';
import type { DebugGrantIssuerDeps } from './debug-grant-issuer.js';
import type { GrantChannel } from './grant-channel.js';

/** The local provider's business address, e.g. `http://127.0.0.1:PORT/apps/storyboard-helper`. */
export const DEBUG_PEER_URL_ENV = 'FRAMEWRIGHT_DEBUG_PEER_URL';
/** The pairing number of the provider developer's receiver (`POST …/debug-receivers`). */
export const DEBUG_PEER_RECEIVER_ENV = 'FRAMEWRIGHT_DEBUG_PEER_RECEIVER';

/**
 * The local peer named by the environment: both settings, or neither (then the relay is used). One
 * without the other, a non-http(s) address or a pairing number with spaces is a clear error.
 */
export function debugPeerFromEnvironment(env: NodeJS.ProcessEnv = process.env): DebugPeer | undefined {
  const baseUrl = env[DEBUG_PEER_URL_ENV]?.trim();
  const receiverRef = env[DEBUG_PEER_RECEIVER_ENV]?.trim();
  if (!baseUrl && !receiverRef) return undefined;
  if (!baseUrl || !receiverRef)
    throw new Error(
      `Local peer debugging needs both ${DEBUG_PEER_URL_ENV} (the local provider's address) and ${DEBUG_PEER_RECEIVER_ENV} (its receiver's pairing number).`,
    );
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`${DEBUG_PEER_URL_ENV} is not an address: ${baseUrl}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`${DEBUG_PEER_URL_ENV} must be an http(s) address.`);
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(receiverRef))
    throw new Error(`${DEBUG_PEER_RECEIVER_ENV} is not a receiver pairing number.`);
  return { baseUrl: url.toString().replace(/\/+$/, ''), receiverRef };
}

export interface DebugChannelRequest extends DebugGrantIssuerDeps {
  readonly calleeAppKey: string;
  readonly apiVersion: string;
  /** A locally running provider; without one, the platform relay. */
  readonly peer?: DebugPeer;
}

/**
 * The grant channel of a paired debug profile: a debug peer grant straight to the local provider
 * when one is configured (`developer_local`), else a debug grant through the relay to the
 * callee's production version (`developer_debug`). Both authenticate with the CLI session only.
 */
export function grantChannelForProfile(request: DebugChannelRequest): GrantChannel {
  return request.peer
    ? new DebugPeerGrantChannel({ ...request, peer: request.peer })
    : new DebugRelayGrantChannel(request);
}
