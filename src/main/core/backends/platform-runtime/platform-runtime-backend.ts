import { PLATFORM_CAPABILITIES } from '../capabilities.js';
import type { PlaygroundCalls } from '../playground-calls.js';
import { runtimeDocumentParse } from './runtime-document-parse.js';
import { runtimePlaygroundCalls } from './runtime-playground-calls.js';
import { RuntimeOptimize } from './runtime-prompt-optimization.js';
import type { StudioBackend } from '../studio-backend.js';
import { AppError } from '../../errors.js';
import type { ProjectsFeature } from '../../projects/projects-feature.js';
import type { RuntimeInputsDeps } from './runtime-inputs.js';
import type { JobEngine } from '../../jobs/job-engine.js';
import type { Journal } from '../../journal/open-journal.js';
import { chooseService } from '../../operations/service-common.js';
import type { RuntimeApiClient } from '../../api-clients/runtime/runtime-api-client.js';
import { RUNTIME_PROFILE_ID, RuntimeCreate } from './runtime-create.js';
import type { StudioBackendParts } from '../studio-backend.js';

export interface PlatformRuntimeBackendDeps {
  runtime: RuntimeApiClient;
  /** The person's RuntimeSession now (null: none; the page is told to reopen the application). */
  session(): Promise<{ sessionId: string } | null>;
  journal: Journal;
  /** The person's object storage, signing key and public origin: local files travel as signed readUrls. */
  readUrls: RuntimeInputsDeps;
  projects: Pick<ProjectsFeature, 'draftProject'>;
  engine: Pick<JobEngine, 'createOrContinue' | 'continueIntent'>;
  /** Storyboard Helper is configured for this deployment: capability `storyboards` is on. */
  storyboards?: boolean;
}

/**
 * The platform's deployed runtime as the studio's backend, acting as the signed-in person
 * (application-platform-api.md, section A): services from `/available-services` (kept per
 * session), Generate after the runtime's dry-run, references and Playground files as signed
 * readUrls of the person's own storage, one profile (the runtime's).
 */
export function platformRuntimeBackend(d: PlatformRuntimeBackendDeps) {
  return (parts: StudioBackendParts): StudioBackend => {
    const create = new RuntimeCreate({
      client: d.runtime,
      session: d.session,
      drafts: parts.drafts,
      staged: parts.staged,
      readUrls: d.readUrls,
      projects: d.projects,
      engine: d.engine,
    });
    const calls: PlaygroundCalls = {
      ...runtimePlaygroundCalls({
        journal: d.journal,
        client: d.runtime,
        session: d.session,
        readUrls: d.readUrls,
        profileId: RUNTIME_PROFILE_ID,
      }),
      // on the runtime a parse is a document_parse job, its result in the person's library
      parse: runtimeDocumentParse({ createMediaJob: (job) => create.createMediaJob(job) }),
    };
    const optimizer = new RuntimeOptimize({
      journal: d.journal,
      client: d.runtime,
      session: d.session,
      drafts: parts.drafts,
      staged: parts.staged,
      readUrls: d.readUrls,
      services: (serviceKind) => create.listServices(serviceKind),
      profileId: RUNTIME_PROFILE_ID,
    });
    return {
      capabilities: { ...PLATFORM_CAPABILITIES, storyboards: d.storyboards === true },
      activeProfileId: () => RUNTIME_PROFILE_ID,
      draftProfileId: () => RUNTIME_PROFILE_ID,
      services: (_profileId, serviceKind) => create.services(serviceKind),
      videoServices: () => create.videoServices(),
      service: async (kinds, model) => chooseService(await create.listServices(), kinds, model),
      admission: (draftId) => create.admission(draftId),
      optimize: (draftId, style) => optimizer.optimize(draftId, style),
      createVideo: (submission) => create.create(submission),
      createMediaJob: (job) => create.createMediaJob(job),
      playgroundCalls: async () => calls,
      // the runtime lists no voice catalogue: its speech services name their own voices
      voices: async () => [],
      voicePreview: async () => {
        throw new AppError('voice.no_preview', 'This voice has no preview here.');
      },
    };
  };
}
