import path from 'node:path';
import { personEngine } from './person-engine.js';
import { PersonJobEvents } from './person-job-events.js';
import { PersonSessions } from './person-sessions.js';
import { platformRuntimeBackend } from '../backends/platform-runtime/platform-runtime-backend.js';
import { RuntimeConnection } from './runtime-connection.js';
import { countingCalls, createBridgeDispatcher } from '../bridge/dispatcher.js';
import { EventHub } from '../events/event-hub.js';
import { createHandlerTable } from '../bridge/handlers/handler-table.js';
import { MarkedExports } from '../exports/marked-export.js';
import { ResultExports } from '../exports/result-export.js';
import { runtimeExportCalls } from '../exports/runtime-export-calls.js';
import { DEFAULT_STORAGE_LIMITS, StorageUsage } from '../storage/storage-usage.js';
import { WorkspaceHousekeeping } from '../storage/workspace-housekeeping.js';
import { ObjectStorage } from '../storage/object-storage.js';
import { signReadUrl } from '../storage/signed-read-url.js';
import { createFileSettingsStore } from '../settings/ui-settings.js';
import { PersonTeam } from './person-team.js';
import type { JobEngineOptions } from '../jobs/job-engine.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import { RUNTIME_PROFILE_ID } from '../backends/platform-runtime/runtime-create.js';
import { StagedFiles } from '../storage/staged-files.js';
import { createStudioFeatures } from '../studio/studio-features.js';
import { BROWSER_HOST } from '../library/studio-host.js';
import type { WorkspaceBase } from './platform-workspaces.js';
import type { PlatformBackendParts, PlatformWorkspaceCore } from './platform-workspace-parts.js';
import { forgetFinishedRecoveryRefs } from './recovery-ref-cleanup.js';
import { asMediaOwner } from '../media-tools/media-work-queue.js';
import { platformAppInfo, platformProfilesList } from './platform-app-info.js';
import { personStoryboards } from './person-storyboards.js';
import { MemberSharedReview, SharedCollectionsReader } from './shared-collections.js';
import { PACKAGE_ZIP_NAME, zippedReviewPackages } from '../library/review-packages.js';

/**
 * One person's studio on the platform: the composition root of a workspace. It chooses its parts
 * — their journal and folder, a job engine whose transport is the deployed runtime (as their own
 * session, or each job's recovery reference), the runtime backend, their storage and quota,
 * marked exports, Team — and builds the same studio features and handler table as the desktop
 * app. Nothing here takes an identity from the browser: the workspace is the cookie's.
 */
