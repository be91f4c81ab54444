import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ServerSessions } from './runtime-sessions/server-sessions.js';
import { ReadUrlKeys } from '../storage/read-url-keys.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { RuntimeApiClient } from '../api-clients/runtime/runtime-api-client.js';
import { AppError } from '../errors.js';
import type { StoryboardsFeature } from '../storyboards/storyboards-feature.js';
import { SessionServiceClient } from '../api-clients/runtime/session-service-client.js';
import { importLegacySecrets, readLegacySecretFile } from '../secrets/legacy-secret-file.js';
import { RecoveryRefs } from '../secrets/recovery-refs.js';
import { RowEncryptedSecretStore } from '../secrets/row-encrypted-secret-store.js';
import type { SecretNames, SecretStore } from '../secrets/secret-store.js';
import {
  APP_CREDENTIAL,
  DEFAULT_PLATFORM_LIMITS,
  PREVIOUS_APP_CREDENTIAL,
  type PlatformLimits,
  type PlatformSettings,
} from './platform-settings.js';
import { createPlatformWorkspaceCore } from './platform-workspace-core.js';
import { BackendMetrics } from './backend-metrics.js';
import type { JobView } from '../../../shared/bridge/domains/studio.js';
import type { PlatformBackendParts, PlatformWorkspaceCore } from './platform-workspace-parts.js';
import { PlatformWorkspaces } from './platform-workspaces.js';

export interface PlatformBackendOptions {
  dataDir: string;
  settings: PlatformSettings;
  logger?: Logger;
  /** A secret store chosen by the caller (tests); the row-encrypted store of the data folder by default. */
  secrets?: SecretStore & SecretNames;
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
  /** What an operator watches (Prometheus): recorded here and by the host. */
  readonly metrics: BackendMetrics;
  /** The object storage of a subject's workspace (the `/objects/` route), or undefined. */
  storageFor(subjectKey: string): ObjectStorage | undefined;
  /** The readUrl signing keys (rotated with overlap) and each person's revocation epoch. */
  readonly signingKey: ReadUrlKeys;
  /** The limits in force (settings over the defaults). */
  readonly limits: PlatformLimits;
  /** The reverse proxies whose `X-Forwarded-For` names the client (`FRAMEWRIGHT_TRUSTED_PROXIES`). */
  readonly trustedProxies: readonly string[];
  /**
   * Framewright as the callee of another application's `sequence.create` (a board sent to a
   * person's Sequences), offered when Storyboard Helper is configured; the host routes
   * `/inter-app/` to it.
   */
  readonly interApp:
    | {
        appKey: string;
        resolveGrant: SessionServiceClient['resolveGrant'];
        importBoard(
          workspace: { core: PlatformWorkspaceCore },
          board: Parameters<StoryboardsFeature['importSent']>[0],
        ): Promise<{ sequenceId: string }>;
      }
    | undefined;
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
  /**
   * Why the backend cannot take people now, or undefined when it can (`/readyz`): closed (its
   * journals and secret store), start-up resume not yet run, or the data folder not writable.
   */
  readiness(): Promise<string | undefined>;
  close(): Promise<void>;
}

