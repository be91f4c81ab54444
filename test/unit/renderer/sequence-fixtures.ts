/** A sequence and its shots as the core answers them (`sequences.get`), for the renderer's tests. */
import type { SequenceShotView, SequenceView } from '../../../src/shared/bridge/contract.js';

export function shot(patch: Partial<SequenceShotView> = {}): SequenceShotView {
  return {
    shotId: 'shot-1',
    position: 0,
    label: 'Shot 1',
    draftId: 'draft-1',
    origin: 'new',
    sourceShotIds: [],
    prompt: 'A lighthouse at dusk',
    model: 'h3-video',
    generationMode: 't2v',
    seconds: 5,
    state: 'draft',
    jobRowId: null,
    jobId: null,
    errorMessage: null,
    durationSeconds: null,
    sha256: null,
    mediaUrl: null,
    posterUrl: null,
    firstFramePosterUrl: null,
    frameRate: null,
    frameCount: null,
    frameUrls: [],
    trim: null,
    ...patch,
  };
}

export function sequence(patch: Partial<SequenceView> = {}): SequenceView {
  return {
    sequenceId: 'seq-1',
    name: 'Harbour at dusk',
    shots: [],
    totalSeconds: 0,
    assemblable: false,
    assembly: null,
    assemblyCurrent: false,
    createdAt: 1,
    updatedAt: 1,
    ...patch,
  };
}
