import { execFile } from 'node:child_process';
import type { studioMethods } from '../../../../shared/bridge/domains/studio.js';
import type { CoreServices } from '../../app/core-services.js';
import { SIMULATOR_PROFILE_ID } from '../../profiles/profile-directory.js';
import { MediaResolver, mediaUrl } from '../../studio/media-resolver.js';
import { StudioBatch } from '../../studio/studio-batch.js';
import { StagedFiles } from '../../studio/staged-files.js';
import { StudioService } from '../../studio/studio-service.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';
import { emptyDraftForm } from '../../../../shared/bridge/draft-form.js';

/** The studio's parts that hosts need besides the bridge: file staging and the media route. */
export interface StudioHostParts {
  readonly service: StudioService;
  readonly staged: StagedFiles;
  readonly media: MediaResolver;
}

export function createStudioParts(ctx: HandlerContext, services: CoreServices): StudioHostParts {
  const staged = new StagedFiles(services.dataDir, services.journal);
  // staging keeps only what drafts name (and fresh drops); a failure to clean is only logged
  staged.removeUnnamed().catch((error: unknown) => ctx.logger.warn('staging not cleaned', { error }));
  const media = new MediaResolver({
    journal: services.journal,
    libraryDirs: () => services.libraryDirs(),
    staged,
  });
  const service = new StudioService({
    core: services,
    events: ctx.events,
    logger: ctx.logger,
    staged,
    host: ctx.host,
  });
  return { service, staged, media };
}

function openFolder(folder: string): Promise<boolean> {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  return new Promise((resolve) => {
    try {
      const child = execFile(command, [folder], { timeout: 10_000 }, (error) => resolve(!error));
      child.on('error', () => resolve(false));
    } catch {
      resolve(false);
    }
  });
}

export function createStudioHandlers(
  ctx: HandlerContext,
  parts: StudioHostParts,
  services: CoreServices,
): DomainHandlers<typeof studioMethods> {
  const { profiles } = ctx.features;
  const { service, staged } = parts;
  let scenario: string | null = null;
  const batch = new StudioBatch({
    core: services,
    logger: ctx.logger,
    waitSeconds: () => service.waitSeconds(),
  });
  const studioSettings = () => ({
    waitSeconds: service.waitSeconds(),
    libraryDir: services.libraryDir,
    mediaBase: mediaUrl(ctx.host, ''),
  });
  return {
    'services.list': ({ profileId, serviceKind }) =>
      service.services(profileId ?? services.profiles.activeId(), serviceKind),
    'profiles.add': (input) => profiles.add(input),
    'profiles.remove': ({ profileId }) => profiles.remove(profileId),
    'profiles.setActive': ({ profileId }) => profiles.setActive(profileId),
    'profiles.test': ({ profileId }) => profiles.test(profileId),
    'simulator.getScenario': () => ({ scenario }),
    'simulator.setScenario': async ({ name }) => {
      const running = await services.simulator.get();
      running.setScenario(name);
      scenario = name;
      return { scenario };
    },
    'files.get': ({ fileId }) => staged.get(fileId),
    'drafts.create': ({ form, fromJobRowId }) =>
      fromJobRowId !== undefined
        ? service.copyJob(fromJobRowId, form ?? emptyDraftForm(SIMULATOR_PROFILE_ID))
        : service.createDraft(form ?? emptyDraftForm(SIMULATOR_PROFILE_ID)),
    'drafts.get': ({ draftId }) => service.draft(draftId),
    'drafts.save': ({ draftId, form }) => service.saveDraft(draftId, form),
    'drafts.list': () => service.listDrafts(),
    'video.optimize': ({ draftId, style }) => service.optimize(draftId, style),
    'video.admission': ({ draftId }) => service.admission(draftId),
    'video.submit': ({ draftId }) => service.submit(draftId),
    'jobs.list': (query) => service.listJobs(query),
    'jobs.get': ({ jobRowId }) => service.jobDetail(jobRowId),
    'library.list': (filter) => service.library(filter),
    'library.delete': ({ jobRowId }) => service.deleteResult(jobRowId),
    'library.reveal': async ({ jobRowId }) => {
      const folder = service.libraryFolder(jobRowId);
      return { folder, opened: ctx.host === 'electron' ? await openFolder(folder) : false };
    },
    'studio.batch.preview': (params) => batch.preview(params),
    'studio.batch.submit': (params) => batch.submit(params),
    'studio.settings.get': () => studioSettings(),
    'studio.settings.update': async ({ waitSeconds, libraryDir }) => {
      // validate everything first: a refused folder changes nothing
      const folder = libraryDir === undefined ? undefined : await service.checkLibraryDir(libraryDir);
      if (waitSeconds !== undefined) service.setWaitSeconds(waitSeconds);
      if (folder !== undefined && folder !== services.libraryDir) services.setLibraryDir(folder);
      return studioSettings();
    },
  };
}
