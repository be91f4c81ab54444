import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { BROWSER_HOST } from '../studio/studio-host.js';
import { PLATFORM_CAPABILITIES, withRefusals } from './capabilities.js';
import { PRESENCE_DIR } from './process-presence.js';
import { Readable } from 'node:stream';
import { APP_NAME, APP_VERSION } from '../../../shared/app-version.js';
import { PLATFORM_SESSION_OVER_CODE } from '../../../shared/bridge/platform-host-protocol.js';
import { emptyDraftForm } from '../../../shared/bridge/draft-form.js';
import { createBridgeDispatcher, type BridgeDispatcher, type BridgeHandlers } from '../bridge/dispatcher.js';
import { EventHub } from '../bridge/event-hub.js';
import {
  GENERATION_WAIT_SECONDS,
  generationResultOf,
  playgroundServiceView,
  putPlaygroundChunk,
} from '../bridge/handlers/playground-handlers.js';
import { createTeamHandlers } from '../bridge/handlers/team-handlers.js';
import { audioJob } from '../operations/audio-generation.js';
import { imageJob } from '../operations/image-generation.js';
import { chooseService, SERVICE_KINDS } from '../operations/service-common.js';
import { AppError } from '../errors.js';
import { MarkedExports } from '../features/exports/marked-export.js';
import { runtimeExportCalls } from '../features/exports/runtime-export-calls.js';
import { JobEventsConsumer, type JobEventsState } from '../features/job-events/job-events-consumer.js';
import { JobWakeups } from '../features/job-events/job-wakeups.js';
import { ProjectsFeature } from '../features/projects/projects-feature.js';
import { collectObjects, namedObjects, OBJECT_GRACE_MS } from '../features/limits/object-collector.js';
import {
  DEFAULT_STORAGE_LIMITS,
  StorageUsage,
  type StorageLimits,
  type StorageUsageView,
} from '../features/limits/storage-usage.js';
import { ObjectStorage } from '../features/read-urls/object-storage.js';
import { signReadUrl } from '../features/read-urls/signed-read-url.js';
import {
  requestSessionId,
  type ActiveSession,
  type SessionOver,
} from '../features/runtime-sessions/server-sessions.js';
import { createFileSettingsStore } from '../features/settings/ui-settings.js';
import { DisplayNames } from '../features/team/display-names.js';
import { TeamFeature, type OrganizationProjects } from '../features/team/team-feature.js';
import { JobEngine, type JobEngineOptions } from '../jobs/job-engine.js';
import { isTerminalStatus } from '../journal/jobs-repository.js';
import { runtimeTransport } from '../jobs/runtime-transport.js';
import type { Logger } from '../logging/logger.js';
import { ApiError } from '../platform/api-errors.js';
import type { RuntimeApiClient } from '../platform/runtime/runtime-api-client.js';
import { sessionAuth } from '../platform/runtime/runtime-auth.js';
import type { SessionServiceClient } from '../platform/runtime/session-service-client.js';
import type { RecoveryRefs } from '../secrets/recovery-refs.js';
import { localDraftOf } from '../studio/draft-inputs.js';
import { StudioDrafts } from '../studio/drafts.js';
import { engineChangeForwarder } from '../studio/events.js';
import { JobViews } from '../studio/job-views.js';
import { StudioLibrary } from '../studio/library.js';
import { MediaResolver } from '../studio/media-resolver.js';
import { RUNTIME_PROFILE_ID, RuntimeCreate } from '../studio/runtime-create.js';
import { forwardJobView } from '../studio/events.js';
import { StagedFiles } from '../studio/staged-files.js';
import { StudioSettings } from '../studio/studio-settings.js';
import { StudioSubmit } from '../studio/submit.js';
import { StudioVariations } from '../studio/variations.js';
import type { WorkspaceBase, WorkspaceCore } from './platform-workspaces.js';
import { forgetFinishedRecoveryRefs, forgetRecoveryRefsOnFinish } from './recovery-ref-cleanup.js';

