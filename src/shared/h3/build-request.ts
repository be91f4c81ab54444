/**
 * Request bodies for `POST /media/generations` and `POST /media/prompt-optimizations`, built
 * only from a valid draft: both builders throw `DraftInvalidError` (listing every violation)
 * instead of returning something the platform would reject, so main can never send an
 * invalid request.
 *
 * Prompt: sent exactly as written (never trimmed, never truncated). The spec states the limit
 * "after trimming", i.e. the platform measures the trimmed text; we validate the same way and
 * keep the creator's text byte-for-byte, so the canonical request persisted for idempotent
 * replay is exactly what the creator saw.
 */
import type { MediaKind, ProbedMedia, ReferenceRole, VideoDraft } from './draft.js';
import type { EffectiveLimits } from './effective-limits.js';
import { isForbiddenField, optimizationRolesFor } from './effective-limits.js';
import { countCodePoints, countPromptCodePoints } from './code-points.js';
import { numberReferences } from './reference-numbering.js';
import { frameSlot, parameterApplies, validateDraft } from './validate-draft.js';
import type { Violation, ViolationTarget } from './violations.js';
import { DraftInvalidError, violation } from './violations.js';

export interface MediaReferenceInput {
  role: ReferenceRole;
  assetId: string;
  mediaType: MediaKind;
}

/** Top-level body of `POST /media/generations` (no envelope). Frame fields are named by the mode's contract. */
export interface MediaGenerationRequestBody {
  model: string;
  generationMode: string;
  prompt: string;
  resolutionTier: string;
  orientation: string;
  seconds: number;
  seed?: number;
  input_image_asset_id?: string;
  end_image_asset_id?: string;
  referenceInputs?: MediaReferenceInput[];
  /** Other contract parameters from `draft.extra` that apply to the mode. */
  [field: string]: unknown;
}

export type OptimizationRole = 'first_frame' | 'last_frame' | ReferenceRole | (string & {});

export interface OptimizationReferenceInput {
  role: OptimizationRole;
  assetId: string;
}

export interface PromptOptimizationRequestBody {
  clientRequestId: string;
  model: string;
  generationMode: string;
  originalPrompt: string;
  mediaSpec: { resolutionTier: string; orientation: string; seconds: number };
  referenceInputs: OptimizationReferenceInput[];
  audioReferencePolicy?: 'preserve_without_understanding';
  style?: string;
}

export interface OptimizationOptions {
  /** 8..128 of `[A-Za-z0-9._:-]`; also the `Idempotency-Key`. One value per business optimization. */
  clientRequestId: string;
  /** Optional creative style; sent trimmed; empty / white space only = not sent. */
  style?: string | null;
}

/** localId -> uploaded assetId. */
export type UploadedAssets = ReadonlyMap<string, string>;

interface ResolvedInputs {
  frames: { field: string; role: string; assetId: string }[];
  references: MediaReferenceInput[];
  violations: Violation[];
}

function resolveInputs(draft: VideoDraft, uploaded: UploadedAssets, limits: EffectiveLimits): ResolvedInputs {
  const out: ResolvedInputs = { frames: [], references: [], violations: [] };
  const mode = Object.hasOwn(limits.modes, draft.generationMode)
    ? limits.modes[draft.generationMode]
    : undefined;
  if (!mode) return out;
  const missing = (target: ViolationTarget, media: ProbedMedia, label: string): void => {
    out.violations.push(
      violation(
        'upload.missing',
        target,
        { localId: media.id, fileName: media.fileName, label },
        `${label} "${media.fileName}" has not been uploaded yet; upload it (again, if it expired) before sending.`,
      ),
    );
  };
  for (const [field, role] of Object.entries(mode.frames)) {
    const slot = frameSlot(role);
    const media = slot ? draft[slot.slot] : undefined;
    if (!slot || !media) continue; // reported by validateDraft
    const assetId = uploaded.get(media.id);
    if (assetId === undefined || assetId === '') missing(slot.slot, media, `The ${slot.name}`);
    else out.frames.push({ field, role, assetId });
  }
  if (mode.referenceInputs) {
    const refs = draft.references ?? [];
    const numbering = numberReferences(refs);
    const assetOwner = new Map<string, string>();
    refs.forEach((ref, i) => {
      const n = numbering[i];
      if (!n) return;
      const assetId = uploaded.get(ref.id);
      if (assetId === undefined || assetId === '') return missing({ referenceId: ref.id }, ref, n.label);
      const owner = assetOwner.get(assetId);
      if (owner !== undefined && owner !== ref.id) {
        out.violations.push(
          violation(
            'upload.duplicate_asset',
            { referenceId: ref.id },
            { referenceId: ref.id, label: n.label, fileName: ref.fileName, assetId },
            `${n.label} "${ref.fileName}" uploaded as the same asset as another reference; each reference may be used once. Remove one.`,
          ),
        );
        return;
      }
      assetOwner.set(assetId, ref.id);
      out.references.push({ role: n.role, assetId, mediaType: n.kind });
    });
  }
  return out;
}

