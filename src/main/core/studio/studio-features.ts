import path from 'node:path';
import type { Capabilities } from '../../../shared/bridge/domains/app.js';
import type { StudioBackend, StudioBackendParts } from '../backends/studio-backend.js';
import type { EventHub } from '../events/event-hub.js';
import type { EngineChange, JobEngine } from '../jobs/job-engine.js';
import { writeSidecar } from '../jobs/download-outputs.js';
import { PlaygroundFeature } from '../operations/playground-feature.js';
import { ProjectsFeature } from '../projects/projects-feature.js';
import type { Journal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import type { UploadState } from '../creating/submit-video.js';
import { localDraftOf } from '../creating/draft-inputs.js';
import { StudioDrafts } from '../creating/drafts.js';
import { engineChangeForwarder, forwardJobView } from './events.js';
import { JobViews } from '../library/job-views.js';
import { StudioLibrary } from '../library/library.js';
import { createReviewFeatures, type ReviewFeatures } from '../library/review-features.js';
import { localReviewPackages, type ReviewPackages } from '../library/review-packages.js';
import { MediaResolver } from '../library/media-resolver.js';
import { StagedFiles } from '../storage/staged-files.js';
import type { RecordingQuota } from '../storage/storage-usage.js';
import { StudioBatch } from '../batch/studio-batch.js';
import { StudioSettings } from '../settings/studio-settings.js';
import { StudioSubmit } from '../creating/submit.js';
import { StudioVariations } from '../creating/variations.js';
import { SequenceAssembler } from '../sequences/sequence-assembler.js';
import { SequencesFeature } from '../sequences/sequences-feature.js';
import { DeliveriesFeature } from '../sequences/deliveries-feature.js';
import { measureLoudness, mixSoundtrack } from '../media-tools/mix-soundtrack.js';
import { toSrt } from '../media-tools/captions.js';
import { ResultFacts, mediaSecondsOf } from '../sequences/shot-results.js';
import { SoundtrackFeature } from '../sequences/soundtrack-feature.js';
import type { StudioHost } from '../library/studio-host.js';

export interface StudioFeaturesDeps {
  /** Where staged files and Sequences' work files live (the person's folder on the platform). */
  dataDir: string;
  journal: Journal;
  /** The current library folder (the setting, else the default). */
  libraryDir: () => string;
  libraryDirs: () => string[];
  /** Makes a checked folder the library (only where the backend's capabilities offer local folders). */
  setLibraryDir: (folder: string) => void;
  engine: Pick<JobEngine, 'continueIntent'>;
  /** The backend the studio runs over, built from the studio's own parts (see `../backends/`). */
  backend: (parts: StudioBackendParts) => StudioBackend;
  /** The staging store when the root keeps its own (the platform's counts in the person's quota). */
  staged?: StagedFiles;
  /**
   * The person's storage quota (the platform): drafts' bytes, assemblies and deliveries count in
   * it, and one that would pass it is refused before any work. None on the desktop.
   */
  quota?: RecordingQuota;
  events: EventHub;
  logger: Logger;
  host: StudioHost;
  /** Where review packages go when not a folder of the library (the platform: a download). */
  reviewPackages?: ReviewPackages;
}

/** The studio's features, each built with the narrow dependencies it uses, over one backend. */
export interface StudioFeatures {
  /** The backend every feature below runs over (its capabilities say what it offers). */
  readonly backend: StudioBackend;
  readonly capabilities: Capabilities;
  readonly drafts: StudioDrafts;
  readonly submit: StudioSubmit;
  /** "Generate ×N": variations of a draft that differ only in seed. */
  readonly variations: StudioVariations;
  readonly views: JobViews;
  readonly library: StudioLibrary;
  /** Notes at a frame of results and collections of them (issue 41). */
  readonly review: Omit<ReviewFeatures, 'sidecars'>;
  readonly settings: StudioSettings;
  readonly projects: ProjectsFeature;
  /** The Playground's saved conversations. */
  readonly playground: PlaygroundFeature;
  /** The journal of billed synchronous calls, newest first. */
  readonly calls: JobViews['calls'];
  /** The current library folder (the Playground's parsed documents go there). */
  readonly libraryDir: () => string;
  /** Batch import of prompts (one job per row, never created twice). */
  readonly batch: StudioBatch;
  /** File staging, for the hosts' upload route and the bridge. */
  readonly staged: StagedFiles;
  /** The library-only media resolver, for the hosts' media route. */
  readonly media: MediaResolver;
  /** Shot sequences: continue, bridge, generate and assemble (issue 15). */
  readonly sequences: SequencesFeature;
  /** A sequence's sound track (music bed, voice-over lines, ducking) and captions (issue 31). */
  readonly soundtrack: SoundtrackFeature;
  /** Renders sequences into one file of the library (the CLI waits on it). */
  readonly assembler: SequenceAssembler;
  /** A sequence's deliveries in its formats (16:9, 9:16, 1:1), verified files of the library. */
  readonly deliveries: DeliveriesFeature;
  /** Sends the engine's changes to the renderer as bridge events. */
  readonly forwardEngineChange: (change: EngineChange) => void;
}

/**
 * Builds the studio's features once, over the backend the composition root chose: the desktop
 * app, the browser host and the CLI give the public API's; the platform deployment gives each
 * person's runtime backend. The features are the same; only the backend differs.
 */
export function createStudioFeatures(d: StudioFeaturesDeps): StudioFeatures {
  const { journal } = d;
  const staged = d.staged ?? new StagedFiles(d.dataDir, journal);
  // staging keeps only what drafts name (and fresh drops); a failure to clean is only logged
  if (!d.staged)
    staged.removeUnnamed().catch((error: unknown) => d.logger.warn('staging not cleaned', { error }));
  const media = new MediaResolver({ journal, libraryDirs: d.libraryDirs, staged });
  const drafts = new StudioDrafts({
    drafts: journal.drafts,
    jobs: journal.jobs,
    isShot: (draftId) => journal.sequences.sequencesOfDraft(draftId).length > 0,
    ...(d.quota ? { quota: d.quota } : {}),
  });
  const emitUpload = (draftId: string, progress: UploadState) => {
    try {
      d.events.emit('uploads.progress', { draftId, ...progress });
    } catch (error) {
      d.logger.warn('studio event not sent', { error });
    }
  };
  const backend = d.backend({ drafts, staged, emitUpload });
  const settings = new StudioSettings({
    settings: journal.settings,
    libraryDir: d.libraryDir,
    setLibraryDir: d.setLibraryDir,
    host: d.host,
    localFolders: backend.capabilities.localFolders,
  });
  const waitSeconds = () => settings.waitSeconds();
  const views = new JobViews(journal, { drafts, staged, host: d.host });
  const projects = new ProjectsFeature(journal);
  const submit = new StudioSubmit({
    createJob: (submission) => backend.createVideo(submission),
    drafts,
    inputs: { localDraft: (form) => localDraftOf(staged, form), emitUpload },
    waitSeconds,
    logger: d.logger,
    projects,
  });
  const changed = (sequenceId: string) => d.events.emit('sequences.changed', { sequenceId });
  const facts = new ResultFacts();
  const assembler = new SequenceAssembler({
    journal,
    drafts,
    libraryDir: d.libraryDir,
    host: d.host,
    logger: d.logger,
    emit: (view) => d.events.emit('sequences.assembly', view),
    changed,
    facts,
    ...(d.quota ? { quota: d.quota } : {}),
  });
  const soundtrack = new SoundtrackFeature({
    journal,
    backend,
    staged,
    libraryDir: d.libraryDir,
    host: d.host,
    logger: d.logger,
    waitSeconds,
    changed,
    // caption sidecars go beside the newest delivered film, else the assembly
    latestFilm: (sequenceId) =>
      journal.deliveries.ofSequence(sequenceId).find((f) => f.state === 'ready' && f.localPath)?.localPath,
  });
  const sequences: SequencesFeature = new SequencesFeature({
    journal,
    drafts,
    submit,
    staged,
    views,
    assembler,
    workDir: path.join(d.dataDir, 'work', 'frames'),
    host: d.host,
    logger: d.logger,
    changed,
    facts,
    // the files kept for the sound track's dropped voice lines, and the deliveries, go with the sequence
    removeFilesOf: async (sequenceId): Promise<void> => {
      await soundtrack.removeFilesOf(sequenceId);
      await deliveries.removeFilesOf(sequenceId);
    },
  });
  const deliveries = new DeliveriesFeature({
    journal,
    sequences,
    assembler,
    soundtrack,
    mixer: { mixSoundtrack, measureLoudness, toSrt },
    libraryDir: d.libraryDir,
    host: d.host,
    logger: d.logger,
    emit: (view) => d.events.emit('sequences.delivery', view),
    changed,
    ...(d.quota ? { quota: d.quota } : {}),
  });
  const review = createReviewFeatures({
    journal,
    requireJob: (jobRowId) => views.requireJob(jobRowId),
    rewriteSidecar: (job, folder) => writeSidecar(journal, job, folder),
    mediaSeconds: (job) => mediaSecondsOf(job, facts),
    sequenceFromTakes: (name, jobRowIds) => sequences.createFromTakes(name, jobRowIds),
    jobDetail: (jobRowId) => views.jobDetail(jobRowId),
    packages: d.reviewPackages ?? localReviewPackages(d.libraryDir),
  });
  deliveries
    .cleanUpInterrupted()
    .catch((error: unknown) => d.logger.warn('interrupted deliveries not cleaned', { error }));
  return {
    backend,
    capabilities: backend.capabilities,
    drafts,
    submit,
    projects,
    playground: new PlaygroundFeature({ journal }),
    calls: (query) => views.calls(query),
    libraryDir: d.libraryDir,
    sequences,
    deliveries,
    variations: new StudioVariations({
      submit,
      drafts,
      inputs: { localDraft: (form) => localDraftOf(staged, form) },
      variations: journal.variations,
      onGrouped: (jobRowId) => forwardJobView(d.events, views, d.logger, jobRowId),
    }),
    assembler,
    soundtrack,
    views,
    library: new StudioLibrary({
      jobs: journal.jobs,
      views,
      libraryDirs: d.libraryDirs,
      host: d.host,
      marks: journal.marks,
      notes: journal.notes,
      collections: journal.collections,
      sidecars: review.sidecars,
    }),
    review: { notes: review.notes, collections: review.collections },
    settings,
    batch: new StudioBatch({
      videoServices: (profileId) => backend.videoServices(profileId),
      createVideo: (submission) => backend.createVideo(submission),
      jobs: journal.jobs,
      engine: d.engine,
      activeProfileId: () => backend.activeProfileId(),
      logger: d.logger,
      waitSeconds,
    }),
    staged,
    media,
    forwardEngineChange: engineChangeForwarder({ events: d.events, views, logger: d.logger }),
  };
}