/** Why the data folder cannot be written (a read-only or full volume), or undefined when it can. */
async function writableProblem(dataDir: string): Promise<string | undefined> {
  const probe = path.join(dataDir, `.readiness-${process.pid}`);
  try {
    await writeFile(probe, 'ready');
    await rm(probe, { force: true });
    return undefined;
  } catch (error) {
    return `the data folder is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
}

/** The backend's secret store: its rows, and its data key in a folder of its own. */
export const secretStoreFiles = (dataDir: string) => ({
  dbFile: path.join(dataDir, 'secrets', 'platform-secrets.sqlite'),
  keyFile: path.join(dataDir, 'keys', 'secret-store.key'),
});
/** The store of earlier versions (one file keyed by the application credential), imported once. */
export const legacySecretFile = (dataDir: string) => path.join(dataDir, 'secrets', 'platform-secrets.enc');

/**
 * Opens the backend's secret store, importing the earlier secret file first when there is one (with
 * the current credential, else the previous one). Throws a SecretStoreError naming what to do —
 * never a secret — when the file opens with neither, or the store's data key is missing.
 */
export async function openBackendSecretStore(
  dataDir: string,
  settings: Pick<PlatformSettings, 'appCredential' | 'previousAppCredential'>,
  logger?: Logger,
): Promise<RowEncryptedSecretStore> {
  // read before anything is created: a refusal leaves the data folder exactly as it was
  const legacy = await readLegacySecretFile(
    legacySecretFile(dataDir),
    [
      { setting: APP_CREDENTIAL.inline, credential: settings.appCredential },
      { setting: PREVIOUS_APP_CREDENTIAL.inline, credential: settings.previousAppCredential },
    ],
    PREVIOUS_APP_CREDENTIAL.inline,
  );
  const store = RowEncryptedSecretStore.open(secretStoreFiles(dataDir));
  if (legacy) {
    try {
      const imported = await importLegacySecrets(legacy, store);
      logger?.info('secret store: imported the earlier secret file', {
        imported,
        openedWith: legacy.openedWith,
      });
    } catch (error) {
      store.close();
      throw error;
    }
  }
  return store;
}

/**
 * The composition root of the platform backend: the platform's clients (runtime and session
 * service, as this application), the server-side session table, the backend's secret store (rows
 * encrypted under the backend's own data key: sessions, recovery references and the readUrl
 * signing key), and one workspace per person.
 */
export async function openPlatformBackend(options: PlatformBackendOptions): Promise<PlatformBackend> {
  const { dataDir, settings } = options;
  const limits: PlatformLimits = { ...DEFAULT_PLATFORM_LIMITS, ...settings.limits };
  const logger = options.logger ?? createLogger({ file: path.join(dataDir, 'logs', 'platform.log') });
  logger.addSecret(settings.appCredential);
  if (settings.previousAppCredential) logger.addSecret(settings.previousAppCredential);
  const ownStore = options.secrets ? undefined : await openBackendSecretStore(dataDir, settings, logger);
  const secrets = options.secrets ?? ownStore!;
  const appCredential = async () => settings.appCredential;
  // the gauges read the session table and the workspaces, made below, when scraped
  const metrics = new BackendMetrics({
    sessions: () => sessions.openCount,
    workspaces: () => workspaces.openWorkspaces().length,
  });
  const runtime = new RuntimeApiClient(
    { runtimeBaseUrl: settings.runtimeBaseUrl, appCredential },
    { observe: (operation, status) => metrics.runtimeCall(operation, status) },
  );
  const sessionService = new SessionServiceClient({
    sessionBaseUrl: settings.sessionBaseUrl,
    appKey: settings.appKey,
    appCredential,
  });
  const sessions = new ServerSessions({
    service: sessionService,
    secrets,
    // the operator's problem, never the person's: no session ends for it (the credential itself
    // is never logged; the logger also masks it)
    onCredentialRefused: (at, refusal) =>
      logger.error('the platform refused the application credential (check PLATFORM_APP_CREDENTIAL)', {
        call: at,
        status: refusal.status,
        code: refusal.code,
      }),
  });
  let signingKey: ReadUrlKeys;
  try {
    signingKey = await ReadUrlKeys.load(secrets, options.now);
    // sessions that ended while the backend was stopped go at once, the others as they end
    const swept = await sessions.sweep();
    if (swept > 0) logger.info('sessions swept at start', { swept });
  } catch (error) {
    ownStore?.close();
    throw error;
  }
  sessions.startSweeping((error) => logger.warn('session sweep failed', { error }));
  const recoveryRefs = new RecoveryRefs(secrets);

  // the organization's projects read the workspaces, which are built with these parts
  const workspacesRef: { current?: PlatformWorkspaces<PlatformWorkspaceCore> } = {};
  const parts: PlatformBackendParts = {
    runtime,
    runtimeBaseUrl: settings.runtimeBaseUrl,
    directory: sessionService,
    ...(settings.storyboardHelperUrl
      ? { storyboardHelper: { businessBaseUrl: settings.storyboardHelperUrl, sessionService } }
      : {}),
    sessions,
    recoveryRefs,
    signingKey,
    publicOrigin: new URL(settings.publicOrigin).origin,
    logger,
    ...options.timing,
    // the projects of an organization are filed in its people's workspaces
    storageLimits: { maxBytes: limits.storageBytes, maxFiles: limits.storageFiles },
    organizationMembers: async ({ tenantId, organizationId }) => {
      const workspaces = workspacesRef.current!;
      return workspaces.membersOf(tenantId, organizationId).map((subject) => {
        const workspace = workspaces.workspaceOf(subject);
        return {
          subjectKey: workspace.subjectKey,
          accountId: subject.accountId,
          review: workspace.core.sharedReview,
        };
      });
    },
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
    openCore: (workspace) => {
      const core = createPlatformWorkspaceCore(workspace, parts);
      // an observer, not a transport: it does not keep the workspace open (the idle close)
      core.events.observe((event, payload) => {
        if (event === 'jobs.changed') metrics.jobChanged(workspace.subjectKey, payload as JobView);
      });
      return core;
    },
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
    // a new readUrl signing key each week (the one it replaces verifies until its URLs expire)
    every(3600, () => signingKey.rotateIfDue()),
  ];

  let resumed = false;
  let closed = false;
  return {
    sessions,
    workspaces,
    logger,
    metrics,
    signingKey,
    limits,
    trustedProxies: settings.trustedProxies ?? [],
    interApp: settings.storyboardHelperUrl
      ? {
          appKey: settings.appKey,
          resolveGrant: (use) => sessionService.resolveGrant(use),
          importBoard: async ({ core }, board) => {
            if (!core.storyboards)
              throw new AppError(
                'inter_app.not_found',
                'Storyboards are not offered here: nothing was created.',
              );
            return { sequenceId: (await core.storyboards.importSent(board)).sequence.sequenceId };
          },
        }
      : undefined,
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
      resumed = true;
    },
    async readiness() {
      if (closed) return 'the backend is closed';
      if (!resumed) return 'start-up resume has not run';
      return writableProblem(dataDir);
    },
    housekeeping,
    closeIdleWorkspaces,
    async close() {
      closed = true;
      sessions.close();
      for (const timer of timers) clearInterval(timer);
      await running;
      await workspaces.close();
      ownStore?.close();
    },
  };
}
