import { checkedBusinessPath, sendWithGrant } from './business-send.js';
import { DebugGrantIssuer, type DebugGrantIssuerDeps } from './debug-grant-issuer.js';
import type { GrantChannel } from './grant-channel.js';

/** A locally running provider of local peer debugging (section D). */
export interface DebugPeer {
  /** The provider's business address on this machine (e.g. a local storyboard-helper). */
  readonly baseUrl: string;
  /** The pairing number its developer's receiver answered (`POST …/debug-receivers`); not a credential. */
  readonly receiverRef: string;
}

export interface DebugPeerGrantChannelDeps extends DebugGrantIssuerDeps {
  readonly peer: DebugPeer;
}

/**
 * Local peer debugging (section D, `sourceChannel: developer_local`): a peer grant for the
 * provider's receiver, issued under the pairing's binding with the CLI Bearer; the business
 * request goes straight to the local provider carrying only the grant and the business data (no
 * CLI token, no session id: the provider resolves the grant with its own pairing).
 */
export class DebugPeerGrantChannel implements GrantChannel {
  private readonly issuer: DebugGrantIssuer;
  private readonly base: string;

  constructor(private readonly d: DebugPeerGrantChannelDeps) {
    this.issuer = new DebugGrantIssuer(d);
    this.base = d.peer.baseUrl.replace(/\/+$/, '');
  }

  issue(input: Parameters<GrantChannel['issue']>[0]): ReturnType<GrantChannel['issue']> {
    return this.issuer.issue('/debug-peer-grants', {
      receiverRef: this.d.peer.receiverRef,
      calleeAppKey: input.calleeAppKey,
      apiVersion: input.apiVersion,
      scope: input.scope,
      requestDigest: input.requestDigest,
      idempotencyKey: input.idempotencyKey,
    });
  }

  send(input: Parameters<GrantChannel['send']>[0]): ReturnType<GrantChannel['send']> {
    return sendWithGrant(`${this.base}${checkedBusinessPath(input.path)}`, input, {
      appLabel: this.d.appLabel,
      ...(this.d.fetch ? { fetch: this.d.fetch } : {}),
    });
  }
}
