/**
 * `validateDraft`: every H3 rule a video draft must satisfy before it can be sent, as data.
 *
 * Only what the selected mode uses is checked: inputs kept in the draft from another mode
 * (e.g. references while in `i2v`) are never sent and are reported by `describeModeSwitch` /
 * `unusedInputs`, not here. Prompt citations of missing references are a warning
 * (`findStaleLabels`), not a violation.
 */
import type { ContractParameter } from '../api/media-spec-contract.js';
import { countPromptCodePoints } from './code-points.js';
import type { MediaKind, ProbedReference, VideoDraft } from './draft.js';
import { ROLE_BY_KIND, isQuickTime, normalizeMimeType } from './draft.js';
import type { EffectiveLimits, ModeLimits, NumberLimits, RoleLimits } from './effective-limits.js';
import { CORE_FIELDS, isForbiddenField } from './effective-limits.js';
import { numberReferences } from './reference-numbering.js';
import { keptReference } from './reference-trim.js';
import type { Violation, ViolationCode, ViolationTarget } from './violations.js';
import { formatBytes, formatSeconds, listOf, sameTarget, violation } from './violations.js';

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Durations are compared at microsecond precision so float sums (7.1 + 7.9) do not drift. */
function roundSeconds(s: number): number {
  return Math.round(s * 1e6) / 1e6;
}

function modeOf(limits: EffectiveLimits, mode: string): ModeLimits | undefined {
  return Object.hasOwn(limits.modes, mode) ? limits.modes[mode] : undefined;
}

function roleLimits(limits: EffectiveLimits, role: string): RoleLimits | undefined {
  return Object.hasOwn(limits.uploadLimits, role) ? limits.uploadLimits[role] : undefined;
}

export function validatePrompt(prompt: string, limits: EffectiveLimits): Violation[] {
  const { minCodePoints: min, maxCodePoints: max, trim } = limits.prompt;
  const count = countPromptCodePoints(typeof prompt === 'string' ? prompt : '', trim);
  const params = { count, min, max };
  if (count === 0 && min > 0)
    return [
      violation(
        'prompt.empty',
        'prompt',
        params,
        'Write a prompt: it is empty (white space alone does not count).',
      ),
    ];
  if (count < min)
    return [
      violation(
        'prompt.too_short',
        'prompt',
        params,
        `The prompt has ${count} characters; write at least ${min}.`,
      ),
    ];
  if (count > max)
    return [
      violation(
        'prompt.too_long',
        'prompt',
        params,
        `The prompt has ${count} characters (Unicode code points); the limit is ${max}. Shorten it by ${count - max}.`,
      ),
    ];
  return [];
}

function validateNumber(
  name: 'seconds' | 'seed',
  value: unknown,
  l: NumberLimits,
  what: string,
  codes: { notInteger: ViolationCode; range: ViolationCode; notAllowed: ViolationCode },
): Violation[] {
  const shown = typeof value === 'number' ? value : String(value);
  if (typeof value !== 'number' || !Number.isFinite(value) || (l.integer && !Number.isInteger(value)))
    return [
      violation(
        codes.notInteger,
        name,
        { value: shown, min: l.min, max: l.max },
        `${what} must be ${l.integer ? 'a whole number' : 'a number'} from ${l.min} to ${l.max}; ${shown} is not.`,
      ),
    ];
  if (l.values && !l.values.includes(value))
    return [
      violation(
        codes.notAllowed,
        name,
        { value, allowed: listOf(l.values) },
        `${what} ${value} is not offered; choose one of ${listOf(l.values)}.`,
      ),
    ];
  if (value < l.min || value > l.max)
    return [
      violation(
        codes.range,
        name,
        { value, min: l.min, max: l.max },
        `${what} must be from ${l.min} to ${l.max}; ${value} is out of range.`,
      ),
    ];
  return [];
}

export function validateSeconds(seconds: unknown, limits: EffectiveLimits): Violation[] {
  return validateNumber('seconds', seconds, limits.seconds, 'Duration (seconds)', {
    notInteger: 'seconds.not_integer',
    range: 'seconds.out_of_range',
    notAllowed: 'seconds.not_allowed',
  });
}

/** `undefined`/`null` = the platform decides (valid). */
export function validateSeed(seed: unknown, limits: EffectiveLimits): Violation[] {
  if (seed === undefined || seed === null) return [];
  return validateNumber('seed', seed, limits.seed, 'Seed', {
    notInteger: 'seed.not_integer',
    range: 'seed.out_of_range',
    notAllowed: 'seed.not_allowed',
  });
}

