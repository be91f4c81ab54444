import type { storyboardsMethods } from '../../../../shared/bridge/domains/storyboards.js';
import type { StoryboardsFeature } from '../../storyboards/storyboards-feature.js';
import type { DomainHandlers } from './handler-context.js';

/** Storyboards in, films out (issue 29): each method mapped onto the storyboards feature. */
export function createStoryboardsHandlers(
  storyboards: StoryboardsFeature,
): DomainHandlers<typeof storyboardsMethods> {
  return {
    'storyboards.list': () => storyboards.list(),
    'storyboards.import': ({ boardId }) => storyboards.import(boardId),
    'storyboards.linkOf': ({ sequenceId }) => storyboards.linkOf(sequenceId),
    'storyboards.send': ({ sequenceId, shotId }) => storyboards.send(sequenceId, shotId),
  };
}