/** What every workspace shares: the platform's clients, the session table and the backend's secrets. */
export interface PlatformBackendParts {
  runtime: RuntimeApiClient;
  /** `PLATFORM_APP_RUNTIME_BASE_URL` (the workspace's one profile names it). */
  runtimeBaseUrl: string;
  directory: Pick<SessionServiceClient, 'listGroups' | 'listMembers'>;
  sessions: {
    /** The session behind a cookie id (the request's own). */
    current(id: string | undefined): Promise<ActiveSession | SessionOver>;
    latestOf(subjectKey: string): Promise<ActiveSession | undefined>;
    endedByService(id: string): Promise<unknown>;
  };
  recoveryRefs: RecoveryRefs;
  /** The key signing every readUrl of this backend (kept in its secret store). */
  signingKey: Buffer;
  /** `FRAMEWRIGHT_PUBLIC_URL`'s origin. */
  publicOrigin: string;
  /** The projects of an organization's people (each person's live in their workspace of that organization). */
  organizationProjects(organization: {
    tenantId: string;
    organizationId: string;
  }): Promise<readonly { id: string; name: string }[]>;
  logger: Logger;
  /** What one person may store here (default 20 GiB, 10 000 files). */
  storageLimits?: StorageLimits;
  /** Engine timing (tests). */
  engine?: Partial<Omit<JobEngineOptions, 'journal' | 'transportFor' | 'libraryDir' | 'onChange'>>;
  /** Events consumer timing (tests). */
  events?: { reconnectBackoff?: JobEventsConsumerTiming; pollBackoff?: JobEventsConsumerTiming };
}
type JobEventsConsumerTiming = ConstructorParameters<typeof JobEventsConsumer>[0]['pollBackoff'];

export interface PlatformWorkspaceCore extends WorkspaceCore {
  readonly events: EventHub;
  readonly staged: StagedFiles;
  readonly media: MediaResolver;
  readonly storage: ObjectStorage;
  /** A marked copy this person exported, by its file name (undefined: none such). */
  exportedFile(name: string): string | undefined;
  /** Resumes the workspace's unfinished work (batch-get first, recovery references without a session). */
  resume(): Promise<void>;
  /** Starts the person's job events consumer (once; again after it stopped for want of a session). */
  startEvents(): void;
  readonly eventsState: JobEventsState;
  /** What the person stores here now, against their limits. */
  usage(): StorageUsageView;
  /**
   * The workspace's housekeeping: staged files no draft names and Playground files older than a
   * day are removed, then objects no draft, job or export names older than the grace period.
   */
  housekeeping(now?: number): Promise<{ staged: number; playground: number; objects: number }>;
  /** Whether work of the person runs here: unfinished jobs, an export, a call or an open event socket. */
  busy(): boolean;
  /** Whether the person has unfinished jobs here (the backend resumes only those at start). */
  hasUnfinishedWork(): boolean;
  /** Counts `work` as in use (an upload, a media read) while it runs. */
  inUse<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

const notHere = (what: string) => () => {
  throw new AppError('platform.not_here', `${what} is not part of Framewright on the platform.`);
};

const EXPORT_NAME = /^[0-9a-f]{64}\.(png|jpg|webp|mp4)$/;
/** A staged file's id (as a draft's form names it). */
const STAGED_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'video/mp4': 'mp4',
};

/**
 * One person's studio on the platform backend: the composition root of a workspace. Their journal,
 * a job engine whose transport is the deployed runtime (as the request's own session while a
 * request is answered, the latest session for background work, or each job's recovery reference
 * when they have none), Create through signed readUrls and the dry-run, the
 * queue and library views, marked exports, projects and (for managers) Team, and their job events
 * consumer. Nothing here takes an identity from the browser: the workspace is the cookie's.
 */
