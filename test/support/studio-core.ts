import type { DraftForm } from '../../src/shared/bridge/contract.js';

// The app core over its embedded simulator is a shared world of test/support/worlds/.
export { openStudioCore, type StudioCore } from './worlds/desktop-core.js';

/** A valid text-to-video draft form of the simulator profile. */
export function t2vForm(model: string, prompt: string, seed: number): DraftForm {
  return {
    profileId: 'simulator',
    model,
    generationMode: 't2v',
    prompt,
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed,
    references: [],
  };
}
