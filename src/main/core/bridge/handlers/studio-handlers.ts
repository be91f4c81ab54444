import type { DraftForm, studioMethods } from '../../../../shared/bridge/domains/studio.js';
import { AppError } from '../../errors.js';
import { SIMULATOR_PROFILE_ID } from '../../profiles/profile-directory.js';
import type { StudioFeatures } from '../../studio/studio-features.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

/** An empty form for a new draft (the renderer fills it from the chosen service's contract). */
const EMPTY_FORM: DraftForm = {
  profileId: SIMULATOR_PROFILE_ID,
  model: '',
  generationMode: '',
  prompt: '',
  orientation: '',
  seconds: 0,
  resolutionTier: '',
  seed: null,
  references: [],
};

export function createStudioHandlers(
  ctx: HandlerContext,
  studio: StudioFeatures,
): DomainHandlers<typeof studioMethods> {
  const { services } = ctx;
  let scenario: string | null = null;
  const summary = async (profileId: string) => {
    const running = await services.simulator.peek();
    return services.profiles.summary(services.profiles.get(profileId), running?.baseUrl ?? null);
  };
  return {
    'services.list': ({ profileId, serviceKind }) => studio.discovery.services(profileId, serviceKind),
    'profiles.add': async ({ kind, name, baseUrl, secret, debugTokenExpiresAt }) => {
      // The secret goes straight to the keychain; the answer carries only `hasSecret`.
      let profile;
      try {
        profile = await services.credentials.createProfile({
          kind,
          name,
          baseUrl: baseUrl.replace(/\/+$/, ''),
          secret,
          ...(kind === 'debug' && debugTokenExpiresAt !== undefined ? { debugTokenExpiresAt } : {}),
        });
      } catch (error) {
        // the journal's checks (name taken, base URL shape) name the field, never the secret
        if (error instanceof RangeError) throw new AppError('profile.invalid', error.message);
        throw error;
      }
      return summary(profile.id);
    },
    'profiles.remove': async ({ profileId }) => {
      if (profileId === SIMULATOR_PROFILE_ID)
        throw new AppError('profile.builtin', 'The local simulator is built in and cannot be removed.');
      if (services.journal.jobs.listJobs({ profileId, limit: 1 }).items.length > 0)
        throw new AppError(
          'profile.has_jobs',
          'This profile owns jobs in the library; it cannot be removed.',
        );
      if (services.profiles.activeId() === profileId) services.profiles.setActive(SIMULATOR_PROFILE_ID);
      return { removed: await services.credentials.deleteProfile(profileId) };
    },
    'profiles.setActive': async ({ profileId }) => {
      services.profiles.setActive(profileId);
      return summary(profileId);
    },
    'profiles.test': async ({ profileId }) => {
      try {
        const client = await services.profiles.clientFor(profileId);
        const list = await client.listServices();
        return { ok: true, serviceCount: list.data.length, message: null };
      } catch (error) {
        return {
          ok: false,
          serviceCount: 0,
          message: error instanceof Error ? error.message : String(error),
        };
      }
    },
    'simulator.getScenario': () => ({ scenario }),
    'simulator.setScenario': async ({ name }) => {
      const running = await services.simulator.get();
      running.setScenario(name);
      scenario = name;
      return { scenario };
    },
    'files.get': ({ fileId }) => studio.staged.get(fileId),
    'drafts.create': ({ form, fromJobRowId }) =>
      fromJobRowId !== undefined
        ? studio.drafts.copyJob(fromJobRowId, form ?? EMPTY_FORM)
        : studio.drafts.createDraft(form ?? EMPTY_FORM),
    'drafts.get': ({ draftId }) => studio.drafts.draft(draftId),
    'drafts.save': ({ draftId, form }) => studio.drafts.saveDraft(draftId, form),
    'drafts.list': () => studio.drafts.listDrafts(),
    'video.optimize': ({ draftId, style }) => studio.optimize.optimize(draftId, style),
    'video.admission': ({ draftId }) => studio.admission.admission(draftId),
    'video.submit': ({ draftId }) => studio.submit.submit(draftId),
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
