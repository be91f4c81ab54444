import { DebugTeam } from './debug-team.js';
import { createDebugPairingHandlers } from '../bridge/handlers/debug-pairing-handlers.js';
import path from 'node:path';
import { createBridgeDispatcher, type BridgeDispatcher, type BridgeHandlers } from '../bridge/dispatcher.js';
import { EventHub } from '../bridge/event-hub.js';
import { createAppHandlers } from '../bridge/handlers/app-handlers.js';
import type { HandlerContext } from '../bridge/handlers/handler-context.js';
import { createPlaygroundHandlers } from '../bridge/handlers/playground-handlers.js';
import { PUBLIC_API_CAPABILITIES, withRefusals } from './capabilities.js';
import { createStudioHandlers } from '../bridge/handlers/studio-handlers.js';
import { createTeamHandlers } from '../bridge/handlers/team-handlers.js';
import { createSequencesHandlers } from '../bridge/handlers/sequences-handlers.js';
import { ProjectsFeature } from '../features/projects/projects-feature.js';
import type { EngineChange } from '../jobs/job-engine.js';
import { createLogger, type Logger } from '../logging/logger.js';
import type { SimulatorLauncher } from '../profiles/embedded-simulator.js';
import type { SafeStorageLike } from '../secrets/safe-storage-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { ConnectionMonitor } from '../features/connection/connection-monitor.js';
import { StartupServiceList } from '../features/connection/startup-service-list.js';
import { createFileSettingsStore } from '../features/settings/ui-settings.js';
import { composeFeatures } from './compose-core.js';
import { createStudioFeatures, type StudioFeatures } from '../studio/studio-features.js';
import { openCoreParts, type CoreParts, type CorePartsOptions } from './core-parts.js';
import type { StudioHost } from '../studio/studio-host.js';

export interface AppCoreOptions {
  dataDir: string;
  /** Which transport the renderer uses; reported by `app.info`. */
  host: StudioHost;
  launchSimulator: SimulatorLauncher;
  logger?: Logger;
  safeStorage?: SafeStorageLike;
  secretStore?: SecretStore;
  engine?: CorePartsOptions['engine'];
  /** Finish unfinished work at start (default true). */
  resumeOnStart?: boolean;
}

export interface AppCore {
  readonly dispatcher: BridgeDispatcher;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly dataDir: string;
  readonly services: CoreParts;
  /** The studio's features; the hosts use its file staging and library-only media resolver. */
  readonly studio: StudioFeatures;
  /** Stops background work, the embedded simulator and the journal. */
  close(): Promise<void>;
}

/**
 * The main-process core as one object: plain Node, shared by the Electron shell and the browser
 * host. Transports only call `dispatcher.dispatch` and subscribe to `events`. This is the
 * composition root: it opens the parts, builds the features and hands each handler its features.
 */
export async function createAppCore(options: AppCoreOptions): Promise<AppCore> {
  const { dataDir } = options;
  const logger = options.logger ?? createLogger({ file: path.join(dataDir, 'logs', 'main.log') });
  const events = new EventHub();
  let forwardEngineChange: (change: EngineChange) => void = () => undefined;
  const services = await openCoreParts({
    dataDir,
    launchSimulator: options.launchSimulator,
    safeStorage: options.safeStorage,
    secretStore: options.secretStore,
    engine: options.engine,
    onSecretRead: (secret) => logger.addSecret(secret),
    onEngineChange: (change) => forwardEngineChange(change),
  });
  // the start-up check's service list answers the first screen's (no second request while starting)
  const startupList = new StartupServiceList();
  const connection = new ConnectionMonitor({
    activeProfileId: () => services.profiles.activeId(),
    clientFor: (profileId) => startupList.recording(profileId, services.profiles.clientFor(profileId)),
    onChange: (state) => events.emit('connection.changed', state),
    warn: (message, fields) => logger.warn(message, fields),
  });
  const ctx: HandlerContext = {
    features: {
      ...composeFeatures(services, {
        // discovery's answers are the connection's too: Create and the status bar tell one truth
        catalogClientFor: async (profileId) =>
          connection.observing(
            profileId,
            startupList.sharing(profileId, await services.profiles.clientFor(profileId)),
          ),
      }),
      connection,
      settings: createFileSettingsStore(dataDir),
    },
    events,
    logger,
    dataDir,
    host: options.host,
  };
  const studio = createStudioFeatures({
    dataDir,
    journal: services.journal,
    clientFor: (profileId) => services.profiles.clientFor(profileId),
    catalog: ctx.features.catalog,
    activeProfileId: () => services.profiles.activeId(),
    libraryDir: () => services.libraryDir,
    libraryDirs: () => services.libraryDirs(),
    setLibraryDir: (folder) => services.setLibraryDir(folder),
    engine: services.engine,
    runner: { journal: services.journal, profiles: services.profiles, engine: services.engine },
    events,
    logger,
    host: options.host,
  });
  forwardEngineChange = studio.forwardEngineChange;
  const projects = new ProjectsFeature(services.journal);
  const debugTeam = new DebugTeam(ctx.features.debugPairing, projects, () => services.profiles.activeId());
  const served: Partial<BridgeHandlers> = {
    ...createAppHandlers(ctx),
    ...createStudioHandlers(ctx, studio, services.simulator),
    ...createPlaygroundHandlers(ctx, studio.staged),
    ...createSequencesHandlers(studio.sequences),
    ...createDebugPairingHandlers(ctx),
    // Team needs a RuntimeSession: the platform host gives each subject's core its TeamFeature
    // … and, off the platform, a paired debug profile's session gives Team in debugging (section D)
    ...createTeamHandlers({
      projects,
      team: undefined,
      teamFor: () => debugTeam.forActiveProfile(),
    }),
  };
  // what the public API does not offer (the platform-marked copy) is refused by its capabilities
  const handlers = withRefusals(served, PUBLIC_API_CAPABILITIES);
  const dispatcher = createBridgeDispatcher(handlers, {
    onUnexpectedError: (method, error) => logger.error('bridge handler failed', { method, error }),
  });

  // The active profile connects in the background; the UI shows "starting" until it answers.
  void connection.check();
  if (options.resumeOnStart !== false) {
    void services.engine.resume().then(
      ({ errors, optimizations }) => {
        for (const { key, error } of errors)
          logger.warn('resume: work left unfinished', { key, error: error.message });
        for (const o of optimizations)
          logger.info('resume: prompt optimization replayed', { key: o.clientRequestId, state: o.state });
      },
      (error: unknown) => logger.error('resume failed', { error }),
    );
  }

  return {
    dispatcher,
    events,
    logger,
    dataDir,
    services,
    studio,
    close: () => {
      // a pairing in progress listens on a loopback port: it ends with the core
      ctx.features.debugPairing.cancelAll();
      return services.close();
    },
  };
}