export function createPlatformWorkspaceCore(
  workspace: WorkspaceBase,
  parts: PlatformBackendParts,
): PlatformWorkspaceCore {
  const { journal, dir, subjectKey } = workspace;
  const { runtime, logger } = parts;
  const events = new EventHub();
  const libraryDir = path.join(dir, 'library');
  if (!journal.profiles.get(RUNTIME_PROFILE_ID))
    journal.profiles.create({
      id: RUNTIME_PROFILE_ID,
      name: 'Platform runtime',
      kind: 'personal',
      baseUrl: parts.runtimeBaseUrl,
    });
  const sessions = new PersonSessions(parts.sessions, subjectKey);

  let forward: NonNullable<JobEngineOptions['onChange']> = () => undefined;
  const { engine, wakeups } = personEngine({
    journal,
    dir,
    libraryDir,
    runtime,
    sessions,
    recoveryRefs: parts.recoveryRefs,
    onChange: (change) => {
      if (change.type === 'job') countResults(change.job);
      forward(change);
    },
    logger,
    timing: parts.engine,
  });

  // what the person stores here — their folders (the library too: results, assemblies, deliveries)
  // and their drafts' bytes in the journal — counted once, then by every write and removal
  const exportsDir = path.join(dir, 'exports');
  const storageDirs = [path.join(dir, 'staging'), path.join(dir, 'objects'), exportsDir, libraryDir];
  const usage = new StorageUsage(parts.storageLimits ?? DEFAULT_STORAGE_LIMITS, storageDirs);
  usage.record(journal.drafts.totals().bytes, 0);
  // a result downloaded into the library counts once verified (those verified before were in the walk)
  const countedOutputs = new Set<number>(
    journal.jobs
      .listUnfinished()
      .jobsToDownload.flatMap((job) => job.outputs)
      .filter((output) => output.downloadState === 'verified')
      .map((output) => output.id),
  );
  function countResults(job: JobWithOutputs): void {
    for (const output of job.outputs)
      if (output.downloadState === 'verified' && !countedOutputs.has(output.id)) {
        countedOutputs.add(output.id);
        usage.record(output.byteSize ?? 0, 1);
      }
  }
  const storage = new ObjectStorage(path.join(dir, 'objects'), undefined, usage);
  const readUrls = { storage, signingKey: parts.signingKey, publicOrigin: parts.publicOrigin, subjectKey };
  const studio = createStudioFeatures({
    dataDir: dir,
    journal,
    libraryDir: () => libraryDir,
    libraryDirs: () => [libraryDir],
    setLibraryDir: () => undefined, // no local folders here: refused by the capabilities
    engine,
    backend: platformRuntimeBackend({
      runtime,
      session: sessions.source.current,
      journal,
      readUrls,
      projects: { draftProject: (draftId) => studio.projects.draftProject(draftId) },
      engine,
      storyboards: parts.storyboardHelper !== undefined,
    }),
    staged: new StagedFiles(dir, journal, undefined, usage),
    quota: usage,
    events,
    logger,
    host: BROWSER_HOST,
    // a review package leaves as one .zip from the person's exports
    reviewPackages: zippedReviewPackages({ workDir: path.join(dir, 'work'), exportsDir, quota: usage }),
  });
  forward = studio.forwardEngineChange;
  const readUrlFor = (sha256: string, expiresAt: Date) =>
    signReadUrl(parts.signingKey, { ...readUrls, sha256, expiresAt });

  const exports = new ResultExports({
    jobs: journal.jobs,
    marked: new MarkedExports({
      calls: runtimeExportCalls(runtime, async () => (await sessions.require()).sessionId),
      // signed to the expiry the export picks: the same press signs the same URL (the same body)
      urls: { readUrlFor },
    }),
    storage,
    usage,
    exportsDir,
  });
  const team = new PersonTeam({ ...parts, session: () => sessions.require() });
  const sharedReview = new MemberSharedReview({ journal, views: studio.views, storage, readUrlFor });
  const { tenantId, organizationId } = workspace.subject;
  const sharedCollections = new SharedCollectionsReader({
    team: () => team.team(),
    members: async () => (organizationId ? parts.organizationMembers({ tenantId, organizationId }) : []),
  });
  const connection = new RuntimeConnection({
    listServices: () => studio.backend.services(undefined, 'video_generation'),
    onChange: (state) => events.emit('connection.changed', state),
  });
  const storyboards =
    parts.storyboardHelper &&
    personStoryboards({
      ...{ part: parts.storyboardHelper, session: () => sessions.require(), studio, journal, storage },
      ...{ readUrlFor, subjectKey, dir },
    });
  const handlers = createHandlerTable({
    studio,
    events,
    logger,
    host: BROWSER_HOST,
    info: () => platformAppInfo(studio.capabilities, () => team.signedIn()),
    settings: createFileSettingsStore(dir),
    connection,
    profilesList: platformProfilesList,
    team: { projects: studio.projects, team: undefined, teamFor: () => team.team() },
    exportResult: (jobRowId, outputIndex) => exports.exportResult(jobRowId, outputIndex),
    sharedCollections,
    sharedLinks: { revoke: () => parts.signingKey.revokeSubject(subjectKey) },
    storyboards: storyboards && (async () => storyboards),
  });
  const answering = createBridgeDispatcher(sessions.guard(handlers), {
    onUnexpectedError: (method, error) => logger.error('bridge handler failed', { method, error }),
  });
  // calls in flight keep the workspace open
  const counted = countingCalls(answering);
  const { inFlight } = counted;
  // the media work a call starts (a render that goes on after it answered too) queues as this person's
  const dispatcher: typeof counted.dispatcher = {
    dispatch: (method, params) => asMediaOwner(subjectKey, () => counted.dispatcher.dispatch(method, params)),
  };
  const inUse: typeof counted.inUse = (work) => counted.inUse(() => asMediaOwner(subjectKey, work));

  const jobEvents = new PersonJobEvents({
    runtime,
    sessions,
    journal,
    engine,
    wakeups,
    waitSeconds: () => studio.settings.waitSeconds(),
    logger,
    timing: parts.events,
  });
  const housekeeping = new WorkspaceHousekeeping({
    journal,
    staged: studio.staged,
    storage,
    usage,
    exportingSha256: () => [
      ...exports.exportingSha256(),
      ...journal.storyboardLinks.sentSha256(Date.now()),
      // a shared collection's takes stay readable by the managers
      ...sharedReview.sharedSha256(),
    ],
  });
  // staged files no draft names are swept when the workspace opens, then on the backend's timer
  housekeeping.pass().catch((error: unknown) => logger.warn('housekeeping failed', { error }));
  const unfinishedWork = () => {
    const work = journal.jobs.listUnfinished();
    return work.intents.length > 0 || work.jobsToPoll.length > 0 || work.jobsToDownload.length > 0;
  };

  return {
    dispatcher,
    events,
    staged: studio.staged,
    media: studio.media,
    storage,
    storyboards,
    get eventsState() {
      return jobEvents.state;
    },
    sharedReview,
    exportedFile: (name) =>
      exports.fileOf(name) ?? (PACKAGE_ZIP_NAME.test(name) ? path.join(exportsDir, name) : undefined),
    usage: () => usage.view(),
    housekeeping: (now) => housekeeping.pass(now),
    busy: () => inFlight() > 0 || exports.busy || events.listenerCount > 0 || unfinishedWork(),
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
    startEvents: () => jobEvents.start(),
    async close() {
      await jobEvents.stop();
      await engine.stop();
      await housekeeping.settled();
      await studio.staged.close();
    },
  };
}
