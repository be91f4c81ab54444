import { emptyDraftForm } from '../../../../shared/bridge/draft-form.js';
import type { studioMethods } from '../../../../shared/bridge/domains/studio.js';
import type { BridgeHandlers } from '../dispatcher.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

type StudioHandlers = DomainHandlers<typeof studioMethods>;

/**
 * Create, the queue, the library and the studio's settings, each a mapping onto the studio's
 * features over the root's backend; profiles, the simulator's scenario and the marked copy only
 * where the root has them (otherwise their capability is off and they are refused).
 */
export function createStudioHandlers(ctx: HandlerContext): Partial<StudioHandlers> {
  const { studio } = ctx;
  const { backend } = studio;
  // a draft runs under the backend's profile when the page names none
  const formOf = (form: Parameters<StudioHandlers['drafts.create']>[0]['form']) => ({
    ...(form ?? emptyDraftForm(backend.activeProfileId())),
    profileId: backend.draftProfileId(form?.profileId),
  });
  let scenario: string | null = null;
  const served: { -readonly [K in keyof StudioHandlers]?: StudioHandlers[K] } = {
    'services.list': ({ profileId, serviceKind }) => backend.services(profileId, serviceKind),
    'simulator.getScenario': () => ({ scenario }),
    'files.get': ({ fileId }) => studio.staged.get(fileId),
    'drafts.create': ({ form, fromJobRowId }) =>
      fromJobRowId !== undefined
        ? studio.drafts.copyJob(fromJobRowId, formOf(form))
        : studio.drafts.createDraft(formOf(form)),
    'drafts.get': ({ draftId }) => studio.drafts.draft(draftId),
    'drafts.save': ({ draftId, form }) => studio.drafts.saveDraft(draftId, formOf(form)),
    'drafts.list': () => studio.drafts.listDrafts(),
    'video.optimize': ({ draftId, style }) => backend.optimize(draftId, style),
    'video.admission': ({ draftId }) => backend.admission(draftId),
    'video.submit': ({ draftId }) => studio.submit.submit(draftId),
    'video.variations': ({ draftId, count }) => studio.variations.generate(draftId, count),
    'jobs.list': (query) => studio.views.listJobs(query),
    'jobs.get': ({ jobRowId }) => studio.views.jobDetail(jobRowId),
    'library.list': (filter) => studio.library.list(filter),
    'library.mark': (change) => studio.library.mark(change),
    'library.delete': ({ jobRowId }) => studio.library.deleteResult(jobRowId),
    'library.reveal': ({ jobRowId }) => studio.library.reveal(jobRowId),
    'studio.batch.preview': (params) => studio.batch.preview(params),
    'studio.batch.submit': (params) => studio.batch.submit(params),
    'studio.settings.get': () => studio.settings.get(),
    'studio.settings.update': (change) => studio.settings.update(change),
  };
  const { profiles, simulator, exportResult } = ctx;
  if (profiles) {
    served['profiles.add'] = (input) => profiles.add(input);
    served['profiles.remove'] = ({ profileId }) => profiles.remove(profileId);
    served['profiles.setActive'] = ({ profileId }) => profiles.setActive(profileId);
    served['profiles.test'] = ({ profileId }) => profiles.test(profileId);
  }
  if (simulator)
    served['simulator.setScenario'] = async ({ name }) => {
      const running = await simulator.get();
      running.setScenario(name);
      scenario = name;
      return { scenario };
    };
  if (exportResult)
    served['library.export'] = ({ jobRowId, outputIndex }) => exportResult(jobRowId, outputIndex);
  return served satisfies Partial<BridgeHandlers>;
}
