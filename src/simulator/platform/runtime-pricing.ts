import type { EffectiveMediaSpec } from '../../shared/api/media-jobs.js';

/** Amounts are integers; divide by 10^scale for credits. */
export const CREDIT_AMOUNT_SCALE = 2;
/** Simulated prices, in scaled credits (a local-simulation choice: the spec shows no price list). */
export const VIDEO_CREDITS_PER_SECOND = 150;
export const IMAGE_CREDITS_PER_IMAGE = 40;
/** Music and Foley, per generated second. */
export const AUDIO_CREDITS_PER_SECOND = 20;
/** Speech has no length before it is spoken: one price per request. */
export const SPEECH_CREDITS_PER_REQUEST = 30;

/** The dry-run's `estimatedCost` (and what resource usage counts for the job). */
export interface CostEstimate {
  resourceType: string;
  usage: number;
  unit: 'second' | 'image' | 'request';
  estimatedAmount: number;
  amountScale: number;
  currency: 'CREDIT';
}

function priced(serviceKind: string, usage: number, unit: CostEstimate['unit'], rate: number): CostEstimate {
  return {
    resourceType: serviceKind,
    usage,
    unit,
    estimatedAmount: usage * rate,
    amountScale: CREDIT_AMOUNT_SCALE,
    currency: 'CREDIT',
  };
}

/** The price of a job of `serviceKind` with this effective spec: per second, per image or per request. */
export function estimateCost(serviceKind: string, spec: EffectiveMediaSpec | undefined): CostEstimate {
  const seconds = spec?.seconds ?? 0;
  switch (serviceKind) {
    case 'image_generation': {
      const images = typeof spec?.imageCount === 'number' ? spec.imageCount : 1;
      return priced(serviceKind, images, 'image', IMAGE_CREDITS_PER_IMAGE);
    }
    case 'audio_generation':
      return spec?.generationMode === 'speech'
        ? priced(serviceKind, 1, 'request', SPEECH_CREDITS_PER_REQUEST)
        : priced(serviceKind, seconds, 'second', AUDIO_CREDITS_PER_SECOND);
    default:
      return priced(serviceKind, seconds, 'second', VIDEO_CREDITS_PER_SECOND);
  }
}
