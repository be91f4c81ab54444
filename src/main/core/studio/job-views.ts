import type { DraftMedia, JobDetail, JobView, OutputView } from '../../../shared/bridge/domains/studio.js';
import { referenceRole } from '../../../shared/h3/draft.js';
import { numberReferences } from '../../../shared/h3/reference-numbering.js';
import { AppError } from '../errors.js';
import { verificationOf } from '../jobs/verification.js';
import { estimateFromDurations, remainingSeconds } from '../jobs/expected-duration.js';
import {
  isTerminalStatus,
  type Job,
  type JobIntent,
  type JobWithOutputs,
  type JobsRepository,
} from '../journal/jobs-repository.js';
import type { Output, OutputsRepository } from '../journal/outputs-repository.js';
import type { PromptOptimizationsRepository } from '../journal/prompt-optimizations-repository.js';
import type { VariationsRepository } from '../journal/variations-repository.js';
import type { StudioDrafts } from './drafts.js';
import { FRAME_COUNT, frameRoute, mediaUrl } from './media-resolver.js';
import type { StagedFiles } from './staged-files.js';
import type { StudioHost } from './studio-host.js';

const nul = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/**
 * A field of a creation body: at its top (the public interface) or, in a platform runtime body,
 * in `params` (the content, e.g. the prompt) or `mediaSpec` (the settings, e.g. mode and seed).
 */
function requestField(body: Record<string, unknown>, name: string): unknown {
  if (name in body) return body[name];
  for (const part of ['params', 'mediaSpec']) {
    const inner = body[part];
    if (inner && typeof inner === 'object' && name in inner) return (inner as Record<string, unknown>)[name];
  }
  return undefined;
}

/** The request fields that say what a job is, in the order a person would name it by. */
const TITLE_FIELDS = ['prompt', 'text', 'instruct'] as const;

/**
 * What a job is, read from its create body: its prompt (video, image, music, Foley), else the
 * text it speaks (speech), else its voice-design instruction; '' when the body names none.
 */
export function jobTitleOf(body: Record<string, unknown>): string {
  for (const name of TITLE_FIELDS) {
    const value = requestField(body, name);
    if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  }
  return '';
}

export interface JobViewsDeps {
  jobs: Pick<JobsRepository, 'getJob' | 'getIntentById' | 'listJobs' | 'stageHistory' | 'succeededDurations'>;
  outputs: Pick<OutputsRepository, 'listForJob'>;
  optimizations: Pick<PromptOptimizationsRepository, 'get'>;
  /** The variation group of an intent ("Generate ×N"). */
  variations: Pick<VariationsRepository, 'forIntent'>;
  drafts: StudioDrafts;
  staged: Pick<StagedFiles, 'get'>;
  host: StudioHost;
  /** The clock of `expectedRemainingSeconds` (tests). */
  now?: () => number;
}

/** The Queue's and a job's details' views of the journal (spec: "Poll a job", "Download a result"). */
export class JobViews {
  constructor(private readonly d: JobViewsDeps) {}

  requireJob(jobRowId: number): JobWithOutputs {
    const job = this.d.jobs.getJob(jobRowId);
    if (!job) throw new AppError('job.not_found', 'This job is not in the journal.');
    return job;
  }

  outputView(jobRowId: number, output: Output): OutputView {
    const verified = output.downloadState === 'verified';
    const route = `library/${jobRowId}/${output.id}`;
    const mimeType = output.mimeType ?? output.expectedMimeType;
    const video = verified && mimeType?.startsWith('video/') === true;
    return {
      id: output.id,
      position: output.position,
      state: output.downloadState,
      kind: nul(output.kind),
      mimeType: nul(mimeType),
      byteSize: nul(output.byteSize ?? output.expectedByteSize),
      sha256: nul(output.sha256),
      verified,
      verification: verificationOf(output),
      mediaUrl: verified ? mediaUrl(this.d.host, route) : null,
      posterUrl: verified ? mediaUrl(this.d.host, `${route}/poster`) : null,
      frameUrls: video
        ? Array.from({ length: FRAME_COUNT }, (_, n) => mediaUrl(this.d.host, frameRoute(route, n)))
        : [],
    };
  }