/**
 * The exact JSON body for `POST /media/generations`: top-level fields in a fixed order
 * (model, generationMode, prompt, resolutionTier, orientation, seconds, seed when set, the
 * contract's other parameters that apply to the mode, frame asset ids, `referenceInputs` in
 * list order). Inputs the mode does not use are not sent. Throws `DraftInvalidError`.
 */
export function buildMediaGenerationRequest(
  draft: VideoDraft,
  uploaded: UploadedAssets,
  limits: EffectiveLimits,
): MediaGenerationRequestBody {
  const violations = validateDraft(draft, limits);
  const inputs = resolveInputs(draft, uploaded, limits);
  violations.push(...inputs.violations);
  if (violations.length > 0) throw new DraftInvalidError(violations);

  const body: MediaGenerationRequestBody = {
    model: draft.model,
    generationMode: draft.generationMode,
    prompt: draft.prompt,
    resolutionTier: draft.resolutionTier,
    orientation: draft.orientation,
    seconds: draft.seconds,
  };
  if (draft.seed !== undefined && draft.seed !== null) body.seed = draft.seed;
  const byName = new Map(limits.extraParameters.map((p) => [p.name, p]));
  for (const [name, value] of Object.entries(draft.extra ?? {})) {
    const p = byName.get(name);
    if (value === undefined || value === null || !p || !parameterApplies(p, draft.generationMode)) continue;
    if (isForbiddenField(name, limits)) continue; // unreachable after validation; belt and braces
    body[name] = value;
  }
  for (const f of inputs.frames) body[f.field] = f.assetId;
  if (limits.modes[draft.generationMode]?.referenceInputs) body.referenceInputs = inputs.references;
  return body;
}

const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]+$/;

/**
 * The exact JSON body for `POST /media/prompt-optimizations` (`additionalProperties: false`):
 * frame roles `first_frame`/`last_frame` for frame modes, reference roles for universal
 * references (items only `{role, assetId}`, list order), `audioReferencePolicy` when audio
 * references are present, `mediaSpec` with only resolutionTier/orientation/seconds, optional
 * `style`. Seed and extra fields are not part of an optimization and are not checked here.
 * Throws `DraftInvalidError`.
 */
