import path from 'node:path';
import type { SessionServiceClient } from '../api-clients/runtime/session-service-client.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';
import { ProductionGrantChannel } from '../inter-app/production-grant-channel.js';
import type { Journal } from '../journal/open-journal.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { StoryboardHelperClient } from '../storyboards/storyboard-helper-client.js';
import { STORYBOARD_HELPER } from '../storyboards/storyboard-schemas.js';
import { panelImagePathPrefix } from '../storyboards/panel-image.js';
import { StoryboardsFeature } from '../storyboards/storyboards-feature.js';
import type { StudioFeatures } from '../studio/studio-features.js';

/** Storyboard Helper as this deployment reaches it (`FRAMEWRIGHT_STORYBOARD_HELPER_URL`). */
export interface StoryboardHelperPart {
  businessBaseUrl: string;
  sessionService: Pick<SessionServiceClient, 'issueGrant'>;
}

/**
 * One person's storyboards on the platform: grants issued with the application credential for
 * the person's own RuntimeSession, business requests straight to Storyboard Helper, boards made
 * into the person's sequences, films stored in the person's storage and sent as signed readUrls.
 */
export function personStoryboards(d: {
  part: StoryboardHelperPart;
  session: () => Promise<{ sessionId: string }>;
  studio: Pick<StudioFeatures, 'sequences' | 'drafts' | 'staged' | 'backend'>;
  journal: Journal;
  storage: ObjectStorage;
  readUrlFor: (sha256: string, expiresAt: Date) => string;
  subjectKey: string;
  dir: string;
}): StoryboardsFeature {
  const channel = new ProductionGrantChannel({
    sessionService: d.part.sessionService,
    runtimeSessionId: async () => (await d.session()).sessionId,
    businessBaseUrl: d.part.businessBaseUrl,
    appLabel: STORYBOARD_HELPER.label,
  });
  return new StoryboardsFeature({
    client: new StoryboardHelperClient(channel),
    journal: d.journal,
    sequences: d.studio.sequences,
    drafts: d.studio.drafts,
    staged: d.studio.staged,
    videoServices: () => d.studio.backend.videoServices(RUNTIME_PROFILE_ID),
    profileId: RUNTIME_PROFILE_ID,
    storage: d.storage,
    readUrlFor: d.readUrlFor,
    subjectKey: d.subjectKey,
    // the configured helper only: a board never makes the backend fetch another address
    panelImages: {
      helperOrigin: new URL(d.part.businessBaseUrl).origin,
      imagePathPrefix: panelImagePathPrefix(d.part.businessBaseUrl),
      otherPublicOrigins: false,
      acceptsSentBoards: true,
    },
    workDir: path.join(d.dir, 'storyboards-work'),
  });
}