export function createPlatformWorkspaceCore(
  workspace: WorkspaceBase,
  parts: PlatformBackendParts,
): PlatformWorkspaceCore {
  const { journal, dir, subjectKey } = workspace;
  const { runtime, logger } = parts;
  const events = new EventHub();
  const libraryDir = path.join(dir, 'library');
  const exportsDir = path.join(dir, 'exports');
  if (!journal.profiles.get(RUNTIME_PROFILE_ID))
    journal.profiles.create({
      id: RUNTIME_PROFILE_ID,
      name: 'Platform runtime',
      kind: 'personal',
      baseUrl: parts.runtimeBaseUrl,
    });

  /** After a runtime 401 the session is over: reads go on with recovery references, the page reopens. */
  let refusedSessionId: string | undefined;
  /**
   * The session to act with: while a request is answered, its own cookie's session (another
   * browser's sign-out or another organization's session changes nothing for it); for the
   * backend's own work (resume, events, polling on after the answer), the person's latest.
   */
  const latest = async (): Promise<ActiveSession | undefined> => {
    const ownId = requestSessionId();
    const found = ownId ? await parts.sessions.current(ownId) : await parts.sessions.latestOf(subjectKey);
    return found?.status === 'active' && found.sessionId !== refusedSessionId ? found : undefined;
  };
  const sessionSource = {
    current: async () => {
      const session = await latest();
      return session ? { sessionId: session.sessionId } : null;
    },
  };
  const endSession = async (session: ActiveSession) => {
    refusedSessionId = session.sessionId;
    await parts.sessions.endedByService(session.id).catch(() => undefined);
  };
  const requireSession = async (): Promise<ActiveSession> => {
    const session = await latest();
    if (!session) throw sessionOver();
    return session;
  };

  // a recovery reference is forgotten once its job is finished with (outputs stored, or none to read)
  const forgetOnFinish = forgetRecoveryRefsOnFinish(parts.recoveryRefs, RUNTIME_PROFILE_ID, (error) =>
    logger.warn('recovery reference not forgotten', { error }),
  );
  const wakeups = new JobWakeups();
  let forward: (change: Parameters<NonNullable<JobEngineOptions['onChange']>>[0]) => void = () => undefined;
  const transport = runtimeTransport({
    client: runtime,
    sessions: sessionSource,
    recoveryRefs: parts.recoveryRefs,
  });
  const engine = new JobEngine({
    journal,
    libraryDir,
    transportFor: async (profileId) => {
      if (profileId !== RUNTIME_PROFILE_ID)
        throw new AppError('platform.not_here', 'Only the platform runtime runs jobs here.');
      return transport;
    },
    pollWake: wakeups,
    onChange: (change) => {
      forward(change);
      forgetOnFinish(change);
    },
    ...parts.engine,
    lease: { presenceDir: path.join(dir, PRESENCE_DIR), ...parts.engine?.lease },
  });

  // what the person stores here, counted once from the folders, then by every write and removal
  const usage = new StorageUsage(parts.storageLimits ?? DEFAULT_STORAGE_LIMITS, [
    path.join(dir, 'staging'),
    path.join(dir, 'objects'),
    exportsDir,
  ]);
  const staged = new StagedFiles(dir, journal, undefined, usage);
  const media = new MediaResolver({ journal, libraryDirs: () => [libraryDir], staged });
  const storage = new ObjectStorage(path.join(dir, 'objects'), undefined, usage);
  const drafts = new StudioDrafts({ drafts: journal.drafts, jobs: journal.jobs });
  const projects = new ProjectsFeature(journal);
  const settings = new StudioSettings({
    settings: journal.settings,
    libraryDir: () => libraryDir,
    setLibraryDir: notHere('Choosing a library folder'),
    host: BROWSER_HOST,
  });
  const views = new JobViews({
    jobs: journal.jobs,
    outputs: journal.outputs,
    optimizations: journal.optimizations,
    variations: journal.variations,
    drafts,
    staged,
    host: BROWSER_HOST,
  });
  const library = new StudioLibrary({
    jobs: journal.jobs,
    views,
    libraryDirs: () => [libraryDir],
    host: BROWSER_HOST,
  });
  forward = engineChangeForwarder({ events, views, logger });
  const create = new RuntimeCreate({
    client: runtime,
    session: sessionSource.current,
    jobs: journal.jobs,
    drafts,
    staged,
    readUrls: { storage, signingKey: parts.signingKey, publicOrigin: parts.publicOrigin, subjectKey },
    projects,
    engine,
  });
  const submit = new StudioSubmit({
    createJob: (submission) => create.create(submission),
    jobs: journal.jobs,
    drafts,
    // references are stored, not uploaded: no upload progress to report
    inputs: { localDraft: (form) => localDraftOf(staged, form), emitUpload: () => undefined },
    waitSeconds: () => settings.waitSeconds(),
    logger,
    projects,
  });
  const variations = new StudioVariations({
    submit,
    drafts,
    inputs: { localDraft: (form) => localDraftOf(staged, form) },
    variations: journal.variations,
    onGrouped: (jobRowId) => forwardJobView(events, views, logger, jobRowId),
  });

  const marked = new MarkedExports({
    calls: runtimeExportCalls(runtime, async () => (await requireSession()).sessionId),
    urls: {
      // signed to the expiry the export picks: the same press signs the same URL (the same body)
      readUrlFor: (sha256, expiresAt) =>
        signReadUrl(parts.signingKey, { publicOrigin: parts.publicOrigin, subjectKey, sha256, expiresAt }),
    },
  });
  const exporting = new Map<string, Promise<{ fileName: string; byteSize: number; downloadPath: string }>>();
  const exportResult = (jobRowId: number, outputIndex = 0) => {
    const job = journal.jobs.getJob(jobRowId);
    const output = job?.outputs.filter((o) => o.downloadState === 'verified')[outputIndex];
    if (!job || !output?.localPath || !output.sha256 || !output.mimeType || output.byteSize === undefined)
      throw new AppError('export.invalid_source', 'That result is not in your library.');
    const extension = EXTENSIONS[output.mimeType];
    if (!extension)
      throw new AppError(
        'export.invalid_source',
        `Only PNG, JPEG, WebP and MP4 results can be exported as a marked copy, not ${output.mimeType}.`,
      );
    const { localPath, sha256, mimeType, byteSize } = output;
    let running = exporting.get(sha256);
    if (!running) {
      running = (async () => {
        // the platform reads the source through a signed URL of this person's storage
        await storage.putFile(localPath);
        await mkdir(exportsDir, { recursive: true, mode: 0o700 });
        const fileName = `${sha256}.${extension}`;
        const destination = path.join(exportsDir, fileName);
        // the marked copy counts in the person's quota: the source's size until its own is known
        const previous = await stat(destination).catch(() => undefined);
        usage.admit(byteSize, previous ? 0 : 1);
        let result;
        try {
          result = await marked.exportTo(
            { sha256, mimeType, byteSize, filename: path.basename(localPath) },
            destination,
          );
        } catch (error) {
          usage.release(byteSize, previous ? 0 : 1);
          throw error;
        }
        usage.release(byteSize + (previous?.size ?? 0), 0);
        usage.record(result.byteSize, 0);
        return { fileName, byteSize: result.byteSize, downloadPath: `/exports/${fileName}` };
      })().finally(() => exporting.delete(sha256));
      exporting.set(sha256, running);
    }
    return running;
  };

  const teams = new Map<string, TeamFeature>();
  // the status bar's name for the person: the directory's, when their session may read it
  const displayNames = new DisplayNames();
  const teamOf = async (): Promise<TeamFeature | undefined> => {
    const session = await requireSession();
    const organizationId = session.subject.organizationId;
    if (!organizationId) return undefined;
    let team = teams.get(session.sessionId);
    if (!team) {
      const { tenantId } = session.subject;
      const orgProjects: OrganizationProjects = {
        list: () => parts.organizationProjects({ tenantId, organizationId }),
      };
      team = new TeamFeature({
        subject: { organizationId },
        directory: {
          listGroups: () => parts.directory.listGroups(session.sessionId),
          listMembers: (query) => parts.directory.listMembers(session.sessionId, query),
        },
        usage: { aggregateUsage: (body) => runtime.aggregateUsage(sessionAuth(session.sessionId), body) },
        projects: orgProjects,
      });
      teams.clear(); // one session at a time: a renewed one is a new snapshot
      teams.set(session.sessionId, team);
    }
    return team;
  };
  const teamHandlers = (team: TeamFeature | undefined) => createTeamHandlers({ projects, team });

  const uiSettings = createFileSettingsStore(dir);
  let connection = {
    profileId: RUNTIME_PROFILE_ID,
    state: 'starting' as 'starting' | 'connected' | 'offline' | 'error',
    checkedAt: new Date().toISOString(),
  } as {
    profileId: string;
    state: 'starting' | 'connected' | 'offline' | 'error';
    detail?: string;
    checkedAt: string;
  };
  const checkConnection = async () => {
    try {
      await create.services('video_generation');
      connection = { profileId: RUNTIME_PROFILE_ID, state: 'connected', checkedAt: new Date().toISOString() };
    } catch (error) {
      connection = {
        profileId: RUNTIME_PROFILE_ID,
        state: error instanceof ApiError ? 'error' : 'offline',
        detail: (error as Error).message,
        checkedAt: new Date().toISOString(),
      };
    }
    events.emit('connection.changed', connection);
    return connection;
  };

  // the first screen shows the platform's state: checked on the person's first ask, never when
  // the workspace opens (the backend opens workspaces on its own: resume, Team, the /objects/ route)
  let firstCheck: Promise<typeof connection> | undefined;
  const connectionNow = () => (firstCheck ??= checkConnection());

  // what the platform does not offer is refused in one place, from its declared capabilities
  const served = {
    'app.info': async () => {
      const session = await requireSession();
      const displayName = await displayNames.nameOf(session, {
        listMembers: (query) => parts.directory.listMembers(session.sessionId, query),
      });
      return {
        name: APP_NAME,
        version: APP_VERSION,
        host: 'platform' as const,
        os: process.platform,
        nodeVersion: process.versions.node,
        dataDir: '',
        capabilities: PLATFORM_CAPABILITIES,
        signedIn: {
          userId: session.subject.userId,
          displayName,
          organizationId: session.subject.organizationId ?? null,
          appRoles: [...session.appRoles],
        },
      };
    },
    'settings.get': () => uiSettings.get(),
    'settings.update': (patch) => {
      const next = uiSettings.update(patch);
      events.emit('settings.changed', next);
      return next;
    },
    'profiles.list': () => ({
      activeProfileId: RUNTIME_PROFILE_ID,
      profiles: [
        {
          id: RUNTIME_PROFILE_ID,
          name: 'Platform',
          kind: 'personal' as const,
          baseUrl: null,
          hasSecret: true,
        },
      ],
    }),
    'connection.get': () => connectionNow(),
    'connection.check': () => {
      firstCheck ??= checkConnection();
      return checkConnection();
    },
    'services.list': ({ serviceKind }) => create.services(serviceKind),
    'simulator.getScenario': () => ({ scenario: null }),
    'files.get': ({ fileId }) => staged.get(fileId),
    'drafts.create': ({ form, fromJobRowId }) =>
      fromJobRowId !== undefined
        ? drafts.copyJob(fromJobRowId, {
            ...(form ?? emptyDraftForm(RUNTIME_PROFILE_ID)),
            profileId: RUNTIME_PROFILE_ID,
          })
        : drafts.createDraft({
            ...(form ?? emptyDraftForm(RUNTIME_PROFILE_ID)),
            profileId: RUNTIME_PROFILE_ID,
          }),
    'drafts.get': ({ draftId }) => drafts.draft(draftId),
    'drafts.save': ({ draftId, form }) =>
      drafts.saveDraft(draftId, { ...form, profileId: RUNTIME_PROFILE_ID }),
    'drafts.list': () => drafts.listDrafts(),
    'video.admission': ({ draftId }) => create.admission(draftId),
    'video.submit': ({ draftId }) => submit.submit(draftId),
    'video.variations': ({ draftId, count }) => variations.generate(draftId, count),
    'jobs.list': (query) => views.listJobs(query),
    'jobs.get': ({ jobRowId }) => views.jobDetail(jobRowId),
    'library.list': (filter) => library.list(filter),
    'library.delete': ({ jobRowId }) => library.deleteResult(jobRowId),
    'library.export': ({ jobRowId, outputIndex }) => exportResult(jobRowId, outputIndex),
    'studio.settings.get': () => ({ ...settings.get(), libraryDir: '' }),
    'studio.settings.update': async ({ waitSeconds, libraryDir: folder }) => {
      if (folder !== undefined) notHere('Choosing a library folder')();
      if (waitSeconds !== undefined) settings.setWaitSeconds(waitSeconds);
      return { ...settings.get(), libraryDir: '' };
    },
    // on the platform the Playground generates images and audio through the runtime; nothing else
    'playground.services': async () => (await create.mediaServices()).map(playgroundServiceView),
    'playground.files.put': putPlaygroundChunk(staged),
    // the runtime lists no voice catalogue: speech uses the service's own voices by name
    'playground.voices': () => [],
    'playground.voices.preview': notHere('Voice previews'),
    'playground.audio.generate': async ({ model, videoFileId, ...draft }) => {
      const service = chooseService(await create.mediaServices(), SERVICE_KINDS.audio, model);
      const videoFile = videoFileId ? await staged.chunkedPath(videoFileId) : undefined;
      const job = await audioJob({
        profileId: RUNTIME_PROFILE_ID,
        service,
        draft: { ...draft, videoFile },
        wait: { waitSeconds: GENERATION_WAIT_SECONDS },
      });
      return generationResultOf(await create.createMediaJob(job), BROWSER_HOST);
    },
    'playground.image.generate': async ({ model, inputFileIds, ...draft }) => {
      const service = chooseService(await create.mediaServices(), SERVICE_KINDS.image, model);
      const inputImages: string[] = [];
      for (const id of inputFileIds) inputImages.push(await staged.chunkedPath(id));
      const job = await imageJob({
        profileId: RUNTIME_PROFILE_ID,
        service,
        draft: { ...draft, inputImages },
        wait: { waitSeconds: GENERATION_WAIT_SECONDS },
      });
      return generationResultOf(await create.createMediaJob(job), BROWSER_HOST);
    },
    ...teamHandlers(undefined),
    'team.access': async () => {
      const team = await teamOf();
      return team ? team.access() : { manager: false };
    },
    'team.groups': async (p) => teamHandlers(await teamOf())['team.groups'](p),
    'team.members': async (p) => teamHandlers(await teamOf())['team.members'](p),
    'team.usage': async (p) => teamHandlers(await teamOf())['team.usage'](p),
  } satisfies Partial<BridgeHandlers>;
  const handlers = withRefusals(served, PLATFORM_CAPABILITIES);

  // a runtime 401 ends the person's session: the page is told to reopen the application
  const guarded = Object.fromEntries(
    Object.entries(handlers).map(([method, handler]) => [
      method,
      async (params: never) => {
        try {
          return await (handler as (p: never) => unknown)(params);
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) {
            const session = await latest();
            if (session) await endSession(session);
            throw sessionOver();
          }
          throw error;
        }
      },
    ]),
  ) as unknown as BridgeHandlers;
  const answering = createBridgeDispatcher(guarded, {
    onUnexpectedError: (method, error) => logger.error('bridge handler failed', { method, error }),
  });
  // calls in flight keep the workspace open
  let inFlight = 0;
  const inUse = async <T>(work: () => Promise<T>): Promise<T> => {
    inFlight += 1;
    try {
      return await work();
    } finally {
      inFlight -= 1;
    }
  };
  const dispatcher: BridgeDispatcher = {
    ...answering,
    dispatch: (method, params) => inUse(() => answering.dispatch(method, params)),
  };

  // ---- job events ------------------------------------------------------------------------------
  let consumer: { stop: AbortController; done: Promise<void> } | undefined;
  let eventsState: JobEventsState = 'stopped';
  const unfinishedJobIds = () =>
    journal.jobs
      .listUnfinished()
      .jobsToPoll.filter((job) => job.profileId === RUNTIME_PROFILE_ID)
      .map((job) => job.jobId);
  const jobMayHaveChanged = async (platformJobId: string) => {
    // the woken poll reads the job; a job no poll waits for is continued by the engine, which reads it
    if (await wakeups.wake(platformJobId)) return;
    const job = journal.jobs.getJobByJobId(RUNTIME_PROFILE_ID, platformJobId);
    if (!job || isTerminalStatus(job.status)) return;
    const intent = journal.jobs.getIntentById(job.intentId);
    if (intent)
      void engine
        .continueIntent(intent, { waitSeconds: settings.waitSeconds() })
        .catch((error: unknown) =>
          logger.warn('job continued after an event ended with an error', { error }),
        );
  };
  const startEvents = () => {
    if (consumer) return;
    const stop = new AbortController();
    const events = new JobEventsConsumer({
      events: {
        openEvents: async ({ sessionId, cursor, limit, signal }) => {
          const stream = await runtime.openEvents(sessionAuth(sessionId), {
            ...(cursor ? { lastEventId: cursor } : {}),
            limit,
          });
          // stopped while the stream was being opened: an abort listener added now would never fire
          if (signal.aborted) stream.body.destroy();
          else signal.addEventListener('abort', () => stream.body.destroy(), { once: true });
          const headers = new Headers();
          if (stream.contentType) headers.set('content-type', stream.contentType);
          return new Response(Readable.toWeb(stream.body) as ReadableStream<Uint8Array>, {
            status: stream.status,
            headers,
          });
        },
      },
      session: { current: async () => (await latest())?.sessionId ?? null },
      cursors: journal.eventCursors,
      handler: { jobMayHaveChanged, unfinishedJobIds },
      ...(parts.events?.pollBackoff ? { pollBackoff: parts.events.pollBackoff } : {}),
      ...(parts.events?.reconnectBackoff ? { reconnectBackoff: parts.events.reconnectBackoff } : {}),
      onState: (state) => {
        eventsState = state;
      },
      onError: (error) => logger.warn('job events', { error }),
    });
    const done = events.run(stop.signal).then(
      async (end) => {
        if (end.reason === 'refused' && end.error.status === 401) {
          const session = await parts.sessions.latestOf(subjectKey);
          if (session) await endSession(session);
        }
      },
      (error: unknown) => logger.error('job events consumer failed', { error }),
    );
    consumer = { stop, done: done.finally(() => (consumer = undefined)) };
  };

  // ---- housekeeping -----------------------------------------------------------------------------
  const unfinishedWork = () => {
    const work = journal.jobs.listUnfinished();
    return work.intents.length > 0 || work.jobsToPoll.length > 0 || work.jobsToDownload.length > 0;
  };
  /** The objects a live draft (not submitted), an unfinished job or an export in flight names. */
  const liveObjects = () =>
    namedObjects({
      *openDraftFileIds() {
        for (const draft of journal.drafts.list<{ submittedAt?: unknown; variations?: unknown }>(
          Number.MAX_SAFE_INTEGER,
        )) {
          if (draft.body.submittedAt || draft.body.variations) continue;
          yield* JSON.stringify(draft.body).match(STAGED_ID) ?? [];
        }
      },
      stagedSha256: (fileId) => journal.localFiles.get(staged.pathOf(fileId))?.sha256,
      *unfinishedBodies() {
        const work = journal.jobs.listUnfinished();
        for (const intent of work.intents) yield intent.canonicalBodyJson;
        for (const job of work.jobsToPoll) {
          const intent = journal.jobs.getIntentById(job.intentId);
          if (intent) yield intent.canonicalBodyJson;
        }
      },
      exportingSha256: () => exporting.keys(),
    });
  let housekeepingRun: Promise<{ staged: number; playground: number; objects: number }> | undefined;
  const housekeep = async (now = Date.now()) => {
    await usage.ready;
    const removedStaged = await staged.removeUnnamed(undefined, now);
    const playground = await staged.removeOldChunked(undefined, now);
    const objects = await collectObjects(storage, liveObjects, { graceMs: OBJECT_GRACE_MS, now });
    return { staged: removedStaged, playground, objects: objects.removed };
  };
  const housekeeping = (now?: number) => {
    // one pass at a time (the timer and a test may meet)
    housekeepingRun ??= housekeep(now).finally(() => (housekeepingRun = undefined));
    return housekeepingRun;
  };
  // staged files no draft names are swept when the workspace opens, then on the backend's timer
  housekeeping().catch((error: unknown) => logger.warn('housekeeping failed', { error }));

  return {
    dispatcher,
    events,
    staged,
    media,
    storage,
    get eventsState() {
      return eventsState;
    },
    exportedFile(name) {
      return EXPORT_NAME.test(name) ? path.join(exportsDir, name) : undefined;
    },
    usage: () => usage.view(),
    housekeeping,
    busy: () => inFlight > 0 || exporting.size > 0 || events.listenerCount > 0 || unfinishedWork(),
    hasUnfinishedWork: unfinishedWork,
    inUse,
    async resume() {
      await forgetFinishedRecoveryRefs(journal, parts.recoveryRefs, RUNTIME_PROFILE_ID).catch(
        (error: unknown) => logger.warn('recovery references of finished jobs not forgotten', { error }),
      );
      const { errors } = await engine.resume();
      for (const { key, error } of errors)
        logger.warn('resume: work left unfinished', { key, error: error.message });
    },
    startEvents,
    async close() {
      consumer?.stop.abort();
      await consumer?.done;
      await engine.stop();
      await housekeepingRun?.catch(() => undefined);
      await staged.close();
    },
  };
}

function sessionOver(): AppError {
  return new AppError(
    PLATFORM_SESSION_OVER_CODE,
    'Your platform session is over: reopen Framewright from your application center.',
  );
}
