import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { PromptOptimizationRequest } from '../../../shared/api/prompt-optimization.js';
import type { InputRole, ProbedMedia, VideoDraft } from '../../../shared/h3/draft.js';
import { referenceRole } from '../../../shared/h3/draft.js';
import { resolveEffectiveLimits, type EffectiveLimits } from '../../../shared/h3/effective-limits.js';
import { buildMediaGenerationRequest, buildOptimizationRequest } from '../../../shared/h3/build-request.js';
import { frameSlot, validateDraft } from '../../../shared/h3/validate-draft.js';
import { DraftInvalidError } from '../../../shared/h3/violations.js';
import { AppError } from '../errors.js';
import type { RunResult, WaitOptions } from '../jobs/job-engine.js';
import type { ProbedFile } from '../media-tools/probe-media.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { refusedForUnknownAsset, resendIdempotencyKey } from '../journal/jobs-repository.js';
import {
  forgetAssetsNamedIn,
  forgetCachedAssets,
  forgettingUnknownAssets,
  isAssetNotFound,
} from '../uploads/upload-cache.js';
import { uploadInput, type UploadedInput } from '../uploads/upload-input.js';
import { discoverServices } from '../discovery/service-list.js';
import { optimizationKey, optimizePrompt } from './prompt-optimization.js';
import { chooseService } from '../operations/service-common.js';
import type { MediaJobDeps } from '../operations/job-with-inputs.js';

/** A video draft whose media are local files that were probed (content type, size, duration, tracks). */
export interface LocalVideoDraft extends Omit<VideoDraft, 'firstFrame' | 'lastFrame' | 'references'> {
  firstFrame?: ProbedFile & ProbedMedia;
  lastFrame?: ProbedFile & ProbedMedia;
  references: (ProbedFile & ProbedMedia)[];
}

export interface VideoSubmission {
  profileId: string;
  draft: LocalVideoDraft;
  /** One key per business intent (per draft); a replay with the same key never creates a second job. */
  idempotencyKey: string;
  draftId?: string;
  /**
   * The platform runtime's `clientTaskId` (its persistent business id); the draft's id when
   * absent. A variation names its own (one per variation). Not sent to the public interface.
   */
  clientTaskId?: string;
  optimize?: { style?: string; clientRequestId?: string };
  wait?: WaitOptions;
  onStep?: (step: string) => void;
  /** Each input's upload: its state, and while uploading the bytes sent (throttled, ends at the total). */
  onUpload?: (progress: UploadState) => void;
}

export interface UploadState {
  fileName: string;
  state: 'reused' | 'uploading' | 'uploaded';
  sentBytes: number | null;
  totalBytes: number | null;
}

export type VideoResult = RunResult & {
  optimizedPrompt?: string;
  uploads: { localId: string; fileName: string; assetId: string; reused: boolean; fromJournal: boolean }[];
};

/** The H3 rules as the live contract of `service` sets them (document numbers where it is silent). */
export function limitsFor(service: ServiceEntry): EffectiveLimits {
  return resolveEffectiveLimits(service.mediaSpecContract, service.promptOptimization);
}

/** Fails with every violation, before anything is uploaded or sent. */
export function assertDraftValid(draft: VideoDraft, limits: EffectiveLimits): void {
  const violations = validateDraft(draft, limits);
  if (violations.length > 0) throw new DraftInvalidError(violations);
}

/** The files the draft's mode sends, with the role each goes in. Unused inputs are not uploaded. */
export function inputsToSend(
  draft: LocalVideoDraft,
  limits: EffectiveLimits,
): { file: ProbedFile & ProbedMedia; role: InputRole }[] {
  const mode = limits.modes[draft.generationMode];
  if (!mode) return [];
  const out: { file: ProbedFile & ProbedMedia; role: InputRole }[] = [];
  for (const role of Object.values(mode.frames)) {
    const slot = frameSlot(role)?.slot;
    const file = slot ? draft[slot] : undefined;
    if (file && slot) out.push({ file, role: slot === 'firstFrame' ? 'first_frame' : 'last_frame' });
  }
  if (mode.referenceInputs)
    for (const ref of draft.references) out.push({ file: ref, role: referenceRole(ref) });
  return out;
}

