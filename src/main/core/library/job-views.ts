import { NO_MARKS } from '../../../shared/library-marks.js';
import type { DraftMedia, JobDetail, JobView, OutputView } from '../../../shared/bridge/domains/studio.js';
import { referenceRole } from '../../../shared/h3/draft.js';
import { numberReferences } from '../../../shared/h3/reference-numbering.js';
import { setNewest } from '../bounded-map.js';
import { AppError } from '../errors.js';
import { estimateFromDurations, remainingSeconds } from '../jobs/expected-duration.js';
import { verificationOf } from '../jobs/verification.js';
import {
  isTerminalStatus,
  type Job,
  type JobIntent,
  type JobWithOutputs,
  type ListJobsQuery,
  type ListedJob,
} from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';
import type { Output } from '../journal/outputs-repository.js';
import type { Page } from '../journal/pagination.js';
import type { ServiceCall, ServiceCallOperation } from '../journal/service-calls-repository.js';
import type { StudioDrafts } from '../creating/drafts.js';
import { FRAME_COUNT, frameRoute, mediaUrl } from './media-urls.js';
import type { StagedFiles } from '../storage/staged-files.js';
import type { StudioHost } from './studio-host.js';

// The journal's vocabulary, for the CLI's actions (which may not import the journal themselves).
export type { Job, JobIntent, JobWithOutputs, ListedJob, ServiceCall, ServiceCallOperation };
export { SERVICE_CALL_OPERATIONS } from '../journal/service-calls-repository.js';

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

/** The types of result a poster is made of (a picture, a video, a sound). */
const MEDIA_TYPE = /^(video|image|audio)\//;

/** The request fields that say what a job is, in the order a person would name it by. */
const TITLE_FIELDS = ['prompt', 'text', 'instruct', 'original_name'] as const;

/**
 * What a job is, read from its create body: its prompt (video, image, music, Foley), else the
 * text it speaks (speech), else its voice-design instruction, else the name of the document it
 * parses (a `document_parse` job); '' when the body names none.
 */
export function jobTitleOf(body: Record<string, unknown>): string {
  for (const name of TITLE_FIELDS) {
    const value = requestField(body, name);
    if (typeof value === 'string' && value.trim().length > 0) return value.trim();
  }
  return '';
}

/** What a job's creation request says, as its views show it. */
interface RequestSummary {
  prompt: string;
  title: string;
  mode: string | null;
  /** The length asked for, when a finite number. */
  seconds: number | null;
  /** The top-level `seconds` of the request, which the duration estimate compares. */
  requestedSeconds: number | null;
  draftId: string | null;
}

const NO_REQUEST: RequestSummary = {
  prompt: '',
  title: '',
  mode: null,
  seconds: null,
  requestedSeconds: null,
  draftId: null,
};

/** How many jobs' requests one set of views keeps read (a person's Library is far fewer). */
const REQUESTS_KEPT = 5_000;

const requestKey = (job: Pick<Job, 'intentId' | 'jobId'>) => `${job.intentId}\u0000${job.jobId}`;

function summarizeRequest(intent: JobIntent): RequestSummary {
  const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
  const prompt = requestField(body, 'prompt');
  const mode = requestField(body, 'generationMode');
  const seconds = requestField(body, 'seconds');
  return {
    prompt: typeof prompt === 'string' ? prompt : '',
    title: jobTitleOf(body),
    mode: typeof mode === 'string' ? mode : null,
    seconds: typeof seconds === 'number' && Number.isFinite(seconds) ? seconds : null,
    requestedSeconds: typeof body.seconds === 'number' ? body.seconds : null,
    draftId: intent.draftId ?? null,
  };
}

/** The journal tables every view reads: nothing that opens the keychain, the network or a file. */
export interface JobViewsJournal {
  readonly jobs: Pick<
    Journal['jobs'],
    | 'listJobs'
    | 'getJob'
    | 'getJobByJobId'
    | 'currentIntent'
    | 'getIntentById'
    | 'intentsByIds'
    | 'getJobForIntent'
    | 'stageHistory'
    | 'latestStageStarts'
    | 'succeededDurations'
  >;
  readonly outputs: Pick<Journal['outputs'], 'listForJobs'>;
  readonly optimizations: Pick<Journal['optimizations'], 'get'>;
  /** The variation group of an intent ("Generate ×N"). */
  readonly variations: Pick<Journal['variations'], 'forIntents'>;
  /** The person's marks on results (issue 41). */
  readonly marks: Pick<Journal['marks'], 'forJobs'>;
  readonly serviceCalls: Pick<Journal['serviceCalls'], 'list'>;
  readonly profiles: Pick<Journal['profiles'], 'list'>;
}

/** What the studio's views (Queue, job details, Library, sequences) add: drafts, staged files, the host's media. */
export interface JobViewsStudio {
  readonly drafts: Pick<StudioDrafts, 'find'>;
  readonly staged: Pick<StagedFiles, 'get'>;
  readonly host: Pick<StudioHost, 'mediaBase'>;
  /** The clock of `expectedRemainingSeconds` (tests). */
  readonly now?: () => number;
}

