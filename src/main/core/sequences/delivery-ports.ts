/**
 * What a delivery needs of the sound track (issue 31), as narrow ports: the sequence's mix plan
 * and captions (the soundtrack feature answers them; tests give fakes), and the mixer that makes
 * the normalized sound and measures loudness (`media-tools/mix-soundtrack.ts`, SRT from
 * `media-tools/captions.ts`). The mix's shapes are the mixer's own (`SoundtrackMixInput`).
 */

import type { SoundtrackMixInput } from '../media-tools/mix-soundtrack.js';

export interface DeliveryCaptionCue {
  startSeconds: number;
  endSeconds: number;
  text: string;
}

/** A sequence's mix: music bed, voice lines, duck amount; `planKey` changes with any of them. */
export interface DeliveryMixPlan extends Pick<SoundtrackMixInput, 'music' | 'voices' | 'duckDb'> {
  planKey: string;
}

export interface DeliverySoundtrack {
  /** null when the sequence has no music and no voice: its own sound is still normalized. */
  mixPlanOf(sequenceId: string): Promise<DeliveryMixPlan | null>;
  /** [] when it has no captions. */
  captionsOf(sequenceId: string): Promise<DeliveryCaptionCue[]>;
}

export interface DeliveryMixer {
  mixSoundtrack(input: SoundtrackMixInput): Promise<{ path: string; integratedLufs: number }>;
  measureLoudness(path: string): Promise<{ integratedLufs: number }>;
  toSrt(cues: readonly DeliveryCaptionCue[]): string;
}
