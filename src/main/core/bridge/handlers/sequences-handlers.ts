import type { sequencesMethods } from '../../../../shared/bridge/domains/sequences.js';
import type { SequencesFeature } from '../../sequences/sequences-feature.js';
import type { DomainHandlers } from './handler-context.js';

/** Sequences (issue 15): each method mapped onto the sequences feature. */
export function createSequencesHandlers(
  sequences: SequencesFeature,
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
    'sequences.trimShot': ({ sequenceId, shotId, range }) => sequences.trimShot(sequenceId, shotId, range),
    'sequences.continueShot': (input) => sequences.continueShot(input),
    'sequences.bridgeShots': (input) => sequences.bridgeShots(input),
    'sequences.generate': ({ sequenceId, shotId }) => sequences.generate(sequenceId, shotId),
    'sequences.assemble': ({ sequenceId, crossfadeSeconds }) =>
      sequences.assemble(sequenceId, crossfadeSeconds),
  };
}
