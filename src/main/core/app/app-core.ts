import path from 'node:path';
import { APP_NAME, APP_VERSION } from '../../../shared/app-version.js';
import { capabilitiesNow, DEBUG_SESSION_CAPABILITIES } from '../backends/capabilities.js';
import { publicApiBackend } from '../backends/public-api/public-api-backend.js';
import { createBridgeDispatcher, type BridgeDispatcher } from '../bridge/dispatcher.js';
import { EventHub } from '../events/event-hub.js';
import { createHandlerTable } from '../bridge/handlers/handler-table.js';
import { ConnectionMonitor } from '../discovery/connection-monitor.js';
import { StartupServiceList } from '../discovery/startup-service-list.js';
import { createFileSettingsStore } from '../settings/ui-settings.js';
import type { EngineChange } from '../jobs/job-engine.js';
import { createLogger, type Logger } from '../logging/logger.js';
import type { SimulatorLauncher } from '../profiles/embedded-simulator.js';
import type { SafeStorageLike } from '../secrets/safe-storage-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { createStudioFeatures, type StudioFeatures } from '../studio/studio-features.js';
import type { StudioHost } from '../library/studio-host.js';
import { composeFeatures } from './compose-core.js';
import { openCoreParts, type CoreParts, type CorePartsOptions } from './core-parts.js';
import { DebugTeam } from './debug-team.js';
import { desktopStoryboards } from './desktop-storyboards.js';

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
  const features = composeFeatures(services, {
    // discovery's answers are the connection's too: Create and the status bar tell one truth
    catalogClientFor: async (profileId) =>
      connection.observing(
        profileId,
        startupList.sharing(profileId, await services.profiles.clientFor(profileId)),
      ),
  });
  const studio = createStudioFeatures({
    dataDir,
    journal: services.journal,
    libraryDir: () => services.libraryDir,
    libraryDirs: () => services.libraryDirs(),
    setLibraryDir: (folder) => services.setLibraryDir(folder),
    engine: services.engine,
    backend: publicApiBackend({
      journal: services.journal,
      runner: { journal: services.journal, profiles: services.profiles, engine: services.engine },
      catalog: features.catalog,
      activeProfileId: () => services.profiles.activeId(),
      events,
      logger,
    }),
    events,
    logger,
    host: options.host,
  });
  forwardEngineChange = studio.forwardEngineChange;
  // Team needs a RuntimeSession: off the platform, a paired debug profile's session gives it (section D)
  const debugTeam = new DebugTeam(features.debugPairing, studio.projects, () => services.profiles.activeId());
  // … and Storyboard Helper through debug grants (issue 29), with films served by the local share
  const desktop = desktopStoryboards({
    dataDir,
    pairing: features.debugPairing,
    tokenFor: async (id) => (await services.profiles.identityFor(id)).secret(),
    activeProfileId: () => services.profiles.activeId(),
    studio,
    journal: services.journal,
    secrets: services.secrets,
  });
  const handlers = createHandlerTable({
    studio,
    events,
    logger,
    host: options.host,
    info: async () => ({
      name: APP_NAME,
      version: APP_VERSION,
      host: options.host.kind,
      os: process.platform,
      nodeVersion: process.versions.node,
      dataDir,
      capabilities: capabilitiesNow(studio.capabilities, await desktop.storyboards.available()),
    }),
    settings: createFileSettingsStore(dataDir),
    connection: { current: () => connection.current, check: () => connection.check() },
    profilesList: () => features.profiles.list(),
    profiles: features.profiles,
    debugPairing: features.debugPairing,
    simulator: services.simulator,
    team: { projects: studio.projects, team: undefined, teamFor: () => debugTeam.forActiveProfile() },
    storyboards: () => desktop.storyboards.forActiveProfile(),
    sharedLinks: { revoke: () => desktop.share.revokeAll() },
    sessionCapabilities: DEBUG_SESSION_CAPABILITIES,
  });
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
      features.debugPairing.cancelAll();
      return desktop.share.close().finally(() => services.close());
    },
  };
}