/** A job as the CLI's `show` prints it: the row, with the key it was created under and the request as sent. */
export interface JobRecord {
  job: JobWithOutputs;
  /** Absent for a reindexed job. */
  idempotencyKey?: string;
  request?: unknown;
}

/**
 * The read-only views of the journal's jobs and synchronous calls, for every caller: the CLI's
 * `jobs`, `show`, `calls` and `batch` reports and the Playground's calls log (over the journal
 * alone: `JobViews.over(journal)`, so `framewright jobs` opens SQLite and nothing else), and the
 * studio's Queue, job details, Library and sequences (`new JobViews(journal, studio)`). Spec:
 * "MediaJob", "Poll a job", "Download a result".
 */
export class JobViews {
  /** What the creation requests of the jobs shown so far say (see `requestsOf`). */
  private readonly requests = new Map<string, RequestSummary>();

  constructor(
    private readonly j: JobViewsJournal,
    private readonly studio?: JobViewsStudio,
  ) {}

  /** Views over the journal alone: the CLI's listings and the calls log (not the studio's views). */
  static over(journal: JobViewsJournal): JobViews {
    return new JobViews(journal);
  }

  /**
   * The studio's parts. Every studio view asks for them first, so views built over the journal
   * alone refuse the studio's views outright (a programming error) instead of answering some.
   */
  private studioParts(): JobViewsStudio {
    if (!this.studio) throw new AppError('internal', 'These job views were built over the journal alone.');
    return this.studio;
  }

  /** A page of journal rows, newest first (keyset cursor). */
  rows(query: ListJobsQuery): Page<ListedJob> {
    return this.j.jobs.listJobs(query);
  }

  /**
   * A job by its platform job id (looked up under `profileId` first, then every profile) or by
   * its row number in the journal.
   */
  find(ref: string, profileId: string): JobWithOutputs {
    const others = this.j.profiles.list().map((p) => p.id);
    for (const id of [profileId, ...others]) {
      const job = this.j.jobs.getJobByJobId(id, ref);
      if (job) return job;
    }
    if (/^\d+$/.test(ref)) {
      const job = this.j.jobs.getJob(Number(ref));
      if (job) return job;
    }
    throw new AppError('usage', `No job "${ref}" in the journal.`);
  }

  /** A job with the idempotency key and request it was created with. */
  record(ref: string, profileId: string): JobRecord {
    const job = this.find(ref, profileId);
    const intent = this.j.jobs.getIntentById(job.intentId);
    return {
      job,
      idempotencyKey: intent?.idempotencyKey,
      request: intent ? (JSON.parse(intent.canonicalBodyJson) as unknown) : undefined,
    };
  }

  /** The idempotency key a job row of the journal was created under (progress reports name jobs by it). */
  keyOfJobRow(jobRowId: number): string | undefined {
    const job = this.j.jobs.getJob(jobRowId);
    return job ? this.j.jobs.getIntentById(job.intentId)?.idempotencyKey : undefined;
  }

  /** The job created under an idempotency key, if the platform accepted one. */
  jobForKey(idempotencyKey: string): JobWithOutputs | undefined {
    const intent = this.j.jobs.currentIntent(idempotencyKey);
    return intent ? this.j.jobs.getJobForIntent(intent.id) : undefined;
  }

  /** A page of the synchronous calls made as a profile, newest first; a bad cursor is a usage error. */
  calls(query: {
    profileId: string;
    operation?: ServiceCallOperation;
    limit: number;
    cursor?: string;
  }): Page<ServiceCall> {
    try {
      return this.j.serviceCalls.list(query);
    } catch (error) {
      if (error instanceof RangeError) throw new AppError('usage', error.message);
      throw error;
    }
  }

  requireJob(jobRowId: number): JobWithOutputs {
    const job = this.j.jobs.getJob(jobRowId);
    if (!job) throw new AppError('job.not_found', 'This job is not in the journal.');
    return job;
  }

