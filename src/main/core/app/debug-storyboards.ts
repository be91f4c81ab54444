import type { DebugPairingFeature } from '../debug-pairing/debug-pairing-feature.js';
import { debugPeerFromEnvironment, grantChannelForProfile } from '../inter-app/debug-grant-channels.js';
import type { FetchLike } from '../inter-app/debug-grant-issuer.js';
import type { GrantChannel } from '../inter-app/grant-channel.js';
import { isLoopbackAddress } from '../storage/local-object-share.js';

/** The callee storyboards reach: storyboard-helper at the API version Framewright declares. */
export const STORYBOARD_CALLEE = {
  appKey: 'storyboard-helper',
  apiVersion: '2026-01',
  label: 'Storyboard Helper',
};

export interface DebugStoryboardsDeps<F> {
  readonly pairing: Pick<DebugPairingFeature, 'session' | 'binding'>;
  /** The profile's CLI token for a request, its expiry checked first. */
  tokenFor(profileId: string): Promise<string>;
  activeProfileId(): string;
  /**
   * The storyboards feature over a channel, for the profile it acts as. `calleeOnThisComputer`:
   * the callee is reached on this computer (a local peer, or a simulated platform on loopback), so
   * a loopback address of a sent film is readable by it.
   */
  build(
    channel: GrantChannel,
    profile: { profileId: string; calleeOnThisComputer: boolean; calleeOrigin: string },
  ): F;
  readonly env?: NodeJS.ProcessEnv;
  readonly fetch?: FetchLike;
}

/**
 * Storyboards in online debugging (issue 29, section D): when the active profile is a live paired
 * debug session, the same import and send run over debug grants — through the relay to
 * storyboard-helper's production version, or as peer grants to a locally running storyboard-helper
 * when FRAMEWRIGHT_DEBUG_PEER_URL and FRAMEWRIGHT_DEBUG_PEER_RECEIVER name one. Only the CLI
 * session authenticates; the production application credential is never used. One feature per
 * profile and session, built where the features meet: the composition root.
 */
export class DebugStoryboards<F> {
  private cached: { key: string; feature: F } | undefined;

  constructor(private readonly d: DebugStoryboardsDeps<F>) {}

  /** The channel of the active profile; undefined unless it is a live paired debug session. */
  async channelForActiveProfile(): Promise<GrantChannel | undefined> {
    return (await this.channelAndPlace())?.channel;
  }

  private async channelAndPlace(): Promise<
    | { channel: GrantChannel; profileId: string; calleeOnThisComputer: boolean; calleeOrigin: string }
    | undefined
  > {
    const profileId = this.d.activeProfileId();
    const session = await this.d.pairing.session(profileId);
    if (!session || session.expired) return undefined;
    const binding = await this.d.pairing.binding(profileId);
    if (!binding) return undefined;
    const peer = debugPeerFromEnvironment(this.d.env ?? process.env);
    const channel = grantChannelForProfile({
      binding,
      token: () => this.d.tokenFor(profileId),
      calleeAppKey: STORYBOARD_CALLEE.appKey,
      apiVersion: STORYBOARD_CALLEE.apiVersion,
      appLabel: STORYBOARD_CALLEE.label,
      ...(peer ? { peer } : {}),
      ...(this.d.fetch ? { fetch: this.d.fetch } : {}),
    });
    const callee = peer ? peer.baseUrl : (binding.relayBaseUrl ?? binding.runtimeBaseUrl);
    const calleeOnThisComputer = isLoopbackAddress(callee);
    return { channel, profileId, calleeOnThisComputer, calleeOrigin: new URL(callee).origin };
  }

  /** Whether the `storyboards` capability is on: the active profile is a live paired debug session. */
  async available(): Promise<boolean> {
    const session = await this.d.pairing.session(this.d.activeProfileId());
    return Boolean(session && !session.expired);
  }

  /** The storyboards feature of the active profile (the same one while its session lasts). */
  async forActiveProfile(): Promise<F | undefined> {
    const profileId = this.d.activeProfileId();
    const session = await this.d.pairing.session(profileId);
    if (!session || session.expired) return undefined;
    const key = `${profileId}:${session.expiresAt}`;
    if (this.cached?.key === key) return this.cached.feature;
    const found = await this.channelAndPlace();
    if (!found) return undefined;
    const { channel, ...place } = found;
    this.cached = { key, feature: this.d.build(channel, place) };
    return this.cached.feature;
  }
}