  jobView(job: Job, intent?: JobIntent): JobView {
    const i = intent ?? this.d.jobs.getIntentById(job.intentId);
    const body = i ? (JSON.parse(i.canonicalBodyJson) as Record<string, unknown>) : {};
    const outputs = 'outputs' in job ? (job as JobWithOutputs).outputs : this.d.outputs.listForJob(job.id);
    const variation = this.d.variations.forIntent(job.intentId);
    const prompt = requestField(body, 'prompt');
    const mode = requestField(body, 'generationMode');
    const seconds = requestField(body, 'seconds');
    return {
      rowId: job.id,
      profileId: job.profileId,
      model: job.model,
      serviceKind: job.serviceKind,
      jobId: job.jobId,
      requestId: job.requestId,
      status: job.status,
      stage: nul(job.stage),
      stageMessage: nul(job.stageMessage),
      elapsedSeconds: nul(job.elapsedSeconds),
      queuedSeconds: nul(job.queuedSeconds),
      runningSeconds: nul(job.runningSeconds),
      nextPollAt: nul(job.nextPollAt),
      errorCode: nul(job.errorCode),
      errorMessage: nul(job.errorMessage),
      retryable: nul(job.retryable),
      acceptedAt: job.acceptedAt,
      completedAt: nul(job.completedAt),
      updatedAt: job.updatedAt,
      prompt: typeof prompt === 'string' ? prompt : '',
      title: jobTitleOf(body),
      generationMode: typeof mode === 'string' ? mode : null,
      seconds: typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null,
      draftId: nul(i?.draftId),
      variation: variation
        ? { groupId: variation.groupId, index: variation.position, count: variation.count }
        : null,
      outputs: outputs.map((o) => this.outputView(job.id, o)),
      stageStartedAt: nul(this.d.jobs.stageHistory(job.id).at(-1)?.startedAt),
      ...this.estimate(job, body),
    };
  }

  /**
   * The expected remaining time of a job in progress, from this profile's succeeded jobs with the
   * same model and requested seconds (`jobs/expected-duration.ts`); none without such a job.
   */
  private estimate(
    job: Job,
    body: Record<string, unknown>,
  ): Pick<JobView, 'expectedTotalSeconds' | 'expectedRemainingSeconds' | 'estimateBasis'> {
    const none = { expectedTotalSeconds: null, expectedRemainingSeconds: null, estimateBasis: null };
    if (isTerminalStatus(job.status)) return none;
    const seconds = typeof body.seconds === 'number' ? body.seconds : null;
    const estimate = estimateFromDurations(
      this.d.jobs.succeededDurations({ profileId: job.profileId, model: job.model, seconds }),
    );
    if (!estimate) return none;
    return {
      expectedTotalSeconds: estimate.expectedTotalSeconds,
      expectedRemainingSeconds: remainingSeconds(estimate, job.acceptedAt, (this.d.now ?? Date.now)()),
      estimateBasis: { samples: estimate.samples, model: job.model, seconds },
    };
  }

  listJobs(query: { status?: Job['status']; profileId?: string; cursor?: string; limit?: number }) {
    const page = this.d.jobs.listJobs(query);
    return { items: page.items.map((j) => this.jobView(j)), nextCursor: page.nextCursor ?? null };
  }

  jobDetail(jobRowId: number): JobDetail {
    const job = this.requireJob(jobRowId);
    const intent = this.d.jobs.getIntentById(job.intentId)!;
    const view = this.jobView(job, intent);
    const requested = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    const optimization = intent.optimizationClientRequestId
      ? this.d.optimizations.get(intent.optimizationClientRequestId)
      : undefined;
    const stored = intent.draftId ? this.d.drafts.find(intent.draftId) : undefined;
    const references: JobDetail['references'] = [];
    if (stored) {
      const form = stored.form;
      const add = (m: DraftMedia | undefined, role: string, label: string) => {
        if (!m) return;
        let available = true;
        try {
          this.d.staged.get(m.id);
        } catch {
          available = false;
        }
        references.push({
          ...m,
          role,
          label,
          posterUrl: available ? mediaUrl(this.d.host, `staged/${m.id}/poster`) : null,
        });
      };
      if (typeof requested.input_image_asset_id === 'string')
        add(form.firstFrame, 'first_frame', 'First frame');
      if (typeof requested.end_image_asset_id === 'string') add(form.lastFrame, 'last_frame', 'Last frame');
      if (Array.isArray(requested.referenceInputs)) {
        const numbers = numberReferences(form.references);
        form.references.forEach((r, i) => add(r, referenceRole(r), numbers[i]?.label ?? referenceRole(r)));
      }
    }
    const seed = requestField(requested, 'seed');
    return {
      ...view,
      requested,
      effectiveSpec: job.effectiveSpec ?? null,
      seed: typeof seed === 'number' ? seed : null,
      originalPrompt: optimization?.canonicalBodyJson
        ? ((JSON.parse(optimization.canonicalBodyJson) as { originalPrompt?: string }).originalPrompt ?? null)
        : null,
      optimizedPrompt: optimization?.optimizedPrompt ?? null,
      references,
      stages: this.d.jobs.stageHistory(job.id).map((stage, index, all) => {
        const next = all[index + 1];
        return {
          status: stage.status,
          stage: nul(stage.stage),
          startedAt: stage.startedAt,
          seconds: next ? (next.startedAt - stage.startedAt) / 1000 : null,
        };
      }),
    };
  }
}
