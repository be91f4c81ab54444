import path from 'node:path';
import { LibraryFolders } from '../library/library-folders.js';
import { openJournal, type Journal } from '../journal/open-journal.js';
import { PRESENCE_DIR } from '../process/process-presence.js';
import { JobEngine, type EngineChange, type JobEngineOptions } from '../jobs/job-engine.js';
import { publicApiTransport } from '../jobs/public-api-transport.js';
import { EmbeddedSimulator, type SimulatorLauncher } from '../profiles/embedded-simulator.js';
import { ProfileDirectory } from '../profiles/profile-directory.js';
import { ProfileCredentials } from '../secrets/profile-credentials.js';
import type { SafeStorageLike } from '../secrets/safe-storage-secret-store.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { selectSecretStore } from '../secrets/select-secret-store.js';
import { resumeOptimizations } from '../backends/public-api/resume-optimizations.js';
import { checkMediaSettings } from '../media-tools/media-settings.js';

export interface CorePartsOptions {
  dataDir: string;
  launchSimulator: SimulatorLauncher;
  /** Where verified results go; `<dataDir>/library` by default. */
  libraryDir?: string;
  /** A store chosen by the caller (tests); otherwise the OS keychain is selected. */
  secretStore?: SecretStore;
  /** Electron's safeStorage, from the shell only. */
  safeStorage?: SafeStorageLike;
  env?: NodeJS.ProcessEnv;
  /** Engine timing and test seams. */
  engine?: Partial<Omit<JobEngineOptions, 'journal' | 'transportFor' | 'libraryDir' | 'onChange'>>;
  onEngineChange?: (change: EngineChange) => void;
  /** Told every key or token as it is read (the app's logger redacts them). */
  onSecretRead?: (secret: string) => void;
}

/**
 * The opened parts of the plain-Node core every host shares: journal, keychain, profiles, the job
 * engine. Only the composition root (this folder) holds them together: it builds the features
 * (`compose-core.ts`) with what each needs, and nothing below it receives this object.
 */
export interface CoreParts {
  readonly dataDir: string;
  /** The current library folder (the setting, else the default); read at download time. */
  readonly libraryDir: string;
  /** Every library folder results were ever stored in (current first): the media route serves them all. */
  libraryDirs(): string[];
  /** Makes `folder` the library for new downloads (already validated by the caller). */
  setLibraryDir(folder: string): void;
  readonly libraryFolders: LibraryFolders;
  readonly journal: Journal;
  readonly secrets: SecretStore;
  /** Why no better keychain was used (shown in Settings). */
  readonly secretStoreNotes: readonly string[];
  readonly credentials: ProfileCredentials;
  readonly simulator: EmbeddedSimulator;
  readonly profiles: ProfileDirectory;
  readonly engine: JobEngine;
  close(): Promise<void>;
}

export async function openCoreParts(options: CorePartsOptions): Promise<CoreParts> {
  // a media setting with a value it does not take stops the start (the desktop app says so), not a first film
  checkMediaSettings();
  const journal = openJournal({ path: path.join(options.dataDir, 'journal.sqlite') });
  let secrets = options.secretStore;
  let notes: readonly string[] = [];
  if (!secrets) {
    const selection = await selectSecretStore({ dataDir: options.dataDir, safeStorage: options.safeStorage });
    secrets = selection.store;
    notes = selection.refused;
  }
  // a new or removed key or token: the assets uploaded under the old one belong to that identity
  const credentials = new ProfileCredentials(journal.profiles, secrets, {
    onSecretChanged: (profileId) => journal.uploads.forgetProfile(profileId),
  });
  // one simulator per data folder: a second process (the CLI beside the app) uses the first's
  const simulator = new EmbeddedSimulator(options.launchSimulator, {
    lockFile: path.join(options.dataDir, 'simulator.lock'),
  });
  const profiles = new ProfileDirectory(journal, credentials, simulator, options.env, options.onSecretRead);
  const libraryFolders = new LibraryFolders(
    journal.settings,
    options.libraryDir ?? path.join(options.dataDir, 'library'),
  );
  const currentLibraryDir = () => libraryFolders.current();
  const engine = new JobEngine({
    journal,
    libraryDir: currentLibraryDir,
    transportFor: async (profileId) => publicApiTransport(await profiles.clientFor(profileId)),
    resumeOptimizations: (signal) =>
      resumeOptimizations(journal, {
        clientFor: (profileId) => profiles.clientFor(profileId),
        backoff: options.engine?.create?.backoff,
        signal,
      }),
    onChange: options.onEngineChange,
    ...options.engine,
    // leases of a dead process (however it died) are free at once: see process-presence.ts
    lease: { presenceDir: path.join(options.dataDir, PRESENCE_DIR), ...options.engine?.lease },
  });
  return {
    dataDir: options.dataDir,
    get libraryDir() {
      return currentLibraryDir();
    },
    libraryDirs: () => libraryFolders.all(),
    setLibraryDir: (folder: string) => libraryFolders.use(folder),
    libraryFolders,
    journal,
    secrets,
    secretStoreNotes: notes,
    credentials,
    simulator,
    profiles,
    engine,
    async close() {
      // runs end first (their state stays in the journal), then the simulator, then the journal
      await engine.stop();
      await simulator.close();
      journal.close();
    },
  };
}