function validateEnum(
  target: 'orientation' | 'resolutionTier',
  code: ViolationCode,
  value: unknown,
  allowed: readonly string[],
  what: string,
): Violation[] {
  if (typeof value === 'string' && allowed.includes(value)) return [];
  const shown = typeof value === 'string' ? value : String(value);
  return [
    violation(
      code,
      target,
      { value: shown, allowed: listOf(allowed) },
      `${what} "${shown}" is not offered by this model; choose one of ${listOf(allowed)}.`,
    ),
  ];
}

const FRAME_SLOTS: Readonly<Record<string, { slot: 'firstFrame' | 'lastFrame'; name: string }>> = {
  first_frame: { slot: 'firstFrame', name: 'first-frame image' },
  last_frame: { slot: 'lastFrame', name: 'last-frame image' },
};

export function frameSlot(role: string): { slot: 'firstFrame' | 'lastFrame'; name: string } | undefined {
  return Object.hasOwn(FRAME_SLOTS, role) ? FRAME_SLOTS[role] : undefined;
}

function validateFrames(
  draft: VideoDraft,
  mode: string,
  m: ModeLimits,
  limits: EffectiveLimits,
): Violation[] {
  const out: Violation[] = [];
  for (const [field, role] of Object.entries(m.frames)) {
    const slot = frameSlot(role);
    if (!slot) {
      out.push(
        violation(
          'mode.input_unsupported',
          'generationMode',
          { mode, field, role },
          `Mode "${mode}" needs a "${role}" input that this app cannot provide yet; choose another mode.`,
        ),
      );
      continue;
    }
    const media = draft[slot.slot];
    if (!media) {
      const code = slot.slot === 'firstFrame' ? 'mode.first_frame_required' : 'mode.last_frame_required';
      out.push(
        violation(code, slot.slot, { mode, role }, `Add a ${slot.name}: mode "${mode}" requires one.`),
      );
      continue;
    }
    const rl = roleLimits(limits, role);
    if (!rl) continue;
    const mime = normalizeMimeType(media.mimeType);
    if (!rl.formats.includes(mime))
      out.push(
        violation(
          'frame.format',
          slot.slot,
          { role, fileName: media.fileName, mimeType: mime, allowed: listOf(rl.formats) },
          `The ${slot.name} "${media.fileName}" is ${mime}; use one of ${listOf(rl.formats)}.`,
        ),
      );
    if (!(media.byteSize <= rl.maxBytes))
      out.push(
        violation(
          'frame.too_large',
          slot.slot,
          { role, fileName: media.fileName, byteSize: media.byteSize, maxBytes: rl.maxBytes },
          `The ${slot.name} "${media.fileName}" is ${formatBytes(media.byteSize)}; the limit is ${formatBytes(rl.maxBytes)} (${rl.maxBytes} bytes).`,
        ),
      );
  }
  return out;
}

