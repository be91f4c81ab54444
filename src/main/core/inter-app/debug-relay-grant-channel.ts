import { checkedBusinessPath, sendWithGrant } from './business-send.js';
import { DebugGrantIssuer, type DebugGrantIssuerDeps } from './debug-grant-issuer.js';
import type { GrantChannel } from './grant-channel.js';

export interface DebugRelayGrantChannelDeps extends DebugGrantIssuerDeps {
  /** The one callee and API version this channel reaches (the relay path names both). */
  readonly calleeAppKey: string;
  readonly apiVersion: string;
}

/**
 * Online debugging through the platform relay (section D, `sourceChannel: developer_debug`): a
 * debug grant issued under the pairing's binding with the CLI Bearer (no runtime session id),
 * then the business request to `{debug_base_url}/inter-app/{calleeAppKey}/{apiVersion}{path}`
 * with the CLI Bearer and `X-Platform-App-Grant`; the platform forwards it to the callee's
 * production version. The production application credential is never used here.
 */
export class DebugRelayGrantChannel implements GrantChannel {
  private readonly issuer: DebugGrantIssuer;

  constructor(private readonly d: DebugRelayGrantChannelDeps) {
    this.issuer = new DebugGrantIssuer(d);
  }

  issue(input: Parameters<GrantChannel['issue']>[0]): ReturnType<GrantChannel['issue']> {
    if (input.calleeAppKey !== this.d.calleeAppKey || input.apiVersion !== this.d.apiVersion)
      throw new Error(`This relay channel reaches ${this.d.calleeAppKey} ${this.d.apiVersion} only.`);
    return this.issuer.issue('/app-grants', {
      calleeAppKey: input.calleeAppKey,
      apiVersion: input.apiVersion,
      scope: input.scope,
      idempotencyKey: input.idempotencyKey,
      requestDigest: input.requestDigest,
    });
  }

  /** The relay address of this callee: the CLI session's relay address, else `{debug_base_url}/inter-app`. */
  relayUrl(path: string): string {
    const b = this.d.binding;
    const relay = (b.relayBaseUrl ?? `${b.runtimeBaseUrl.replace(/\/+$/, '')}/inter-app`).replace(/\/+$/, '');
    return `${relay}/${encodeURIComponent(this.d.calleeAppKey)}/${encodeURIComponent(this.d.apiVersion)}${checkedBusinessPath(path)}`;
  }

  async send(input: Parameters<GrantChannel['send']>[0]): ReturnType<GrantChannel['send']> {
    return sendWithGrant(this.relayUrl(input.path), input, {
      appLabel: this.d.appLabel,
      extraHeaders: { authorization: `Bearer ${await this.d.token()}` },
      ...(this.d.fetch ? { fetch: this.d.fetch } : {}),
    });
  }
}
