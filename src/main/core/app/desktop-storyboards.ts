import path from 'node:path';
import type { DebugPairingFeature } from '../debug-pairing/debug-pairing-feature.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { SecretStore } from '../secrets/secret-store.js';
import {
  isLoopbackAddress,
  LocalObjectShare,
  SHARE_ORIGIN_ENV,
  shareSubjectKey,
} from '../storage/local-object-share.js';
import { StoryboardHelperClient } from '../storyboards/storyboard-helper-client.js';
import { StoryboardsFeature } from '../storyboards/storyboards-feature.js';
import type { StudioFeatures } from '../studio/studio-features.js';
import { DebugStoryboards } from './debug-storyboards.js';

export interface DesktopStoryboards {
  /** The storyboards feature of the active profile while it is a live paired debug session. */
  readonly storyboards: DebugStoryboards<StoryboardsFeature>;
  /** Where sent films are served from (stopped with the core). */
  readonly share: LocalObjectShare;
}

/**
 * Storyboards on this machine (issue 29, "In debugging"): the same feature the platform's people
 * use, over the active debug profile's grant channel (relay or local peer), with the person's
 * sequences of this studio, and sent films served by the local share. A loopback address is given
 * only to a callee on this computer; a callee elsewhere gets the film only through the public
 * address `FRAMEWRIGHT_SHARE_ORIGIN` names — otherwise the send is refused before any grant.
 */
export function desktopStoryboards(d: {
  dataDir: string;
  pairing: Pick<DebugPairingFeature, 'session' | 'binding'>;
  tokenFor(profileId: string): Promise<string>;
  activeProfileId(): string;
  studio: Pick<StudioFeatures, 'sequences' | 'drafts' | 'staged' | 'backend'>;
  journal: Journal;
  secrets: Pick<SecretStore, 'get' | 'set' | 'delete'>;
  env?: NodeJS.ProcessEnv;
}): DesktopStoryboards {
  const share = new LocalObjectShare({
    root: path.join(d.dataDir, 'shared-objects'),
    secrets: d.secrets,
    subjectKey: shareSubjectKey(d.dataDir),
    ...(d.env ? { env: d.env } : {}),
  });
  const storyboards = new DebugStoryboards<StoryboardsFeature>({
    pairing: d.pairing,
    tokenFor: d.tokenFor,
    activeProfileId: d.activeProfileId,
    ...(d.env ? { env: d.env } : {}),
    build: (channel, { profileId, calleeOnThisComputer, calleeOrigin }) =>
      new StoryboardsFeature({
        client: new StoryboardHelperClient(channel),
        journal: d.journal,
        sequences: d.studio.sequences,
        drafts: d.studio.drafts,
        staged: d.studio.staged,
        videoServices: () => d.studio.backend.videoServices(profileId),
        profileId,
        storage: share,
        readUrlFor: filmAddresses(share, calleeOnThisComputer),
        subjectKey: profileId,
        workDir: path.join(d.dataDir, 'storyboards-work'),
        // the helper as this profile reaches it (a local peer, or the platform it paired with),
        // and the hosted helper's images at public addresses; never this computer's other ports
        // or its network
        panelImages: {
          helperOrigin: calleeOrigin,
          imagePathPrefix: '/',
          otherPublicOrigins: true,
          acceptsSentBoards: false,
        },
      }),
  });
  return { storyboards, share };
}

/**
 * The signer of sent films' addresses for a callee: a loopback address only to a callee on this
 * computer; elsewhere, the public address `FRAMEWRIGHT_SHARE_ORIGIN` names, else a refusal.
 */
export function filmAddresses(
  share: Pick<LocalObjectShare, 'readUrlFor'>,
  calleeOnThisComputer: boolean,
): (sha256: string, expiresAt: Date) => Promise<string> {
  return async (sha256, expiresAt) => {
    const url = await share.readUrlFor(sha256, expiresAt);
    if (!calleeOnThisComputer && isLoopbackAddress(url))
      throw new AppError(
        'storyboards.film_unreachable',
        `Storyboard Helper is not on this computer, and this computer's address for the film would not reach it: set ${SHARE_ORIGIN_ENV} to a public address of this computer's share, then send again. Nothing was sent.`,
      );
    return url;
  };
}
