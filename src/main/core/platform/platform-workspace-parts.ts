import type { JobEventsTiming } from './person-job-events.js';
import type { SessionTable } from './person-sessions.js';
import type { EventHub } from '../events/event-hub.js';
import type { JobEventsState } from './job-events/job-events-consumer.js';
import type { StorageLimits, StorageUsageView } from '../storage/storage-usage.js';
import type { HousekeepingCounts } from '../storage/workspace-housekeeping.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import type { PersonTeam } from './person-team.js';
import type { JobEngineOptions } from '../jobs/job-engine.js';
import type { Logger } from '../logging/logger.js';
import type { RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import type { SessionServiceClient } from '../api-clients/runtime/session-service-client.js';
import type { RecoveryRefs } from '../secrets/recovery-refs.js';
import type { MediaResolver } from '../library/media-resolver.js';
import type { StagedFiles } from '../storage/staged-files.js';
import type { WorkspaceCore } from './platform-workspaces.js';
import type { StoryboardsFeature } from '../storyboards/storyboards-feature.js';
import type { StoryboardHelperPart } from './person-storyboards.js';
import type { ReadUrlKeyring } from '../storage/signed-read-url.js';
import type { MemberSharedReview, OrganizationMember } from './shared-collections.js';

/** What every workspace shares: the platform's clients, the session table and the backend's secrets. */
export interface PlatformBackendParts {
  runtime: RuntimeApiClient;
  /** `PLATFORM_APP_RUNTIME_BASE_URL` (the workspace's one profile names it). */
  runtimeBaseUrl: string;
  directory: Pick<SessionServiceClient, 'listGroups' | 'listMembers'>;
  sessions: SessionTable;
  recoveryRefs: RecoveryRefs;
  /** The key signing every readUrl of this backend (kept in its secret store). */
  signingKey: ReadUrlKeyring & { revokeSubject(subjectKey: string): Promise<void> };
  /** `FRAMEWRIGHT_PUBLIC_URL`'s origin. */
  publicOrigin: string;
  /** The projects of an organization's people (each person's live in their workspace of that organization). */
  organizationProjects: ConstructorParameters<typeof PersonTeam>[0]['organizationProjects'];
  /** The members of an organization whose workspaces are here, each with what they share (issue 41). */
  organizationMembers(organization: {
    tenantId: string;
    organizationId: string;
  }): Promise<readonly OrganizationMember[]>;
  logger: Logger;
  /** What one person may store here (default 20 GiB, 10 000 files). */
  storageLimits?: StorageLimits;
  /** Engine timing (tests). */
  engine?: Partial<Omit<JobEngineOptions, 'journal' | 'transportFor' | 'libraryDir' | 'onChange'>>;
  /** Events consumer timing (tests). */
  events?: JobEventsTiming;
  /** Storyboard Helper, when `FRAMEWRIGHT_STORYBOARD_HELPER_URL` is set (capability `storyboards`). */
  storyboardHelper?: StoryboardHelperPart;
}

export interface PlatformWorkspaceCore extends WorkspaceCore {
  readonly events: EventHub;
  readonly staged: StagedFiles;
  readonly media: MediaResolver;
  readonly storage: ObjectStorage;
  /** The person's storyboards (when Storyboard Helper is configured): boards other applications send land here too. */
  readonly storyboards: StoryboardsFeature | undefined;
  /** The collections this person shared with their projects, as their organization's managers read them. */
  readonly sharedReview: MemberSharedReview;
  /** A marked copy or review package this person exported, by its file name (undefined: none such). */
  exportedFile(name: string): string | undefined;
  /** Resumes the workspace's unfinished work (batch-get first, recovery references without a session). */
  resume(): Promise<void>;
  /** Starts the person's job events consumer (once; again after it stopped for want of a session). */
  startEvents(): void;
  readonly eventsState: JobEventsState;
  /** What the person stores here now, against their limits. */
  usage(): StorageUsageView;
  /** Staged and Playground files and objects nothing names any more are removed (see WorkspaceHousekeeping). */
  housekeeping(now?: number): Promise<HousekeepingCounts>;
  /** Whether work of the person runs here: unfinished jobs, an export, a call or an open event socket. */
  busy(): boolean;
  /** Whether the person has unfinished jobs here (the backend resumes only those at start). */
  hasUnfinishedWork(): boolean;
  /** Counts `work` as in use (an upload, a media read) while it runs. */
  inUse<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
