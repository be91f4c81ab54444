import type { EventHub } from '../bridge/event-hub.js';
import type { EngineChange, JobEngine } from '../jobs/job-engine.js';
import { ProjectsFeature } from '../features/projects/projects-feature.js';
import type { Journal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import { StudioAdmission } from './admission.js';
import { StudioDiscovery, type ClientFor, type StudioDiscoveryDeps } from './discovery.js';
import { DraftInputs } from './draft-inputs.js';
import { StudioDrafts } from './drafts.js';
import { engineChangeForwarder, forwardJobView } from './events.js';
import { JobViews } from './job-views.js';
import { StudioLibrary } from './library.js';
import { MediaResolver } from './media-resolver.js';
import { StudioOptimize } from './optimize.js';
import { StagedFiles } from './staged-files.js';
import { StudioBatch, type StudioBatchOptions } from './studio-batch.js';
import { StudioSettings } from './studio-settings.js';
import { StudioSubmit } from './submit.js';
import { StudioVariations } from './variations.js';
import { submitVideo } from '../video/submit-video.js';
import { SequenceAssembler } from '../features/sequences/sequence-assembler.js';
import { SequencesFeature } from '../features/sequences/sequences-feature.js';
import { ResultFacts } from '../features/sequences/shot-results.js';
import path from 'node:path';
import type { StudioHost } from './studio-host.js';

export interface StudioFeaturesDeps {
  dataDir: string;
  journal: Journal;
  clientFor: ClientFor;
  /** The profiles' service lists (the catalog feature). */
  catalog: StudioDiscoveryDeps['catalog'];
  activeProfileId: () => string;
  /** The current library folder (the setting, else the default). */
  libraryDir: () => string;
  libraryDirs: () => string[];
  setLibraryDir: (folder: string) => void;
  engine: Pick<JobEngine, 'continueIntent'>;
  /** What the shared video submit and batch cores run on (`submitVideo`, `prepareBatch`, `runBatch`). */
  runner: Parameters<typeof submitVideo>[0] & StudioBatchOptions['batch'];
  events: EventHub;
  logger: Logger;
  host: StudioHost;
}

/** The studio's features, each built with the narrow dependencies it uses. */
export interface StudioFeatures {
  readonly discovery: StudioDiscovery;
  readonly drafts: StudioDrafts;
  readonly optimize: StudioOptimize;
  readonly admission: StudioAdmission;
  readonly submit: StudioSubmit;
  /** "Generate ×N": variations of a draft that differ only in seed. */
  readonly variations: StudioVariations;
  readonly views: JobViews;
  readonly library: StudioLibrary;
  readonly settings: StudioSettings;
  readonly batch: StudioBatch;
  /** File staging, for the hosts' upload route and the bridge. */
  readonly staged: StagedFiles;
  /** The library-only media resolver, for the hosts' media route. */
  readonly media: MediaResolver;
  /** Shot sequences: continue, bridge, generate and assemble (issue 15). */
  readonly sequences: SequencesFeature;
  /** Renders sequences into one file of the library (the CLI waits on it). */
  readonly assembler: SequenceAssembler;
  /** Sends the engine's changes to the renderer as bridge events. */
  readonly forwardEngineChange: (change: EngineChange) => void;
}

/** Builds the studio's features (called once by the composition root). */
export function createStudioFeatures(d: StudioFeaturesDeps): StudioFeatures {
  const { journal } = d;
  const staged = new StagedFiles(d.dataDir, journal);
  // staging keeps only what drafts name (and fresh drops); a failure to clean is only logged
  staged.removeUnnamed().catch((error: unknown) => d.logger.warn('staging not cleaned', { error }));
  const media = new MediaResolver({ journal, libraryDirs: d.libraryDirs, staged });
  const discovery = new StudioDiscovery({
    journal,
    catalog: d.catalog,
    activeProfileId: d.activeProfileId,
  });
  const drafts = new StudioDrafts({
    drafts: journal.drafts,
    jobs: journal.jobs,
    isShot: (draftId) => journal.sequences.sequencesOfDraft(draftId).length > 0,
  });
  const inputs = new DraftInputs({
    journal,
    clientFor: d.clientFor,
    discovery,
    drafts,
    staged,
    events: d.events,
    logger: d.logger,
  });
  const settings = new StudioSettings({
    settings: journal.settings,
    libraryDir: d.libraryDir,
    setLibraryDir: d.setLibraryDir,
    host: d.host,
  });
  const waitSeconds = () => settings.waitSeconds();
  const views = new JobViews(journal, { drafts, staged, host: d.host });
  const submit = new StudioSubmit({
    createJob: (submission) => submitVideo(d.runner, submission),
    jobs: journal.jobs,
    drafts,
    inputs,
    waitSeconds,
    logger: d.logger,
    projects: new ProjectsFeature(journal),
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
  });
  return {
    discovery,
    drafts,
    optimize: new StudioOptimize({ journal, inputs }),
    admission: new StudioAdmission({ inputs }),
    submit,
    sequences: new SequencesFeature({
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
    }),
    variations: new StudioVariations({
      submit,
      drafts,
      inputs,
      variations: journal.variations,
      onGrouped: (jobRowId) => forwardJobView(d.events, views, d.logger, jobRowId),
    }),
    assembler,
    views,
    library: new StudioLibrary({ jobs: journal.jobs, views, libraryDirs: d.libraryDirs, host: d.host }),
    settings,
    batch: new StudioBatch({
      batch: d.runner,
      jobs: journal.jobs,
      engine: d.engine,
      activeProfileId: d.activeProfileId,
      logger: d.logger,
      waitSeconds,
    }),
    staged,
    media,
    forwardEngineChange: engineChangeForwarder({ events: d.events, views, logger: d.logger }),
  };
}