/**
 * Uploads what the draft's mode sends (reusing still-valid assets of this credential), through the
 * one upload pipeline (`uploads/upload-input.ts`): `framewright video` and the studio's Optimize,
 * admission and submit all choose and send a draft's inputs here.
 */
export async function uploadDraftInputs(
  journal: MediaJobDeps['journal'],
  client: PublicApiClient,
  draft: LocalVideoDraft,
  limits: EffectiveLimits,
  report: { onStep?: (step: string) => void; onUpload?: (state: UploadState) => void } = {},
): Promise<{ uploaded: Map<string, string>; uploads: VideoResult['uploads'] }> {
  const step = report.onStep ?? (() => undefined);
  const uploaded = new Map<string, string>();
  const uploads: VideoResult['uploads'] = [];
  for (const { file, role } of inputsToSend(draft, limits)) {
    if (uploaded.has(file.id)) continue;
    step(`upload ${file.fileName}`);
    const onUpload = report.onUpload;
    const asset: UploadedInput = await uploadInput(journal, client, file, {
      model: draft.model,
      role,
      ...(onUpload
        ? {
            onProgress: (state) =>
              onUpload({ fileName: file.fileName, state, sentBytes: null, totalBytes: null }),
            onBytes: (sentBytes, totalBytes) =>
              onUpload({ fileName: file.fileName, state: 'uploading', sentBytes, totalBytes }),
          }
        : {}),
    });
    uploaded.set(file.id, asset.assetId);
    uploads.push({
      localId: file.id,
      fileName: file.fileName,
      assetId: asset.assetId,
      reused: asset.reused,
      fromJournal: asset.fromJournal,
    });
  }
  return { uploaded, uploads };
}

/** What a draft's creation built: its service rules, its inputs' assets and its final prompt. */
interface PreparedVideo {
  client: PublicApiClient;
  limits: EffectiveLimits;
  uploaded: Map<string, string>;
  uploads: VideoResult['uploads'];
  finalDraft: VideoDraft;
  optimizedPrompt?: string;
  optimizationClientRequestId?: string;
}

/** Discovery → the H3 rules (nothing is sent when they fail) → uploads → optional optimization. */
async function prepareVideo(core: MediaJobDeps, submission: VideoSubmission): Promise<PreparedVideo> {
  const { draft, profileId } = submission;
  const step = submission.onStep ?? (() => undefined);
  const client: PublicApiClient = await core.profiles.clientFor(profileId);
  step('discovery');
  const { services } = await discoverServices(core.journal, client, { serviceKind: 'video_generation' });
  const service = chooseService(services, ['video_generation'], draft.model);
  const limits = limitsFor(service);
  assertDraftValid(draft, limits);

  const { uploaded, uploads } = await uploadDraftInputs(core.journal, client, draft, limits, submission);
  if (!submission.optimize) return { client, limits, uploaded, uploads, finalDraft: draft };
  if (!limits.optimization.available) {
    throw new AppError(
      'optimization.unavailable',
      `The service "${draft.model}" does not offer prompt optimization.`,
    );
  }
  step('optimize prompt');
  const inputs = buildOptimizationRequest(draft, uploaded, limits, {
    clientRequestId: submission.optimize.clientRequestId ?? 'derived-below',
    style: submission.optimize.style,
  }) as PromptOptimizationRequest;
  // One key per business optimization: an explicit one, else derived from the inputs, so the
  // same command again returns the recorded optimization or replays it (never bills a new one).
  const optimizationClientRequestId =
    submission.optimize.clientRequestId ??
    optimizationKey(core.journal, { profileId, scope: 'video', request: inputs });
  const request = { ...inputs, clientRequestId: optimizationClientRequestId };
  const optimization = await forgettingUnknownAssets(
    core.journal,
    client,
    draft.model,
    uploads.filter((u) => u.fromJournal).map((u) => u.assetId),
    () =>
      optimizePrompt(core.journal, client, request, {
        clientTimeoutSeconds: limits.optimization.clientTimeoutSeconds,
        draftId: submission.draftId,
      }),
  );
  const optimizedPrompt = optimization.optimizedPrompt!;
  return {
    client,
    limits,
    uploaded,
    uploads,
    finalDraft: { ...draft, prompt: optimizedPrompt },
    optimizedPrompt,
    optimizationClientRequestId,
  };
}

