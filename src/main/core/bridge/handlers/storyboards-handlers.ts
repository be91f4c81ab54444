import type { storyboardsMethods } from '../../../../shared/bridge/domains/storyboards.js';
import { refuseMissing } from '../../backends/capabilities.js';
import type { StoryboardsFeature } from '../../storyboards/storyboards-feature.js';
import type { DomainHandlers } from './handler-context.js';

/**
 * Storyboards in, films out (issue 29): each method mapped onto the storyboards feature of the
 * moment (on this machine it exists only while the active profile is a live debug session).
 */
export function createStoryboardsHandlers(
  storyboardsFor: () => Promise<StoryboardsFeature | undefined>,
): DomainHandlers<typeof storyboardsMethods> {
  const storyboards = async (): Promise<StoryboardsFeature> =>
    (await storyboardsFor()) ?? refuseMissing('storyboards');
  return {
    'storyboards.list': async () => (await storyboards()).list(),
    'storyboards.import': async ({ boardId }) => (await storyboards()).import(boardId),
    'storyboards.linkOf': async ({ sequenceId }) => (await storyboards()).linkOf(sequenceId),
    'storyboards.send': async ({ sequenceId, shotId }) => (await storyboards()).send(sequenceId, shotId),
  };
}
