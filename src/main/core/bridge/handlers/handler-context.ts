import type { z } from 'zod';
import type {
  AppInfo,
  appMethods,
  Capabilities,
  ConnectionState,
} from '../../../../shared/bridge/domains/app.js';
import type { reviewMethods } from '../../../../shared/bridge/domains/review.js';
import type { DebugPairingFeature } from '../../debug-pairing/debug-pairing-feature.js';
import type { ProfilesFeature } from '../../profiles/profiles-feature.js';
import type { SettingsStore } from '../../settings/ui-settings.js';
import type { Logger } from '../../logging/logger.js';
import type { EmbeddedSimulator } from '../../profiles/embedded-simulator.js';
import type { StudioFeatures } from '../../studio/studio-features.js';
import type { StoryboardsFeature } from '../../storyboards/storyboards-feature.js';
import type { StudioHost } from '../../library/studio-host.js';
import type { EventHub } from '../../events/event-hub.js';
import type { TeamHandlerFeatures } from './team-handlers.js';

type Answer<T> = T | Promise<T>;

/**
 * What a composition root gives the one handler table: the studio's features (over the backend it
 * chose) and the parts only it has. A part a root leaves out is a capability its backend declares
 * off: its methods are refused by `backends/capabilities.ts`, never by a handler.
 */
export interface HandlerContext {
  readonly studio: StudioFeatures;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly host: StudioHost;
  /** `app.info` as this root reports it (its backend's capabilities included). */
  info(): Answer<z.output<typeof AppInfo>>;
  /** The renderer's own settings (theme, language, layout). */
  readonly settings: SettingsStore;
  /** The backend's connection state: the last one known, and a fresh check. */
  readonly connection: {
    current(): Answer<z.output<typeof ConnectionState>>;
    check(): Promise<z.output<typeof ConnectionState>>;
  };
  /** The profiles listed in Settings (the backend's own one where there are no keys). */
  profilesList(): Answer<z.output<(typeof appMethods)['profiles.list']['result']>>;
  /** A person's own keys and profiles (capability `profiles`). */
  readonly profiles?: ProfilesFeature;
  /** "Pair for debugging" (capability `profiles`). */
  readonly debugPairing?: DebugPairingFeature;
  /** The local simulator's fault scenario (capability `profiles`; never started by a listing). */
  readonly simulator?: Pick<EmbeddedSimulator, 'get'>;
  /** Projects and the Team screen (Team needs a RuntimeSession: the platform's, or a paired debug one). */
  readonly team: TeamHandlerFeatures;
  /**
   * Storyboard Helper's boards in, films out (capability `storyboards`): the platform's, when
   * configured; on this machine, the active profile's while it is a live paired debug session
   * (undefined otherwise: refused per call by `backends/capabilities.ts`).
   */
  readonly storyboards?: () => Promise<StoryboardsFeature | undefined>;
  /**
   * Capabilities the root may gain for a session (`DEBUG_SESSION_CAPABILITIES`): their methods are
   * served, not refused up front, and refused per call while the session is absent.
   */
  readonly sessionCapabilities?: Partial<Capabilities>;
  /** The person's signed links (readUrls): every backend signs them, so every root can end them. */
  readonly sharedLinks: { revoke(): Promise<void> };
  /**
   * The collections an organization's members shared with their projects, read by its managers
   * (capability `sharedCollections`: the platform, where a team's people are).
   */
  readonly sharedCollections?: {
    list(): Promise<z.output<(typeof reviewMethods)['collections.shared.list']['result']>>;
    get(ref: string): Promise<z.output<(typeof reviewMethods)['collections.shared.get']['result']>>;
  };
  /** The platform-marked copy of a result (capability `markedExport`). */
  readonly exportResult?: (
    jobRowId: number,
    outputIndex: number | undefined,
  ) => Promise<{ fileName: string; byteSize: number; downloadPath: string }>;
}

type MethodMap = Record<string, { params: z.ZodType; result: z.ZodType }>;

/** Handlers for one domain's methods, each receiving params already validated by the dispatcher. */
export type DomainHandlers<M extends MethodMap> = {
  [K in keyof M]: (
    params: z.output<M[K]['params']>,
  ) => Promise<z.output<M[K]['result']>> | z.output<M[K]['result']>;
};