function validateReferenceItem(
  ref: ProbedReference,
  label: string,
  kind: MediaKind,
  role: string,
  limits: EffectiveLimits,
): Violation[] {
  const out: Violation[] = [];
  const target: ViolationTarget = { referenceId: ref.id };
  const base = { referenceId: ref.id, label, role, fileName: ref.fileName };
  const rl = roleLimits(limits, role);
  if (!rl) return out;
  const mime = normalizeMimeType(ref.mimeType);
  if (!rl.formats.includes(mime)) {
    if (isQuickTime(ref) && kind === 'video')
      out.push(
        violation(
          'reference.mov_without_audio',
          target,
          { ...base, mimeType: mime },
          `${label} "${ref.fileName}" is a .mov without an audio track; a .mov is accepted only as a reference audio (with an audio track). Use an MP4 video instead.`,
        ),
      );
    else
      out.push(
        violation(
          'reference.format',
          target,
          { ...base, mimeType: mime, allowed: listOf(rl.formats) },
          `${label} "${ref.fileName}" is ${mime}; ${article(kind)} ${kind} reference must be one of ${listOf(rl.formats)}.`,
        ),
      );
  }
  if (!(ref.byteSize <= rl.maxBytes))
    out.push(
      violation(
        'reference.too_large',
        target,
        { ...base, byteSize: ref.byteSize, maxBytes: rl.maxBytes },
        `${label} "${ref.fileName}" is ${formatBytes(ref.byteSize)}; ${article(kind)} ${kind} reference may be at most ${formatBytes(rl.maxBytes)} (${rl.maxBytes} bytes).`,
      ),
    );
  if (rl.minSeconds !== undefined || rl.maxSeconds !== undefined) {
    const d = ref.durationSeconds;
    const min = rl.minSeconds ?? 0;
    const max = rl.maxSeconds ?? Number.POSITIVE_INFINITY;
    if (typeof d !== 'number' || !Number.isFinite(d))
      out.push(
        violation(
          'reference.duration_unknown',
          target,
          base,
          `The duration of ${label} "${ref.fileName}" could not be read; replace it with a file whose length can be checked.`,
        ),
      );
    else if (roundSeconds(d) < min)
      out.push(
        violation(
          `reference.${kind}_too_short`,
          target,
          { ...base, durationSeconds: d, minSeconds: min, maxSeconds: rl.maxSeconds ?? '' },
          `${label} "${ref.fileName}" lasts ${formatSeconds(d)} s; each ${kind} reference must last at least ${min} s.`,
        ),
      );
    else if (roundSeconds(d) > max)
      out.push(
        violation(
          `reference.${kind}_too_long`,
          target,
          { ...base, durationSeconds: d, minSeconds: rl.minSeconds ?? '', maxSeconds: max },
          `${label} "${ref.fileName}" lasts ${formatSeconds(d)} s; each ${kind} reference may last at most ${max} s. Trim it.`,
        ),
      );
  }
  return out;
}

function validateReferences(draft: VideoDraft, m: ModeLimits, limits: EffectiveLimits): Violation[] {
  const comp = m.referenceInputs;
  if (!comp) return [];
  // a trimmed reference is judged by its kept range: that is all that is sent
  const refs = (draft.references ?? []).map(keptReference);
  const numbering = numberReferences(refs);
  const out: Violation[] = [];
  const count: Record<MediaKind, number> = { image: 0, video: 0, audio: 0 };
  for (const n of numbering) count[n.kind]++;
  const total = refs.length;
  const counts = { images: count.image, videos: count.video, audios: count.audio, items: total };

  if (total > comp.maxItems)
    out.push(
      violation(
        'references.too_many_items',
        'references',
        { ...counts, count: total, max: comp.maxItems },
        `There are ${total} references; at most ${comp.maxItems} are allowed. Remove ${total - comp.maxItems}.`,
      ),
    );
  const maxImages = count.video > 0 ? comp.maxImagesWithVideo : comp.maxImages;
  if (count.image > maxImages)
    out.push(
      violation(
        'references.too_many_images',
        'references',
        { ...counts, count: count.image, max: maxImages },
        count.video > 0
          ? `There are ${count.image} reference images with a video; at most ${maxImages} are allowed alongside a video. Remove ${count.image - maxImages} image(s) or the video.`
          : `There are ${count.image} reference images; at most ${maxImages} are allowed. Remove ${count.image - maxImages}.`,
      ),
    );
  if (count.video > comp.maxVideos)
    out.push(
      violation(
        'references.too_many_videos',
        'references',
        { ...counts, count: count.video, max: comp.maxVideos },
        `There are ${count.video} reference videos; at most ${comp.maxVideos} ${comp.maxVideos === 1 ? 'is' : 'are'} allowed. Remove ${count.video - comp.maxVideos}.`,
      ),
    );
  if (count.audio > comp.maxAudios)
    out.push(
      violation(
        'references.too_many_audios',
        'references',
        { ...counts, count: count.audio, max: comp.maxAudios },
        `There are ${count.audio} reference audio clips; at most ${comp.maxAudios} are allowed. Remove ${count.audio - comp.maxAudios}.`,
      ),
    );
  if (count.image + count.video < comp.minVisual)
    out.push(
      violation(
        'references.visual_required',
        'references',
        { ...counts, min: comp.minVisual },
        count.audio > 0
          ? 'Audio alone is not enough: add at least one reference image or video.'
          : 'Add at least one reference image or video for this mode.',
      ),
    );

  // Combined duration per kind, where the role publishes one (H3: audio, 15 s together).
  for (const kind of ['image', 'video', 'audio'] as const) {
    const rl = roleLimits(limits, ROLE_BY_KIND[kind]);
    if (rl?.maxTotalSeconds === undefined) continue;
    const durations = refs
      .filter((_, i) => numbering[i]?.kind === kind)
      .map((r) => r.durationSeconds)
      .filter((d): d is number => typeof d === 'number' && Number.isFinite(d));
    const sum = roundSeconds(durations.reduce((a, b) => a + b, 0));
    if (sum > rl.maxTotalSeconds)
      out.push(
        violation(
          `references.${kind}_total_too_long`,
          'references',
          { totalSeconds: sum, maxTotalSeconds: rl.maxTotalSeconds },
          `The ${kind} references last ${formatSeconds(sum)} s together; the limit is ${rl.maxTotalSeconds} s. Shorten or remove a clip.`,
        ),
      );
  }

  // Per item, in list order: format, size, duration, then duplicates of an earlier item.
  const seenIds = new Map<string, string>();
  const seenHashes = new Map<string, string>();
  refs.forEach((ref, i) => {
    const n = numbering[i];
    if (!n) return;
    out.push(...validateReferenceItem(ref, n.label, n.kind, n.role, limits));
    const hash = typeof ref.sha256 === 'string' && ref.sha256 !== '' ? ref.sha256.toLowerCase() : undefined;
    const dupOf = seenIds.get(ref.id) ?? (hash ? seenHashes.get(hash) : undefined);
    if (dupOf !== undefined) {
      const by = seenIds.has(ref.id) ? 'id' : 'sha256';
      out.push(
        violation(
          'reference.duplicate',
          { referenceId: ref.id },
          { referenceId: ref.id, label: n.label, fileName: ref.fileName, duplicateOf: dupOf, by },
          `${n.label} "${ref.fileName}" is the same file as ${dupOf}; each reference may be used once. Remove one.`,
        ),
      );
    }
    if (!seenIds.has(ref.id)) seenIds.set(ref.id, n.label);
    if (hash && !seenHashes.has(hash)) seenHashes.set(hash, n.label);
  });
  return out;
}

