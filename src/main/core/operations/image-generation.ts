import { randomUUID } from 'node:crypto';
import { codePointLength } from '../../../shared/api/common.js';
import { readMediaSpec } from '../../../shared/api/contract-vocabulary.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { RunResult, WaitOptions } from '../jobs/job-engine.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import { checkProbedFile } from './inputs.js';
import { submitJobWithInputs, type JobWithInputs, type MediaJobDeps } from './job-with-inputs.js';
import { checkField, contractParameter } from './contract-fields.js';
import { InputLimitError } from './service-common.js';

export interface ImageDraft {
  prompt: string;
  generationMode?: string;
  imageCount?: number;
  orientation?: string;
  outputSizeCode?: string;
  qualityTier?: string;
  resolutionTier?: string;
  seed?: number;
  /** Local input images (i2i). */
  inputImages?: string[];
}

/** The number of input images a mode takes, from the contract (`modes.<mode>.maxInputImages`). */
export function maxInputImages(service: ServiceEntry, mode: string): number {
  const m = readMediaSpec(service.mediaSpecContract).modes[mode];
  if (!m) return 0;
  if (typeof m.maxInputImages === 'number') return m.maxInputImages;
  return Object.keys(m.frames ?? {}).length;
}

/** Checks an image draft against the live contract; nothing is uploaded or sent when it fails. */
export function validateImageDraft(service: ServiceEntry, draft: ImageDraft): string {
  const { prompt } = readMediaSpec(service.mediaSpecContract);
  const max = prompt.maxCodePoints ?? contractParameter(service, 'prompt')?.maxLength;
  const min = prompt.minCodePoints ?? 1;
  const trimmed = prompt.trim === false ? draft.prompt : draft.prompt.trim();
  const length = codePointLength(trimmed);
  if (length < min) throw new InputLimitError('prompt', 'The prompt is empty.');
  if (max !== undefined && length > max)
    throw new InputLimitError('prompt', `The prompt has ${length} characters; at most ${max} are allowed.`);
  const modeParam = contractParameter(service, 'generationMode');
  const mode = draft.generationMode ?? (modeParam?.default as string | undefined) ?? 't2i';
  checkField(service, 'generationMode', draft.generationMode);
  if (draft.imageCount !== undefined && (!Number.isInteger(draft.imageCount) || draft.imageCount < 1))
    throw new InputLimitError(
      'imageCount',
      `imageCount must be a whole number of at least 1 (got ${draft.imageCount}).`,
    );
  checkField(service, 'imageCount', draft.imageCount, mode);
  checkField(service, 'orientation', draft.orientation, mode);
  checkField(service, 'outputSizeCode', draft.outputSizeCode, mode);
  checkField(service, 'qualityTier', draft.qualityTier, mode);
  checkField(service, 'resolutionTier', draft.resolutionTier, mode);
  checkField(service, 'seed', draft.seed, mode);
  const inputs = draft.inputImages ?? [];
  const maxInputs = maxInputImages(service, mode);
  if (inputs.length > maxInputs)
    throw new InputLimitError(
      'input_image_asset_ids',
      maxInputs === 0
        ? `${mode} takes no input image.`
        : `${mode} takes at most ${maxInputs} input images (got ${inputs.length}).`,
    );
  if (maxInputs > 0 && inputs.length === 0 && mode !== 't2i')
    throw new InputLimitError('input_image_asset_id', `${mode} needs at least one input image.`);
  return mode;
}

export interface ImageSubmission {
  profileId: string;
  service: ServiceEntry;
  draft: ImageDraft;
  idempotencyKey?: string;
  wait?: WaitOptions;
  onStep?: (step: string) => void;
}

/** The create body of an image draft whose input images were uploaded as `ids`. */
function imageBody(
  service: ServiceEntry,
  draft: ImageDraft,
  mode: string,
  ids: readonly string[],
): Record<string, unknown> {
  const body: Record<string, unknown> = { model: service.modelAlias, prompt: draft.prompt };
  if (draft.generationMode !== undefined || ids.length > 0) body.generationMode = mode;
  for (const key of [
    'imageCount',
    'orientation',
    'outputSizeCode',
    'qualityTier',
    'resolutionTier',
    'seed',
  ] as const)
    if (draft[key] !== undefined) body[key] = draft[key];
  if (ids.length === 1) body.input_image_asset_id = ids[0];
  else if (ids.length > 1) body.input_image_asset_ids = ids;
  return body;
}

/** An image job, checked against its contract (input images probed), ready for a submitter. */
export async function imageJob(submission: ImageSubmission): Promise<JobWithInputs> {
  const { service, draft } = submission;
  const mode = validateImageDraft(service, draft);
  const probed: ProbedFile[] = [];
  for (const file of draft.inputImages ?? [])
    probed.push(checkProbedFile(service, await probeMedia(file), 'input_image'));
  return {
    profileId: submission.profileId,
    service,
    serviceKind: 'image_generation',
    idempotencyKey: submission.idempotencyKey ?? `img-${randomUUID()}`,
    files: probed,
    bodyFor: (ids) => imageBody(service, draft, mode, ids),
    wait: submission.wait,
    onStep: submission.onStep,
  };
}

/**
 * An image job through the same engine as video: contract checks, uploads of input images
 * (reusing still-valid assets), then the intent is committed, created, polled, and every image is
 * downloaded and verified into the library (one job folder = one set).
 */
export async function submitImage(
  core: MediaJobDeps,
  submission: ImageSubmission,
): Promise<RunResult & { body: Record<string, unknown> }> {
  return submitJobWithInputs(core, await imageJob(submission));
}
