/**
 * What a mode change leaves unused. Switching mode never deletes inputs: they stay in the
 * draft (and come back into use when switching back), but they are not sent, and the UI says so.
 */
import type { VideoDraft } from './draft.js';
import type { EffectiveLimits } from './effective-limits.js';
import { frameSlot, parameterApplies, validateDraft } from './validate-draft.js';
import type { Violation } from './violations.js';

export type UnusedInputCode =
  | 'mode_switch.first_frame_unused'
  | 'mode_switch.last_frame_unused'
  | 'mode_switch.references_unused'
  | 'mode_switch.field_unused';

export interface UnusedInput {
  code: UnusedInputCode;
  input: 'firstFrame' | 'lastFrame' | 'references' | 'field';
  /** For `references`: the ids kept but not used, in list order. */
  referenceIds?: string[];
  /** For `field`: the extra field kept but not sent. */
  field?: string;
  params: Record<string, string | number>;
  message: string;
}

export interface ModeSwitchDescription {
  from: string;
  to: string;
  /** False when the model does not offer `to`. */
  known: boolean;
  /** Inputs in the draft the new mode will not use (kept in the draft, never sent). */
  unused: UnusedInput[];
  /** What the new mode needs that the draft does not have yet (mode and composition violations). */
  missing: Violation[];
}

/** Inputs of `draft` that mode `mode` does not use (empty for an unknown mode: nothing is sent then). */
export function unusedInputs(draft: VideoDraft, mode: string, limits: EffectiveLimits): UnusedInput[] {
  const m = Object.hasOwn(limits.modes, mode) ? limits.modes[mode] : undefined;
  if (!m) return [];
  const out: UnusedInput[] = [];
  const usedSlots = new Set(
    Object.values(m.frames)
      .map((role) => frameSlot(role)?.slot)
      .filter((s) => s !== undefined),
  );
  if (draft.firstFrame && !usedSlots.has('firstFrame'))
    out.push({
      code: 'mode_switch.first_frame_unused',
      input: 'firstFrame',
      params: { mode, fileName: draft.firstFrame.fileName },
      message: `Mode "${mode}" does not use the first-frame image "${draft.firstFrame.fileName}"; it is kept but will not be sent.`,
    });
  if (draft.lastFrame && !usedSlots.has('lastFrame'))
    out.push({
      code: 'mode_switch.last_frame_unused',
      input: 'lastFrame',
      params: { mode, fileName: draft.lastFrame.fileName },
      message: `Mode "${mode}" does not use the last-frame image "${draft.lastFrame.fileName}"; it is kept but will not be sent.`,
    });
  const refs = draft.references ?? [];
  if (refs.length > 0 && !m.referenceInputs)
    out.push({
      code: 'mode_switch.references_unused',
      input: 'references',
      referenceIds: refs.map((r) => r.id),
      params: { mode, count: refs.length },
      message: `Mode "${mode}" does not use references; the ${refs.length} reference${refs.length === 1 ? ' is' : 's are'} kept but will not be sent.`,
    });
  for (const p of limits.extraParameters) {
    const value = draft.extra?.[p.name];
    if (value === undefined || value === null || parameterApplies(p, mode)) continue;
    out.push({
      code: 'mode_switch.field_unused',
      input: 'field',
      field: p.name,
      params: { mode, field: p.name },
      message: `Mode "${mode}" does not use "${p.name}"; its value is kept but will not be sent.`,
    });
  }
  return out;
}

/** Describe switching `draft` to `newMode`: what will not be used, and what is still missing. */
export function describeModeSwitch(
  draft: VideoDraft,
  newMode: string,
  limits: EffectiveLimits,
): ModeSwitchDescription {
  const known = Object.hasOwn(limits.modes, newMode);
  const missing = validateDraft({ ...draft, generationMode: newMode }, limits).filter(
    (v) => v.code.startsWith('mode.') || v.code === 'references.visual_required',
  );
  return {
    from: draft.generationMode,
    to: newMode,
    known,
    unused: unusedInputs(draft, newMode, limits),
    missing,
  };
}