/** Whether a contract parameter applies to `mode` (no `modes` list = every mode). */
export function parameterApplies(p: ContractParameter, mode: string): boolean {
  return !p.modes || p.modes.length === 0 || p.modes.includes(mode);
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null;
}

function validateExtraValue(name: string, value: unknown, p: ContractParameter): Violation[] {
  const target = { field: name };
  const type = p.type.toLowerCase();
  const shown = typeof value === 'object' ? JSON.stringify(value) : String(value);
  const bad = (
    code: ViolationCode,
    params: Record<string, string | number>,
    message: string,
  ): Violation[] => [violation(code, target, { field: name, value: shown, ...params }, message)];
  if (
    p.values &&
    p.values.length > 0 &&
    (type === 'enum' || typeof value === 'string' || typeof value === 'number')
  ) {
    if (!p.values.some((v) => v === value))
      return bad(
        'field.not_allowed',
        { allowed: listOf(p.values) },
        `"${name}" cannot be ${shown}; choose one of ${listOf(p.values)}.`,
      );
    return [];
  }
  if (type === 'integer' || type === 'number') {
    if (
      typeof value !== 'number' ||
      !Number.isFinite(value) ||
      (type === 'integer' && !Number.isInteger(value))
    )
      return bad(
        'field.invalid_type',
        { type },
        `"${name}" must be ${type === 'integer' ? 'a whole number' : 'a number'}.`,
      );
    if ((p.minimum !== undefined && value < p.minimum) || (p.maximum !== undefined && value > p.maximum))
      return bad(
        'field.out_of_range',
        { min: p.minimum ?? '', max: p.maximum ?? '' },
        `"${name}" must be from ${p.minimum ?? '-∞'} to ${p.maximum ?? '∞'}; ${shown} is out of range.`,
      );
    return [];
  }
  if (type === 'boolean') {
    return typeof value === 'boolean'
      ? []
      : bad('field.invalid_type', { type }, `"${name}" must be on or off.`);
  }
  if (type === 'string') {
    if (typeof value !== 'string') return bad('field.invalid_type', { type }, `"${name}" must be text.`);
    if (p.maxLength !== undefined && [...value].length > p.maxLength)
      return bad(
        'field.too_long',
        { maxLength: p.maxLength, length: [...value].length },
        `"${name}" may be at most ${p.maxLength} characters.`,
      );
  }
  return [];
}