/**
 * Creates a video from a local draft: discovery → the H3 rules of the live contract (nothing is
 * sent when they fail) → uploads (reusing still-valid assets) → optional prompt optimization →
 * the job engine (intent committed, create, poll, download and verify). A key the journal already
 * holds is continued by the engine ({@link JobEngine.createOrContinue}), nothing prepared again.
 */
export async function submitVideo(core: MediaJobDeps, submission: VideoSubmission): Promise<VideoResult> {
  const { draft, profileId } = submission;
  const step = submission.onStep ?? (() => undefined);
  const firstKey = submission.idempotencyKey;
  const existing = core.journal.jobs.getIntent(firstKey);
  // 1 for the first key; 2 for the resend after 404 asset_not_found, under the derived key
  let attempt = 1;
  if (existing && refusedForUnknownAsset(existing)) {
    // refused for an expired input: continue its resend, or (stopped before it was recorded) send it
    const resend = core.journal.jobs.latestResendOf(firstKey);
    if (resend) return { ...(await core.engine.continueIntent(resend.intent, submission.wait)), uploads: [] };
    forgetAssetsNamedIn(core.journal, profileId, existing.model, existing.canonicalBodyJson);
    attempt = 2;
  }

  let prepared: PreparedVideo | undefined;
  const createAs = (n: number) =>
    core.engine.createOrContinue(
      n === 1 ? firstKey : resendIdempotencyKey(firstKey, n),
      async () => {
        if (!prepared) prepared = await prepareVideo(core, submission);
        else {
          // the resend: the same prompt, its inputs uploaded again
          step('upload again');
          const again = await uploadDraftInputs(
            core.journal,
            prepared.client,
            draft,
            prepared.limits,
            submission,
          );
          prepared = { ...prepared, ...again };
        }
        step('create');
        return {
          profileId,
          model: draft.model,
          serviceKind: 'video_generation',
          body: buildMediaGenerationRequest(
            prepared.finalDraft,
            prepared.uploaded,
            prepared.limits,
          ) as unknown as Record<string, unknown>,
          ...(n === 1 ? {} : { resendOf: { firstIdempotencyKey: firstKey, attempt: n } }),
          draftId: submission.draftId,
          optimizationClientRequestId: prepared.optimizationClientRequestId,
        };
      },
      submission.wait,
    );
  const resultOf = (run: RunResult): VideoResult => ({
    ...run,
    ...(prepared?.optimizedPrompt !== undefined ? { optimizedPrompt: prepared.optimizedPrompt } : {}),
    uploads: prepared?.uploads ?? [],
  });
  try {
    return resultOf(await createAs(attempt));
  } catch (error) {
    // An input taken from the journal is unknown to the service (expired, lost, or another
    // identity's): the cached ids are forgotten and nothing was created, so upload again and send
    // once more as a new business attempt under the key derived from the first (a key never
    // carries two bodies); the derived intent is recorded with its link before it is sent.
    const cached = prepared?.uploads.filter((u) => u.fromJournal).map((u) => u.assetId) ?? [];
    if (cached.length === 0 || !isAssetNotFound(error)) throw error;
    forgetCachedAssets(core.journal, profileId, draft.model, cached);
    if (attempt !== 1) throw error;
    const first = core.journal.jobs.getIntent(firstKey);
    if (!first || !refusedForUnknownAsset(first)) throw error;
    attempt = 2;
    return resultOf(await createAs(attempt));
  }
}
