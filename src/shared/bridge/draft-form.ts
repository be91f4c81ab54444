/**
 * The Create form's defaults and its mapping onto the H3 draft, declared once: the renderer
 * validates `toVideoDraft(form)` as the creator types, and the core sends the same mapping with
 * the staged files it resolved itself (never the renderer's description of them). No schema
 * library: the renderer imports this at runtime.
 */
import type { ProbedMedia, VideoDraft } from '../h3/draft.js';
import type { DraftForm } from './domains/studio.js';

/** An empty form for a new draft, under `profileId` (the form is filled from the chosen service's contract). */
export function emptyDraftForm(profileId: string): DraftForm {
  return {
    profileId,
    model: '',
    generationMode: '',
    prompt: '',
    orientation: '',
    seconds: 0,
    resolutionTier: '',
    seed: null,
    references: [],
  };
}

/** The files of a draft: as the form describes them, or as the core resolved them. */
export interface DraftFiles<M extends ProbedMedia> {
  firstFrame?: M;
  lastFrame?: M;
  references: M[];
}

/** A video draft whose files are `M`. */
export type DraftOf<M extends ProbedMedia> = Omit<VideoDraft, 'firstFrame' | 'lastFrame' | 'references'> &
  DraftFiles<M>;

/**
 * The H3 draft of a form: its settings as typed, a missing seed as "the platform decides", and
 * its files — the form's own, or `files` in their place.
 */
export function toVideoDraft(form: DraftForm): VideoDraft;
export function toVideoDraft<M extends ProbedMedia>(form: DraftForm, files: DraftFiles<M>): DraftOf<M>;
export function toVideoDraft(form: DraftForm, files: DraftFiles<ProbedMedia> = form): VideoDraft {
  return {
    model: form.model,
    generationMode: form.generationMode,
    prompt: form.prompt,
    orientation: form.orientation,
    seconds: form.seconds,
    resolutionTier: form.resolutionTier,
    seed: form.seed ?? null,
    extra: form.extra,
    ...(files.firstFrame ? { firstFrame: files.firstFrame } : {}),
    ...(files.lastFrame ? { lastFrame: files.lastFrame } : {}),
    references: files.references,
  };
}
