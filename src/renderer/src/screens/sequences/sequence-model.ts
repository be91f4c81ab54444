import type { DraftForm, SequenceShotView, ServiceEntryView } from '../../../../shared/bridge/contract';
import { emptyDraftForm } from '../../../../shared/bridge/draft-form';
import { filmSeconds } from '../../../../shared/film-length';
import type { EffectiveLimits } from '../../../../shared/h3';
import { fitForm, limitsOf } from '../create/form-model';

/** A shot lasts 5 to 15 seconds (H3); the add-shot form offers only what the service allows within. */
export const SHOT_SECONDS_MIN = 5;
export const SHOT_SECONDS_MAX = 15;

/** The cross-fades offered when assembling (0: a straight cut). */
export const CROSSFADE_CHOICES = [0, 0.5, 1] as const;

/** What the add-shot form asks for; everything else comes from Create's defaults for the service. */
export interface ShotInput {
  prompt: string;
  seconds: number;
  orientation: string;
}

/** A shot can be continued (or bridged from) once its job brought a verified result. */
export function hasVerifiedResult(shot: SequenceShotView): boolean {
  return shot.state === 'succeeded' && shot.sha256 !== null && shot.mediaUrl !== null;
}

/**
 * How long the assembled film will last: the shots' lengths (trimmed, measured or asked for) less
 * one cross-fade per join — the assembly's own rule.
 */
export function filmLength(shots: readonly SequenceShotView[], crossfadeSeconds: number): number {
  return filmSeconds(
    shots.map((shot) => shotDuration(shot).seconds),
    crossfadeSeconds,
  );
}

/** A shot's length: its kept range when trimmed, else measured once generated, else the seconds asked for. */
export function shotDuration(shot: SequenceShotView): { seconds: number; measured: boolean } {
  if (shot.trim) return { seconds: shot.trim.seconds, measured: true };
  return shot.durationSeconds === null
    ? { seconds: shot.seconds, measured: false }
    : { seconds: shot.durationSeconds, measured: true };
}

/** Seconds as the screen shows them: `digits` decimals at most, without trailing zeros. */
export function formatSeconds(seconds: number, digits = 1): string {
  return `${Number(seconds.toFixed(digits))} s`;
}

export function promptExcerpt(prompt: string, max = 90): string {
  const text = prompt.replace(/\s+/gu, ' ').trim();
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** The service a new shot is made with: Create's choice (the first available one). */
export function shotService(services: readonly ServiceEntryView[]): ServiceEntryView | undefined {
  return services.find((s) => s.available);
}

/** The seconds a shot may have with this service: 5..15, within what its contract allows. */
export function shotSecondsChoices(limits: EffectiveLimits): number[] {
  const { values, min, max } = limits.seconds;
  const inRange = (s: number) => s >= SHOT_SECONDS_MIN && s <= SHOT_SECONDS_MAX;
  if (values?.length) return values.filter(inRange);
  const out: number[] = [];
  for (let s = Math.max(SHOT_SECONDS_MIN, Math.ceil(min)); s <= Math.min(SHOT_SECONDS_MAX, max); s += 1)
    out.push(s);
  return out;
}

/** The orientations a shot may have at this tier (as Create offers them). */
export function shotOrientations(limits: EffectiveLimits, resolutionTier: string): string[] {
  const fromCanvases = limits.canvasesFromContract ? Object.keys(limits.canvases[resolutionTier] ?? {}) : [];
  return fromCanvases.length ? fromCanvases : limits.orientations;
}

/**
 * The full draft form of a new text-to-video shot: Create's defaults for the service (model, tier,
 * the contract's extra parameters), with the creator's prompt, seconds and orientation.
 */
export function shotForm(service: ServiceEntryView, profileId: string, input: ShotInput): DraftForm {
  const limits = limitsOf(service);
  const base: DraftForm = {
    ...emptyDraftForm(profileId),
    generationMode: 't2v',
    prompt: input.prompt,
    seconds: input.seconds,
    orientation: input.orientation,
  };
  const fitted = fitForm(base, service, limits);
  // the creator's values stay as typed (the core checks them against the H3 rules and says why)
  return { ...fitted, prompt: input.prompt, seconds: input.seconds };
}

/**
 * Where a focused card moves on a key press: Alt+ArrowLeft one place earlier, Alt+ArrowRight one
 * later; null for any other key, or at either end.
 */
export function keyboardMoveTarget(
  key: string,
  altKey: boolean,
  position: number,
  count: number,
): number | null {
  if (!altKey) return null;
  if (key === 'ArrowLeft') return position > 0 ? position - 1 : null;
  if (key === 'ArrowRight') return position < count - 1 ? position + 1 : null;
  return null;
}
