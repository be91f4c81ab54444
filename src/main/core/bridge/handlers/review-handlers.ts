import type { reviewMethods } from '../../../../shared/bridge/domains/review.js';
import type { DomainHandlers, HandlerContext } from './handler-context.js';

type ReviewHandlers = DomainHandlers<typeof reviewMethods>;

/**
 * Notes at a frame and collections (issue 41), each a mapping onto the studio's review features;
 * the managers' reading of shared collections only where the root has it (the platform: capability
 * `sharedCollections`, refused elsewhere by `backends/capabilities.ts`).
 */
export function createReviewHandlers(ctx: HandlerContext): Partial<ReviewHandlers> {
  const { notes, collections } = ctx.studio.review;
  const served: { -readonly [K in keyof ReviewHandlers]?: ReviewHandlers[K] } = {
    'library.notes.list': ({ jobRowId }) => notes.list(jobRowId),
    'library.notes.add': (note) => notes.add(note),
    'library.notes.update': (change) => notes.update(change),
    'library.notes.delete': ({ noteId }) => notes.delete(noteId),
    'collections.list': () => collections.list(),
    'collections.get': ({ collectionId }) => collections.get(collectionId),
    'collections.create': ({ name, jobRowIds }) => collections.create(name, jobRowIds),
    'collections.rename': ({ collectionId, name }) => collections.rename(collectionId, name),
    'collections.delete': ({ collectionId }) => collections.delete(collectionId),
    'collections.addItems': ({ collectionId, jobRowIds }) => collections.addItems(collectionId, jobRowIds),
    'collections.removeItems': ({ collectionId, jobRowIds }) =>
      collections.removeItems(collectionId, jobRowIds),
    'collections.reorder': ({ collectionId, jobRowIds }) => collections.reorder(collectionId, jobRowIds),
    'collections.share': ({ collectionId, projectId }) => collections.share(collectionId, projectId),
    'collections.toSequence': ({ collectionId, name }) => collections.toSequence(collectionId, name),
    'collections.exportPackage': ({ collectionId }) => collections.exportPackage(collectionId),
    'collections.revealPackage': ({ fileName }) => ctx.studio.library.revealPackage(fileName),
  };
  const shared = ctx.sharedCollections;
  if (shared) {
    served['collections.shared.list'] = () => shared.list();
    served['collections.shared.get'] = ({ ref }) => shared.get(ref);
  }
  return served;
}
