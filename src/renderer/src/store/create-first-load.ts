/** What Create's first load needs of the store. */
export interface CreateFirstLoadSteps {
  /** The open draft's profile; undefined while no draft is loaded. */
  draftProfileId(): string | undefined;
  /** The profile whose services are listed; null before any were. */
  servicesProfileId(): string | null;
  /** Loads the open draft, or makes a new one for the active profile. */
  loadDraft(): Promise<void>;
  /** Lists the video services of the draft's profile (the active one while no draft is loaded). */
  loadServices(): Promise<void>;
}

/**
 * Create's first load: the draft and the services together, not one round trip after the other.
 * A new draft is made for the active profile, whose services are listed meanwhile; an open draft
 * of another profile has its own listed once it is known, so the services shown are always the
 * draft's profile's.
 */
export async function loadDraftAndServices(steps: CreateFirstLoadSteps): Promise<void> {
  if (steps.draftProfileId() !== undefined) return steps.loadServices();
  const listed = steps.loadServices();
  await steps.loadDraft();
  await listed;
  const profileId = steps.draftProfileId();
  if (profileId !== undefined && profileId !== steps.servicesProfileId()) await steps.loadServices();
}

/** `load` run at most once at a time: a call while it runs joins that run; the next call after it starts anew. */
export function joiningWhileRunning(load: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => {
    running ??= load().finally(() => {
      running = undefined;
    });
    return running;
  };
}