  outputView(jobRowId: number, output: Output): OutputView {
    const { host } = this.studioParts();
    const verified = output.downloadState === 'verified';
    const route = `library/${jobRowId}/${output.id}`;
    const mimeType = output.mimeType ?? output.expectedMimeType;
    const video = verified && mimeType?.startsWith('video/') === true;
    // a poster is made of a picture, a video or a sound; a document's result (JSON) has none
    const posterable = verified && (mimeType === undefined || MEDIA_TYPE.test(mimeType));
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
      mediaUrl: verified ? mediaUrl(host, route) : null,
      posterUrl: posterable ? mediaUrl(host, `${route}/poster`) : null,
      frameUrls: video
        ? Array.from({ length: FRAME_COUNT }, (_, n) => mediaUrl(host, frameRoute(route, n)))
        : [],
    };
  }

  /** One job as the studio shows it (`jobViews` of one). */
  jobView(job: ListedJob, intent?: JobIntent): JobView {
    return this.jobViews([job], intent ? new Map([[intent.id, intent]]) : undefined)[0]!;
  }

  /**
   * Jobs as the studio shows them (the Queue, the Library, a sequence's shots): what each needs of
   * the journal besides its row — its intent, outputs, variation and latest stage — read for the
   * whole page at once, one statement per table, not per job.
   */
  jobViews(jobs: readonly ListedJob[], knownIntents?: ReadonlyMap<number, JobIntent>): JobView[] {
    this.studioParts();
    if (jobs.length === 0) return [];
    const intentIds = jobs.map((job) => job.intentId);
    const unread = jobs.filter((job) => !('outputs' in job)).map((job) => job.id);
    const outputsOf = this.j.outputs.listForJobs(unread);
    const variations = this.j.variations.forIntents(intentIds);
    const stageStarts = this.j.jobs.latestStageStarts(jobs.map((job) => job.id));
    const marks = this.j.marks.forJobs(jobs.map((job) => job.id));
    const requests = this.requestsOf(jobs, knownIntents);
    return jobs.map((job) => {
      const request = requests.get(job.id) ?? NO_REQUEST;
      const outputs = 'outputs' in job ? (job as JobWithOutputs).outputs : (outputsOf.get(job.id) ?? []);
      const variation = variations.get(job.intentId);
      const { prompt, mode, seconds } = request;
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
        prompt,
        title: request.title,
        generationMode: mode,
        seconds,
        draftId: request.draftId,
        variation: variation
          ? { groupId: variation.groupId, index: variation.position, count: variation.count }
          : null,
        marks: marks.get(job.id) ?? { ...NO_MARKS },
        outputs: outputs.map((o) => this.outputView(job.id, o)),
        stageStartedAt: nul(stageStarts.get(job.id)),
        ...this.estimate(job, request.requestedSeconds),
      };
    });
  }

  /**
   * What each job's creation request says (prompt, title, mode, seconds, draft), by job row id.
   * A request never changes once recorded (its idempotency key holds it), so what was read of it is
   * kept, by intent and platform job id (a row id alone can be reused after a deletion), and only
   * the intents not seen before are read.
   */
  private requestsOf(
    jobs: readonly ListedJob[],
    knownIntents?: ReadonlyMap<number, JobIntent>,
  ): Map<number, RequestSummary> {
    const found = new Map<number, RequestSummary>();
    const missing: ListedJob[] = [];
    for (const job of jobs) {
      const known = this.requests.get(requestKey(job));
      if (known) found.set(job.id, known);
      else missing.push(job);
    }
    if (missing.length === 0) return found;
    const intents = knownIntents ?? this.j.jobs.intentsByIds(missing.map((job) => job.intentId));
    for (const job of missing) {
      const intent = intents.get(job.intentId);
      if (!intent) {
        found.set(job.id, NO_REQUEST);
        continue;
      }
      const summary = summarizeRequest(intent);
      setNewest(this.requests, requestKey(job), summary, REQUESTS_KEPT);
      found.set(job.id, summary);
    }
    return found;
  }

  /**
   * The expected remaining time of a job in progress, from this profile's succeeded jobs with the
   * same model and requested seconds (`jobs/expected-duration.ts`); none without such a job.
   */
  private estimate(
    job: ListedJob,
    seconds: number | null,
  ): Pick<JobView, 'expectedTotalSeconds' | 'expectedRemainingSeconds' | 'estimateBasis'> {
    const none = { expectedTotalSeconds: null, expectedRemainingSeconds: null, estimateBasis: null };
    if (isTerminalStatus(job.status)) return none;
    const estimate = estimateFromDurations(
      this.j.jobs.succeededDurations({ profileId: job.profileId, model: job.model, seconds }),
    );
    if (!estimate) return none;
    return {
      expectedTotalSeconds: estimate.expectedTotalSeconds,
      expectedRemainingSeconds: remainingSeconds(
        estimate,
        job.acceptedAt,
        (this.studioParts().now ?? Date.now)(),
      ),
      estimateBasis: { samples: estimate.samples, model: job.model, seconds },
    };
  }

  listJobs(query: { status?: Job['status']; profileId?: string; cursor?: string; limit?: number }) {
    this.studioParts();
    const page = this.j.jobs.listJobs(query);
    return { items: this.jobViews(page.items), nextCursor: page.nextCursor ?? null };
  }

  jobDetail(jobRowId: number): JobDetail {
    const { drafts, staged, host } = this.studioParts();
    const job = this.requireJob(jobRowId);
    const intent = this.j.jobs.getIntentById(job.intentId)!;
    const view = this.jobView(job, intent);
    const requested = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    const optimization = intent.optimizationClientRequestId
      ? this.j.optimizations.get(intent.optimizationClientRequestId)
      : undefined;
    const stored = intent.draftId ? drafts.find(intent.draftId) : undefined;
    const references: JobDetail['references'] = [];
    if (stored) {
      const form = stored.form;
      const add = (m: DraftMedia | undefined, role: string, label: string) => {
        if (!m) return;
        let available = true;
        try {
          staged.get(m.id);
        } catch {
          available = false;
        }
        references.push({
          ...m,
          role,
          label,
          posterUrl: available ? mediaUrl(host, `staged/${m.id}/poster`) : null,
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
      stages: this.j.jobs.stageHistory(job.id).map((stage, index, all) => {
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
