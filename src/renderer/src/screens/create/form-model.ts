import { contractParameterOf, readMediaSpec } from '../../../../shared/api/contract-vocabulary';
import type { DraftForm, DraftMedia, ServiceEntryView } from '../../../../shared/bridge/contract';
import type { ContractParameter } from '../../../../shared/api/media-spec-contract';
import { resolveEffectiveLimits, type EffectiveLimits } from '../../../../shared/h3';

/** The rules of a service's live contract (document numbers where it is silent). */
export function limitsOf(service: ServiceEntryView): EffectiveLimits {
  return resolveEffectiveLimits(service.mediaSpecContract, service.promptOptimization);
}

/** The contract's own parameter for a core field (for its description and default). */
export function parameterOf(service: ServiceEntryView, name: string): ContractParameter | undefined {
  return contractParameterOf(readMediaSpec(service.mediaSpecContract), name);
}

function pick<T>(allowed: readonly T[], wanted: unknown, fallback?: unknown): T | undefined {
  if (allowed.includes(wanted as T)) return wanted as T;
  if (allowed.includes(fallback as T)) return fallback as T;
  return allowed[0];
}

/**
 * A form fitted to a service: values the contract does not allow are replaced by its defaults
 * (or first allowed value); references and frames are always kept.
 */
export function fitForm(form: DraftForm, service: ServiceEntryView, limits: EffectiveLimits): DraftForm {
  const modes = Object.keys(limits.modes);
  const seconds = limits.seconds;
  const secondsDefault = parameterOf(service, 'seconds')?.default;
  let s = form.seconds;
  if (seconds.values?.length) s = pick(seconds.values, s, secondsDefault) ?? s;
  else if (!(s >= seconds.min && s <= seconds.max))
    s = typeof secondsDefault === 'number' ? secondsDefault : seconds.min;
  const extra: Record<string, unknown> = { ...(form.extra ?? {}) };
  for (const p of limits.extraParameters) {
    if (extra[p.name] === undefined && p.default !== undefined) extra[p.name] = p.default;
  }
  return {
    ...form,
    model: service.modelAlias,
    generationMode:
      pick(modes, form.generationMode, parameterOf(service, 'generationMode')?.default) ??
      form.generationMode,
    resolutionTier:
      pick(limits.resolutionTiers, form.resolutionTier, parameterOf(service, 'resolutionTier')?.default) ??
      form.resolutionTier,
    orientation:
      pick(limits.orientations, form.orientation, parameterOf(service, 'orientation')?.default) ??
      form.orientation,
    seconds: s,
    extra,
  };
}

export { toVideoDraft } from '../../../../shared/bridge/draft-form';

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(0)} KiB`;
  return `${bytes} B`;
}

export function describeMedia(m: DraftMedia): string {
  const parts = [m.mimeType, formatBytes(m.byteSize)];
  if (m.width && m.height) parts.push(`${m.width}×${m.height}`);
  if (m.durationSeconds !== undefined) parts.push(`${m.durationSeconds.toFixed(1)} s`);
  return parts.join(' · ');
}
