import type { sequencesMethods } from '../../../../shared/bridge/domains/sequences.js';
import type { DeliveriesFeature } from '../../sequences/deliveries-feature.js';
import type { SequencesFeature } from '../../sequences/sequences-feature.js';
import type { SoundtrackFeature } from '../../sequences/soundtrack-feature.js';
import type { DomainHandlers } from './handler-context.js';

/** Sequences (issues 15, 31): each method mapped onto the sequences, sound track and deliveries features. */
export function createSequencesHandlers(
  sequences: SequencesFeature,
  soundtrack: SoundtrackFeature,
  deliveries: DeliveriesFeature,
): DomainHandlers<typeof sequencesMethods> {
  return {
    'sequences.list': () => sequences.list(),
    'sequences.get': ({ sequenceId }) => sequences.get(sequenceId),
    'sequences.create': ({ name }) => sequences.create(name),
    'sequences.rename': ({ sequenceId, name }) => sequences.rename(sequenceId, name),
    'sequences.delete': ({ sequenceId }) => sequences.delete(sequenceId),
    'sequences.addShot': ({ sequenceId, form, position }) => sequences.addShot(sequenceId, form, position),
    'sequences.moveShot': ({ sequenceId, shotId, toPosition }) =>
      sequences.moveShot(sequenceId, shotId, toPosition),
    'sequences.removeShot': ({ sequenceId, shotId }) => sequences.removeShot(sequenceId, shotId),
    'sequences.restoreShot': ({ sequenceId, shotId }) => sequences.restoreShot(sequenceId, shotId),
    'sequences.trimShot': ({ sequenceId, shotId, range }) => sequences.trimShot(sequenceId, shotId, range),
    'sequences.continueShot': (input) => sequences.continueShot(input),
    'sequences.bridgeShots': (input) => sequences.bridgeShots(input),
    'sequences.generate': ({ sequenceId, shotId }) => sequences.generate(sequenceId, shotId),
    'sequences.assemble': ({ sequenceId, crossfadeSeconds }) =>
      sequences.assemble(sequenceId, crossfadeSeconds),
    'sequences.soundtrack.get': ({ sequenceId }) => soundtrack.get(sequenceId),
    'sequences.soundtrack.setMusic': ({ sequenceId, jobRowId }) => soundtrack.setMusic(sequenceId, jobRowId),
    'sequences.soundtrack.generateMusic': ({ sequenceId, ...input }) =>
      soundtrack.generateMusic(sequenceId, input),
    'sequences.soundtrack.setLevels': ({ sequenceId, ...levels }) => soundtrack.setLevels(sequenceId, levels),
    'sequences.soundtrack.addVoice': ({ sequenceId, ...input }) => soundtrack.addVoice(sequenceId, input),
    'sequences.soundtrack.updateVoice': ({ sequenceId, lineId, ...change }) =>
      soundtrack.updateVoice(sequenceId, lineId, change),
    'sequences.soundtrack.removeVoice': ({ sequenceId, lineId }) =>
      soundtrack.removeVoice(sequenceId, lineId),
    'sequences.captions.update': ({ sequenceId, ...input }) => soundtrack.editCaption(sequenceId, input),
    'sequences.captions.export': ({ sequenceId }) => soundtrack.exportCaptions(sequenceId),
    'sequences.deliver': (request) => deliveries.deliver(request),
    'sequences.deliveries.list': ({ sequenceId }) => deliveries.list(sequenceId),
    'sequences.deliveries.cancel': ({ deliveryId }) => deliveries.cancel(deliveryId),
  };
}