function validateExtra(draft: VideoDraft, limits: EffectiveLimits): Violation[] {
  const out: Violation[] = [];
  const extra = draft.extra ?? {};
  const byName = new Map(limits.extraParameters.map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(extra)) {
    // An unset value (undefined/null) is not sent, so it cannot break a rule.
    if (!isSet(value)) continue;
    if (isForbiddenField(name, limits)) {
      out.push(
        violation(
          'field.forbidden',
          { field: name },
          { field: name },
          `"${name}" must not be sent to this model (the platform decides it); remove it.`,
        ),
      );
      continue;
    }
    if (CORE_FIELDS.includes(name)) {
      out.push(
        violation(
          'field.reserved',
          { field: name },
          { field: name },
          `"${name}" is set by its own control, not as an extra field; remove it from the extra fields.`,
        ),
      );
      continue;
    }
    const p = byName.get(name);
    if (!p) {
      out.push(
        violation(
          'field.unknown',
          { field: name },
          { field: name },
          `"${name}" is not a field this model publishes; remove it.`,
        ),
      );
      continue;
    }
    if (!parameterApplies(p, draft.generationMode)) continue;
    out.push(...validateExtraValue(name, value, p));
  }
  const required = new Set([
    ...limits.extraParameters.filter((p) => p.required === true).map((p) => p.name),
    ...limits.requiredFields.filter((f) => !CORE_FIELDS.includes(f)),
  ]);
  for (const name of required) {
    const p = byName.get(name);
    if (p && !parameterApplies(p, draft.generationMode)) continue;
    if (isForbiddenField(name, limits)) continue;
    if (!isSet(extra[name]))
      out.push(
        violation(
          'field.required',
          { field: name },
          { field: name },
          `Set "${name}": this model requires it.`,
        ),
      );
  }
  return out;
}

/**
 * All violations of `draft` under `limits`, in a stable order (model, mode, prompt, seconds,
 * seed, orientation, resolution tier, frames, references, extra fields). Empty = sendable.
 */
export function validateDraft(draft: VideoDraft, limits: EffectiveLimits): Violation[] {
  const out: Violation[] = [];
  if (typeof draft.model !== 'string' || draft.model.trim() === '')
    out.push(violation('model.required', { field: 'model' }, {}, 'Choose a model.'));
  const mode = modeOf(limits, draft.generationMode);
  if (!mode)
    out.push(
      violation(
        'mode.unknown',
        'generationMode',
        { value: String(draft.generationMode), allowed: listOf(Object.keys(limits.modes)) },
        `Mode "${String(draft.generationMode)}" is not offered by this model; choose one of ${listOf(Object.keys(limits.modes))}.`,
      ),
    );
  out.push(...validatePrompt(draft.prompt, limits));
  out.push(...validateSeconds(draft.seconds, limits));
  out.push(...validateSeed(draft.seed, limits));
  out.push(
    ...validateEnum(
      'orientation',
      'orientation.invalid',
      draft.orientation,
      limits.orientations,
      'Orientation',
    ),
  );
  out.push(
    ...validateEnum(
      'resolutionTier',
      'resolutionTier.invalid',
      draft.resolutionTier,
      limits.resolutionTiers,
      'Resolution tier',
    ),
  );
  if (
    limits.canvasesFromContract &&
    limits.orientations.includes(draft.orientation) &&
    limits.resolutionTiers.includes(draft.resolutionTier) &&
    Object.hasOwn(limits.canvases, draft.resolutionTier) &&
    !Object.hasOwn(limits.canvases[draft.resolutionTier] ?? {}, draft.orientation)
  ) {
    const offered = Object.keys(limits.canvases[draft.resolutionTier] ?? {});
    out.push(
      violation(
        'orientation.not_for_tier',
        'orientation',
        { value: draft.orientation, resolutionTier: draft.resolutionTier, allowed: listOf(offered) },
        `Resolution tier ${draft.resolutionTier} is not offered in ${draft.orientation}; choose ${listOf(offered)} or another tier.`,
      ),
    );
  }
  if (mode) {
    out.push(...validateFrames(draft, draft.generationMode, mode, limits));
    out.push(...validateReferences(draft, mode, limits));
  }
  out.push(...validateExtra(draft, limits));
  return out;
}

/** Violations of one target (e.g. a reference card), for showing next to the offending item. */
export function violationsFor(violations: readonly Violation[], target: ViolationTarget): Violation[] {
  return violations.filter((v) => sameTarget(v.target, target));
}