export function buildOptimizationRequest(
  draft: VideoDraft,
  uploaded: UploadedAssets,
  limits: EffectiveLimits,
  options: OptimizationOptions,
): PromptOptimizationRequestBody {
  const opt = limits.optimization;
  const violations = validateDraft(draft, limits).filter(
    (v) =>
      v.target !== 'seed' &&
      !(typeof v.target === 'object' && 'field' in v.target && v.code !== 'model.required'),
  );
  if (!opt.available)
    violations.push(
      violation(
        'optimization.unavailable',
        'generationMode',
        {},
        'This model does not offer prompt optimization.',
      ),
    );
  else if (!opt.modes.includes(draft.generationMode))
    violations.push(
      violation(
        'optimization.mode_unsupported',
        'generationMode',
        { mode: draft.generationMode, allowed: opt.modes.join(', ') },
        `Prompt optimization is not offered for mode "${draft.generationMode}".`,
      ),
    );
  const mode = Object.hasOwn(limits.modes, draft.generationMode)
    ? limits.modes[draft.generationMode]
    : undefined;
  const promptCount = countPromptCodePoints(draft.prompt, limits.prompt.trim);
  const op = opt.originalPrompt;
  if (
    (promptCount < op.minCodePoints || promptCount > op.maxCodePoints) &&
    !violations.some((v) => v.target === 'prompt')
  )
    violations.push(
      violation(
        'optimization.prompt_length',
        'prompt',
        { count: promptCount, min: op.minCodePoints, max: op.maxCodePoints },
        `Prompt optimization takes prompts of ${op.minCodePoints} to ${op.maxCodePoints} characters; this one has ${promptCount}.`,
      ),
    );
  const id = options.clientRequestId;
  if (
    typeof id !== 'string' ||
    id.length < opt.clientRequestId.minLength ||
    id.length > opt.clientRequestId.maxLength ||
    !CLIENT_REQUEST_ID.test(id) ||
    !new RegExp(opt.clientRequestId.pattern, 'u').test(id)
  )
    violations.push(
      violation(
        'optimization.client_request_id',
        { field: 'clientRequestId' },
        { value: String(id), min: opt.clientRequestId.minLength, max: opt.clientRequestId.maxLength },
        `The optimization request id must be ${opt.clientRequestId.minLength}..${opt.clientRequestId.maxLength} characters of A-Z, a-z, 0-9, ".", "_", ":" or "-".`,
      ),
    );
  const style =
    typeof options.style === 'string' && options.style.trim() !== '' ? options.style.trim() : undefined;
  if (style !== undefined) {
    const n = countCodePoints(style);
    if (!opt.styleAllowed)
      violations.push(
        violation(
          'optimization.style_not_allowed',
          { field: 'style' },
          {},
          'This optimization profile takes no style; clear the style field.',
        ),
      );
    else if (n < opt.style.minCodePoints || n > opt.style.maxCodePoints)
      violations.push(
        violation(
          'optimization.style_length',
          { field: 'style' },
          { count: n, min: opt.style.minCodePoints, max: opt.style.maxCodePoints },
          `The style has ${n} characters; it must have ${opt.style.minCodePoints} to ${opt.style.maxCodePoints}.`,
        ),
      );
  }

  const inputs = resolveInputs(draft, uploaded, limits);
  violations.push(...inputs.violations);
  const items: OptimizationReferenceInput[] = [
    ...inputs.frames.map((f) => ({ role: f.role, assetId: f.assetId })),
    ...inputs.references.map((r) => ({ role: r.role, assetId: r.assetId })),
  ];
  const typed = optimizationRolesFor(limits, draft.generationMode);
  const perRole = new Map<string, number>();
  for (const item of items) perRole.set(item.role, (perRole.get(item.role) ?? 0) + 1);
  const hasVideo = (perRole.get('reference_video') ?? 0) > 0;
  const alreadyMissing = violations.some((v) => v.code.startsWith('mode.') || v.code === 'upload.missing');
  for (const [role, r] of Object.entries(typed.roles)) {
    const count = perRole.get(role) ?? 0;
    const max = hasVideo && r.maxWithVideo !== undefined ? Math.min(r.max, r.maxWithVideo) : r.max;
    if (count > max)
      violations.push(
        violation(
          'optimization.too_many_references',
          'references',
          { role, count, max },
          `Prompt optimization takes at most ${max} "${role}" input${max === 1 ? '' : 's'}${hasVideo && max !== r.max ? ' alongside a video' : ''}; there are ${count}.`,
        ),
      );
    else if (count < r.min && !alreadyMissing)
      violations.push(
        violation(
          'optimization.too_few_references',
          'references',
          { role, count, min: r.min },
          `Prompt optimization in this mode needs at least ${r.min} "${role}" input${r.min === 1 ? '' : 's'}; there are ${count}.`,
        ),
      );
  }
  if (items.length > typed.maxItems)
    violations.push(
      violation(
        'optimization.too_many_items',
        'references',
        { count: items.length, max: typed.maxItems },
        `Prompt optimization takes at most ${typed.maxItems} inputs; there are ${items.length}.`,
      ),
    );
  if (
    mode?.referenceInputs &&
    inputs.references.filter((r) => r.mediaType !== 'audio').length < typed.minVisual &&
    !violations.some((v) => v.code === 'references.visual_required' || v.code === 'upload.missing')
  )
    violations.push(
      violation(
        'optimization.visual_required',
        'references',
        { min: typed.minVisual },
        'Prompt optimization needs at least one reference image or video.',
      ),
    );
  if (violations.length > 0) throw new DraftInvalidError(violations);

  const body: PromptOptimizationRequestBody = {
    clientRequestId: id,
    model: draft.model,
    generationMode: draft.generationMode,
    originalPrompt: draft.prompt,
    mediaSpec: {
      resolutionTier: draft.resolutionTier,
      orientation: draft.orientation,
      seconds: draft.seconds,
    },
    referenceInputs: items,
  };
  if (inputs.references.some((r) => r.role === 'reference_audio'))
    body.audioReferencePolicy = 'preserve_without_understanding';
  if (style !== undefined) body.style = style;
  return body;
}
