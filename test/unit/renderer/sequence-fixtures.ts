/**
 * A sequence and its shots as the core answers them (`sequences.get`), and a delivery of it
 * (`deliveries.list`), for the renderer's tests.
 */
import type { DeliveryView, SequenceShotView, SequenceView } from '../../../src/shared/bridge/contract.js';

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
    seed: null,
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

/** A 16:9 delivery of the sequence, rendering; `patch` sets what a test needs. */
export function delivery(patch: Partial<DeliveryView> = {}): DeliveryView {
  return {
    deliveryId: 'd-1',
    sequenceId: 'seq-1',
    sequenceName: 'Harbour',
    preset: '16x9',
    fit: 'pad',
    width: 1920,
    height: 1080,
    loudnessTarget: -14,
    burnCaptions: false,
    state: 'rendering',
    progress: 0,
    mediaUrl: null,
    fileName: null,
    durationSeconds: null,
    byteSize: null,
    sha256: null,
    measuredLufs: null,
    errorMessage: null,
    createdAt: 1,
    reused: false,
    ...patch,
  };
}
