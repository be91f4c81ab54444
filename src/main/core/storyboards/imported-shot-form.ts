import { contractParameterOf, readMediaSpec } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import { emptyDraftForm } from '../../../shared/bridge/draft-form.js';
import type { DraftForm, DraftMedia } from '../../../shared/bridge/domains/studio.js';
import { resolveEffectiveLimits } from '../../../shared/h3/effective-limits.js';
import { AppError } from '../errors.js';

const I2V = 'i2v';

/** The default video model for an imported shot: the first callable video service that takes image-to-video. */
export function importService(services: readonly ServiceEntry[]): ServiceEntry {
  const service = services.find(
    (s) =>
      s.available === true && I2V in resolveEffectiveLimits(s.mediaSpecContract, s.promptOptimization).modes,
  );
  if (!service)
    throw new AppError(
      'service.no_model_for_mode',
      'No available video model takes image-to-video here, so a board cannot become shots now.',
    );
  return service;
}

function pick<T>(allowed: readonly T[], wanted: unknown): T | undefined {
  return allowed.includes(wanted as T) ? (wanted as T) : allowed[0];
}

/**
 * An image-to-video shot of a panel: the service's defaults (model, tier, orientation, seconds,
 * extra parameters, as Create fills them), the panel's prompt and its image as the first frame.
 */
export function importedShotForm(
  service: ServiceEntry,
  profileId: string,
  prompt: string,
  firstFrame: DraftMedia,
): DraftForm {
  const limits = resolveEffectiveLimits(service.mediaSpecContract, service.promptOptimization);
  const spec = readMediaSpec(service.mediaSpecContract);
  const parameterDefault = (name: string) => contractParameterOf(spec, name)?.default;
  const secondsDefault = parameterDefault('seconds');
  const seconds = limits.seconds.values?.length
    ? (pick(limits.seconds.values, secondsDefault) ?? limits.seconds.min)
    : typeof secondsDefault === 'number' &&
        secondsDefault >= limits.seconds.min &&
        secondsDefault <= limits.seconds.max
      ? secondsDefault
      : limits.seconds.min;
  const extra: Record<string, unknown> = {};
  for (const p of limits.extraParameters) if (p.default !== undefined) extra[p.name] = p.default;
  return {
    ...emptyDraftForm(profileId),
    model: service.modelAlias,
    generationMode: I2V,
    prompt,
    resolutionTier: pick(limits.resolutionTiers, parameterDefault('resolutionTier')) ?? '',
    orientation: pick(limits.orientations, parameterDefault('orientation')) ?? '',
    seconds,
    extra,
    firstFrame,
  };
}
