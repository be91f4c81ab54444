import path from 'node:path';
import { ServerSessions } from '../features/runtime-sessions/server-sessions.js';
import { loadSigningKey } from '../features/read-urls/signed-read-url.js';
import type { ObjectStorage } from '../features/read-urls/object-storage.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { RuntimeApiClient } from '../platform/runtime/runtime-api-client.js';
import { SessionServiceClient } from '../platform/runtime/session-service-client.js';
import { EncryptedFileSecretStore } from '../secrets/encrypted-file-secret-store.js';
import { RecoveryRefs } from '../secrets/recovery-refs.js';
import type { SecretStore } from '../secrets/secret-store.js';
import { DEFAULT_PLATFORM_LIMITS, type PlatformLimits, type PlatformSettings } from './platform-settings.js';
import {
  createPlatformWorkspaceCore,
  type PlatformBackendParts,
  type PlatformWorkspaceCore,
} from './platform-workspace-core.js';
import { PlatformWorkspaces } from './platform-workspaces.js';

export interface PlatformBackendOptions {
  dataDir: string;
  settings: PlatformSettings;
  logger?: Logger;
  /** A secret store chosen by the caller (tests); the encrypted file store by default. */
  secrets?: SecretStore;
  /** Engine and events timing (tests). */
  timing?: Pick<PlatformBackendParts, 'engine' | 'events'>;
  /** The clock of the idle close (tests). */
  now?: () => number;
}

/** The backend of Framewright deployed as a platform application, opened and ready for the host. */
export interface PlatformBackend {
  readonly sessions: ServerSessions;
  readonly workspaces: PlatformWorkspaces<PlatformWorkspaceCore>;
  readonly logger: Logger;
  /** The object storage of a subject's workspace (the `/objects/` route), or undefined. */
  storageFor(subjectKey: string): ObjectStorage | undefined;
  readonly signingKey: Buffer;
  /** The limits in force (settings over the defaults). */
  readonly limits: PlatformLimits;
  /**
   * Resumes every known person's unfinished work: each workspace with unfinished jobs has them read
   * with batch-get while its person has a session, else one by one with their recovery references,
   * and its person's job events consumer started. A person with nothing unfinished is not called
   * for (not even their session resolved); their events start on their next request.
   */
  resumeAll(): Promise<void>;
  /** One pass of the timer's housekeeping over the open workspaces (staging swept, objects collected). */
  housekeeping(now?: number): Promise<void>;
  /** Closes the workspaces idle longer than the limit (the timer's pass); returns how many. */
  closeIdleWorkspaces(): Promise<number>;
  close(): Promise<void>;
}

/**
 * The composition root of the platform backend: the platform's clients (runtime and session
 * service, as this application), the server-side session table, the backend's secret store (an
 * encrypted file under a key derived from the application credential: sessions, recovery
 * references and the readUrl signing key), and one workspace per person.
 */
export async function openPlatformBackend(options: PlatformBackendOptions): Promise<PlatformBackend> {
  const { dataDir, settings } = options;
  const limits: PlatformLimits = { ...DEFAULT_PLATFORM_LIMITS, ...settings.limits };
  const logger = options.logger ?? createLogger({ file: path.join(dataDir, 'logs', 'platform.log') });
  logger.addSecret(settings.appCredential);
  const secrets =
    options.secrets ??
    new EncryptedFileSecretStore(
      path.join(dataDir, 'secrets', 'platform-secrets.enc'),
      settings.appCredential,
    );
  const appCredential = async () => settings.appCredential;
  const runtime = new RuntimeApiClient({ runtimeBaseUrl: settings.runtimeBaseUrl, appCredential });
  const sessionService = new SessionServiceClient({
    sessionBaseUrl: settings.sessionBaseUrl,
    appKey: settings.appKey,
    appCredential,
  });
  const sessions = new ServerSessions({ service: sessionService, secrets });
  const signingKey = await loadSigningKey(secrets);
  const recoveryRefs = new RecoveryRefs(secrets);

  // the organization's projects read the workspaces, which are built with these parts
  const workspacesRef: { current?: PlatformWorkspaces<PlatformWorkspaceCore> } = {};
  const parts: PlatformBackendParts = {
    runtime,
    runtimeBaseUrl: settings.runtimeBaseUrl,
    directory: sessionService,
    sessions,
    recoveryRefs,
    signingKey,
    publicOrigin: new URL(settings.publicOrigin).origin,
    logger,
    ...options.timing,
    // the projects of an organization are filed in its people's workspaces
    storageLimits: { maxBytes: limits.storageBytes, maxFiles: limits.storageFiles },
    organizationProjects: async ({ tenantId, organizationId }) => {
      const out: { id: string; name: string }[] = [];
      const workspaces = workspacesRef.current!;
      for (const subject of workspaces.membersOf(tenantId, organizationId)) {
        const { journal } = workspaces.workspaceOf(subject);
        for (const project of journal.projects.list({ includeArchived: true }))
          out.push({ id: project.id, name: project.name });
      }
      return out;
    },
  };
  const workspaces = new PlatformWorkspaces<PlatformWorkspaceCore>({
    dataDir,
    openCore: (workspace) => createPlatformWorkspaceCore(workspace, parts),
    ...(options.now ? { now: options.now } : {}),
  });
  workspacesRef.current = workspaces;

  // housekeeping on timers that never keep the process alive and stop at close
  let running: Promise<unknown> = Promise.resolve();
  const housekeeping = async (now?: number) => {
    for (const workspace of workspaces.openWorkspaces())
      await workspace.core
        .housekeeping(now)
        .catch((error: unknown) => logger.warn('housekeeping failed', { error }));
  };
  const closeIdleWorkspaces = async () =>
    (await workspaces.closeIdle(limits.idleWorkspaceSeconds * 1000)).length;
  const every = (seconds: number, pass: () => Promise<unknown>) => {
    const timer = setInterval(() => {
      running = running.then(pass).catch((error: unknown) => logger.warn('housekeeping failed', { error }));
    }, seconds * 1000);
    timer.unref();
    return timer;
  };
  const timers = [
    every(limits.sweepIntervalSeconds, () => housekeeping()),
    // idle workspaces are looked for a few times within the idle time (at least once a minute)
    every(Math.min(60, Math.max(limits.idleWorkspaceSeconds / 4, 0.05)), closeIdleWorkspaces),
  ];

  return {
    sessions,
    workspaces,
    logger,
    signingKey,
    limits,
    storageFor(subjectKey) {
      return workspaces.workspaceByKey(subjectKey)?.core.storage;
    },
    async resumeAll() {
      for (const subject of workspaces.knownSubjects()) {
        const workspace = workspaces.workspaceOf(subject);
        // nothing unfinished: nothing to call the platform for (the idle close closes it again)
        if (!workspace.core.hasUnfinishedWork()) continue;
        if (await sessions.latestOf(workspace.subjectKey)) workspace.core.startEvents();
        // each person's jobs run on in the background, every workspace at once
        void workspace.core.resume().catch((error: unknown) => logger.error('resume failed', { error }));
      }
    },
    housekeeping,
    closeIdleWorkspaces,
    async close() {
      for (const timer of timers) clearInterval(timer);
      await running;
      await workspaces.close();
    },
  };
}
