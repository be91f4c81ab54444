import type { ServiceEntry } from '../../../../shared/api/discovery.js';
import { AppError } from '../../errors.js';
import { limitsFor } from '../../creating/submit-video.js';

/**
 * The video service to use when the caller named none: the one available `video_generation`
 * service whose contract offers `mode`. None, or several, is a usage error that lists what there
 * is, so the caller can pass `--model`.
 */
export function chooseVideoServiceForMode(services: ServiceEntry[], mode: string): ServiceEntry {
  const available = services.filter((s) => s.serviceKind === 'video_generation' && s.available !== false);
  const offering = available.filter((s) => Object.hasOwn(limitsFor(s).modes, mode));
  if (offering.length === 1) return offering[0]!;
  if (offering.length === 0) {
    throw new AppError(
      'service.no_model_for_mode',
      `No available video service offers mode "${mode}".${
        available.length
          ? ` Available video services: ${available.map((s) => `${s.modelAlias} (${Object.keys(limitsFor(s).modes).join(', ')})`).join('; ')}.`
          : ''
      }`,
    );
  }
  throw new AppError(
    'service.model_ambiguous',
    `Several available video services offer mode "${mode}": ${offering.map((s) => s.modelAlias).join(', ')}. Choose one with --model.`,
  );
}
