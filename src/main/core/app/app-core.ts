import path from 'node:path';
import { APP_NAME, APP_VERSION } from '../../../shared/app-version.js';
import type { ConnectionState, ProfileSummary } from '../../../shared/bridge/contract.js';
import { createBridgeDispatcher, type BridgeDispatcher, type BridgeHandlers } from '../bridge/dispatcher.js';
import { EventHub } from '../bridge/event-hub.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { EmbeddedSimulator, type SimulatorLauncher } from '../profiles/embedded-simulator.js';
import { createFileSettingsStore } from '../settings/settings-store.js';

export const SIMULATOR_PROFILE_ID = 'simulator';

export interface AppCoreOptions {
  dataDir: string;
  /** Which transport the renderer uses; reported by `app.info`. */
  host: 'electron' | 'browser';
  launchSimulator: SimulatorLauncher;
  logger?: Logger;
}

export interface AppCore {
  readonly dispatcher: BridgeDispatcher;
  readonly events: EventHub;
  readonly logger: Logger;
  readonly dataDir: string;
  /** Stops background work and the embedded simulator. */
  close(): Promise<void>;
}

/**
 * The main-process core as one object: plain Node, shared by the Electron shell, the browser host
 * and the CLI. Transports only call `dispatcher.dispatch` and subscribe to `events`.
 */
export function createAppCore(options: AppCoreOptions): AppCore {
  const { dataDir } = options;
  const logger = options.logger ?? createLogger({ file: path.join(dataDir, 'logs', 'main.log') });
  const events = new EventHub();
  const settings = createFileSettingsStore(dataDir);
  const simulator = new EmbeddedSimulator(options.launchSimulator);

  let connection: ConnectionState = {
    profileId: SIMULATOR_PROFILE_ID,
    state: 'starting',
    checkedAt: new Date().toISOString(),
  };
  let simulatorBaseUrl: string | null = null;
  const setConnection = (next: Omit<ConnectionState, 'checkedAt'>) => {
    connection = { ...next, checkedAt: new Date().toISOString() };
    events.emit('connection.changed', connection);
    return connection;
  };

  /** Starts (if needed) the simulator and asks it for `/services`, as any profile test does. */
  const checkConnection = async (): Promise<ConnectionState> => {
    try {
      const running = await simulator.get();
      simulatorBaseUrl = running.baseUrl;
      const response = await fetch(`${running.baseUrl}/services`, {
        headers: { authorization: `Bearer ${running.token}` },
        signal: AbortSignal.timeout(5000),
      });
      if (!response.ok) {
        return setConnection({
          profileId: SIMULATOR_PROFILE_ID,
          state: 'error',
          detail: `The simulator answered /services with HTTP ${response.status}.`,
        });
      }
      return setConnection({ profileId: SIMULATOR_PROFILE_ID, state: 'connected' });
    } catch (error) {
      logger.error('simulator connection check failed', { error });
      return setConnection({
        profileId: SIMULATOR_PROFILE_ID,
        state: 'error',
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  };

  const profiles = (): ProfileSummary[] => [
    {
      id: SIMULATOR_PROFILE_ID,
      name: 'Local simulator',
      kind: 'simulator',
      baseUrl: simulatorBaseUrl,
      hasSecret: false,
    },
  ];

  const handlers: BridgeHandlers = {
    'app.info': () => ({
      name: APP_NAME,
      version: APP_VERSION,
      host: options.host,
      platform: process.platform,
      nodeVersion: process.versions.node,
      dataDir,
    }),
    'settings.get': () => settings.get(),
    'settings.update': (patch) => {
      const next = settings.update(patch);
      events.emit('settings.changed', next);
      return next;
    },
    'profiles.list': () => ({ activeProfileId: SIMULATOR_PROFILE_ID, profiles: profiles() }),
    'connection.get': () => connection,
    'connection.check': () => checkConnection(),
  };

  const dispatcher = createBridgeDispatcher(handlers, {
    onUnexpectedError: (method, error) => logger.error('bridge handler failed', { method, error }),
  });

  // The default profile connects in the background; the UI shows "starting" until it answers.
  void checkConnection();

  return {
    dispatcher,
    events,
    logger,
    dataDir,
    close: () => simulator.close(),
  };
}
