import { emptyDraftForm } from '../../../../shared/bridge/draft-form.js';
import type { studioMethods } from '../../../../shared/bridge/domains/studio.js';
import type { EmbeddedSimulator } from '../../profiles/embedded-simulator.js';
import { SIMULATOR_PROFILE_ID } from '../../profiles/profile-directory.js';
import type { StudioFeatures } from '../../studio/studio-features.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

export function createStudioHandlers(
  ctx: HandlerContext,
  studio: StudioFeatures,
  /** The embedded simulator, for its fault-injection scenario (never started by a listing). */
  simulator: Pick<EmbeddedSimulator, 'get'>,
  // the platform-marked copy is not a capability of the public API: refused by its capabilities
): Omit<DomainHandlers<typeof studioMethods>, 'library.export'> {
  const { profiles } = ctx.features;
  let scenario: string | null = null;
  return {
    'services.list': ({ profileId, serviceKind }) => studio.discovery.services(profileId, serviceKind),
    'profiles.add': (input) => profiles.add(input),
    'profiles.remove': ({ profileId }) => profiles.remove(profileId),
    'profiles.setActive': ({ profileId }) => profiles.setActive(profileId),
    'profiles.test': ({ profileId }) => profiles.test(profileId),
    'simulator.getScenario': () => ({ scenario }),
    'simulator.setScenario': async ({ name }) => {
      const running = await simulator.get();
      running.setScenario(name);
      scenario = name;
      return { scenario };
    },
    'files.get': ({ fileId }) => studio.staged.get(fileId),
    'drafts.create': ({ form, fromJobRowId }) =>
      fromJobRowId !== undefined
        ? studio.drafts.copyJob(fromJobRowId, form ?? emptyDraftForm(SIMULATOR_PROFILE_ID))
        : studio.drafts.createDraft(form ?? emptyDraftForm(SIMULATOR_PROFILE_ID)),
    'drafts.get': ({ draftId }) => studio.drafts.draft(draftId),
    'drafts.save': ({ draftId, form }) => studio.drafts.saveDraft(draftId, form),
    'drafts.list': () => studio.drafts.listDrafts(),
    'video.optimize': ({ draftId, style }) => studio.optimize.optimize(draftId, style),
    'video.admission': ({ draftId }) => studio.admission.admission(draftId),
    'video.submit': ({ draftId }) => studio.submit.submit(draftId),
    'video.variations': ({ draftId, count }) => studio.variations.generate(draftId, count),
    'jobs.list': (query) => studio.views.listJobs(query),
    'jobs.get': ({ jobRowId }) => studio.views.jobDetail(jobRowId),
    'library.list': (filter) => studio.library.list(filter),
    'library.delete': ({ jobRowId }) => studio.library.deleteResult(jobRowId),
    'library.reveal': ({ jobRowId }) => studio.library.reveal(jobRowId),
    'studio.batch.preview': (params) => studio.batch.preview(params),
    'studio.batch.submit': (params) => studio.batch.submit(params),
    'studio.settings.get': () => studio.settings.get(),
    'studio.settings.update': (change) => studio.settings.update(change),
  };
}
