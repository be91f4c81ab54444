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

/** Word-level difference of two texts: which words of `after` are new. */
export function diffWords(before: string, after: string): { text: string; added: boolean }[] {
  const a = before.split(/(\s+)/u);
  const b = after.split(/(\s+)/u);
  // longest common subsequence over tokens (prompts are short: ≤ 7000 code points)
  const n = a.length;
  const m = b.length;
  if (n * m > 4_000_000) return [{ text: after, added: true }];
  const dp: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      dp[i]![j] = a[i] === b[j] ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const out: { text: string; added: boolean }[] = [];
  let i = 0;
  let j = 0;
  while (j < m) {
    if (i < n && a[i] === b[j]) {
      out.push({ text: b[j]!, added: false });
      i += 1;
      j += 1;
    } else if (i < n && dp[i + 1]![j]! >= dp[i]![j + 1]!) i += 1;
    else {
      out.push({ text: b[j]!, added: !/^\s+$/u.test(b[j]!) });
      j += 1;
    }
  }
  return out;
}
