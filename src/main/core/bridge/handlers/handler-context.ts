import type { z } from 'zod';
import type { ServiceCatalog } from '../../features/catalog/service-catalog.js';
import type { ConnectionMonitor } from '../../features/connection/connection-monitor.js';
import type { JobViews } from '../../studio/job-views.js';
import type { LibraryFeature } from '../../features/library/library-feature.js';
import type { MediaJobsFeature } from '../../features/media-jobs/media-jobs-feature.js';
import type { PlaygroundFeature } from '../../features/playground/playground-feature.js';
import type { ProfilesFeature } from '../../features/profiles/profiles-feature.js';
import type { DebugPairingFeature } from '../../features/debug-pairing/debug-pairing-feature.js';
import type { SettingsStore } from '../../features/settings/ui-settings.js';
import type { Logger } from '../../logging/logger.js';
import type { EventHub } from '../event-hub.js';
import type { StudioHost } from '../../studio/studio-host.js';

/** The features the app and playground handlers map onto (built by the composition root). */
export interface HandlerFeatures {
  readonly profiles: ProfilesFeature;
  readonly debugPairing: DebugPairingFeature;
  readonly connection: ConnectionMonitor;
  readonly catalog: ServiceCatalog;
  readonly library: LibraryFeature;
  readonly media: MediaJobsFeature;
  readonly playground: PlaygroundFeature;
  readonly jobs: JobViews;
  readonly settings: SettingsStore;
}

/** What every domain's handlers may use: the features, pushed events, the log, the data folder. */
export interface HandlerContext {
  readonly features: HandlerFeatures;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly dataDir: string;
  readonly host: StudioHost;
}

type MethodMap = Record<string, { params: z.ZodType; result: z.ZodType }>;

/** Handlers for one domain's methods, each receiving params already validated by the dispatcher. */
export type DomainHandlers<M extends MethodMap> = {
  [K in keyof M]: (
    params: z.output<M[K]['params']>,
  ) => Promise<z.output<M[K]['result']>> | z.output<M[K]['result']>;
};
