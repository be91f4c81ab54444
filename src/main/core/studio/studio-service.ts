import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { PublicService } from '../../../shared/api/discovery.js';
import { isCallable, serviceAvailability } from '../../../shared/api/service-availability.js';
import type { PromptOptimizationRequest } from '../../../shared/api/prompt-optimization.js';
import {
  DraftForm,
  type DraftMedia,
  type JobDetail,
  type JobView,
  type OutputView,
  type SubmitResult,
  type StudioDraft,
  type StudioService as StudioServiceView,
} from '../../../shared/bridge/domains/studio.js';
import { referenceRole, type InputRole, type ProbedMedia } from '../../../shared/h3/draft.js';
import { buildMediaGenerationRequest, buildOptimizationRequest } from '../../../shared/h3/build-request.js';
import type { EffectiveLimits } from '../../../shared/h3/effective-limits.js';
import { frameSlot } from '../../../shared/h3/validate-draft.js';
import type { CoreServices } from '../app/core-services.js';
import type { EventHub } from '../bridge/event-hub.js';
import { AppError } from '../errors.js';
import { removeJobFolder } from '../jobs/download-outputs.js';
import type { EngineChange } from '../jobs/job-engine.js';
import { verificationOf } from '../jobs/download-outputs.js';
import { isEngineStopped } from '../jobs/engine-stopped.js';
import type { Job, JobIntent, JobWithOutputs } from '../journal/jobs-repository.js';
import type { Output } from '../journal/outputs-repository.js';
import type { Logger } from '../logging/logger.js';
import type { ProbedFile } from '../media/probe-media.js';
import type { PublicApiClient } from '../platform/public-api-client.js';
import { forgettingUnknownAssets, isAssetNotFound } from '../uploads/upload-cache.js';
import { uploadInput } from '../uploads/upload-input.js';
import { discoverServices, pickService } from '../video/discovery.js';
import { optimizationKey, optimizePrompt } from '../video/prompt-optimization.js';
import {
  assertDraftValid,
  limitsFor,
  submitVideo,
  type LocalVideoDraft,
  type UploadState,
} from '../video/submit-video.js';
import { mediaUrl } from './media-resolver.js';
import type { StagedFiles } from './staged-files.js';

/** What a studio draft is in the journal's `drafts` table. */
interface StoredDraft {
  kind: 'studio-video';
  idempotencyKey: string;
  form: DraftForm;
  submittedAt: number | null;
  jobRowId: number | null;
}

type SubmitOutcome = z.output<typeof SubmitResult>;

const WAIT_SETTING = 'studio.waitSeconds';
const DEFAULT_WAIT_SECONDS = 30 * 60;
/** How long `video.submit` waits for the service's answer before returning "pending". */
const SUBMIT_ANSWER_MS = 8_000;

const nul = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

export interface StudioServiceOptions {
  core: CoreServices;
  events: EventHub;
  logger: Logger;
  staged: StagedFiles;
  host: 'electron' | 'browser';
}

/** The studio's use cases over the core services; the bridge handlers are a thin layer on top. */
export class StudioService {
  constructor(private readonly o: StudioServiceOptions) {}

  private get core(): CoreServices {
    return this.o.core;
  }

  // ---------------------------------------------------------------- services

  async services(profileId: string, serviceKind?: string) {
    const client = await this.core.profiles.clientFor(profileId);
    const found = await discoverServices(this.core.journal, client, { serviceKind });
    return {
      profileId,
      services: found.services.map(toStudioService),
      fetchedAt: found.fetchedAt,
      fromCache: found.fromCache,
    };
  }

  private async videoService(client: PublicApiClient, model: string): Promise<PublicService> {
    const { services } = await discoverServices(this.core.journal, client, {
      serviceKind: 'video_generation',
    });
    return pickService(services, model, 'video_generation');
  }

  // ---------------------------------------------------------------- drafts

  private stored(draftId: string): StoredDraft {
    const draft = this.core.journal.drafts.get<StoredDraft>(draftId);
    if (!draft || draft.body.kind !== 'studio-video')
      throw new AppError('draft.not_found', 'This draft no longer exists.');
    return draft.body;
  }

  draft(draftId: string): StudioDraft {
    const row = this.core.journal.drafts.get<StoredDraft>(draftId);
    if (!row || row.body.kind !== 'studio-video')
      throw new AppError('draft.not_found', 'This draft no longer exists.');
    return {
      id: row.id,
      idempotencyKey: row.body.idempotencyKey,
      form: row.body.form,
      submittedAt: row.body.submittedAt,
      jobRowId: row.body.jobRowId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  listDrafts(): StudioDraft[] {
    return this.core.journal.drafts
      .list<StoredDraft>(50)
      .filter((d) => d.body.kind === 'studio-video')
      .map((d) => this.draft(d.id));
  }

  /** A new draft with its own idempotency key (generated once, kept for every submit of it). */
  createDraft(form: DraftForm): StudioDraft {
    const id = randomUUID();
    this.core.journal.drafts.save<StoredDraft>(id, {
      kind: 'studio-video',
      idempotencyKey: `draft-${id}-${randomUUID()}`,
      form,
      submittedAt: null,
      jobRowId: null,
    });
    return this.draft(id);
  }

  /** "Copy to Create": the settings, prompt and references of a job in a new draft (new key). */
  copyJob(jobRowId: number, fallback: DraftForm): StudioDraft {
    const job = this.requireJob(jobRowId);
    const intent = this.core.journal.jobs.getIntentById(job.intentId)!;
    const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    const source = intent.draftId ? this.core.journal.drafts.get<StoredDraft>(intent.draftId) : undefined;
    const form: DraftForm = source?.body.kind === 'studio-video' ? { ...source.body.form } : { ...fallback };
    form.profileId = job.profileId;
    form.model = job.model;
    if (typeof body.generationMode === 'string') form.generationMode = body.generationMode;
    if (typeof body.prompt === 'string') form.prompt = body.prompt;
    if (typeof body.orientation === 'string') form.orientation = body.orientation;
    if (typeof body.resolutionTier === 'string') form.resolutionTier = body.resolutionTier;
    if (typeof body.seconds === 'number') form.seconds = body.seconds;
    form.seed = typeof body.seed === 'number' ? body.seed : null;
    return this.createDraft(DraftForm.parse(form));
  }

  saveDraft(draftId: string, form: DraftForm): StudioDraft {
    const stored = this.stored(draftId);
    if (stored.submittedAt !== null)
      throw new AppError('draft.submitted', 'This draft was submitted; use "Copy to Create" to change it.');
    this.core.journal.drafts.save<StoredDraft>(draftId, { ...stored, form });
    return this.draft(draftId);
  }

  // ---------------------------------------------------------------- inputs

  /** The form with main-side facts for every file (re-read from staging, never from the renderer). */
  private async localDraft(form: DraftForm): Promise<LocalVideoDraft> {
    const resolve = (m: DraftMedia | undefined) =>
      m ? this.o.staged.resolve(m.id) : Promise.resolve(undefined);
    const [firstFrame, lastFrame, references] = await Promise.all([
      resolve(form.firstFrame),
      resolve(form.lastFrame),
      Promise.all(form.references.map((r) => this.o.staged.resolve(r.id))),
    ]);
    return {
      model: form.model,
      generationMode: form.generationMode,
      prompt: form.prompt,
      orientation: form.orientation,
      seconds: form.seconds,
      resolutionTier: form.resolutionTier,
      seed: form.seed ?? null,
      extra: form.extra,
      ...(firstFrame ? { firstFrame } : {}),
      ...(lastFrame ? { lastFrame } : {}),
      references,
    };
  }

  /**
   * Uploads what the draft's mode sends (journal-cached: a later submit reuses the assets); the
   * ids taken from the journal rather than uploaded now are listed in `fromJournal`.
   */
  private async upload(
    draftId: string,
    client: PublicApiClient,
    draft: LocalVideoDraft,
    limits: EffectiveLimits,
  ): Promise<{ uploaded: Map<string, string>; fromJournal: string[] }> {
    const mode = limits.modes[draft.generationMode];
    const inputs: { file: ProbedFile & ProbedMedia; role: InputRole }[] = [];
    if (mode) {
      for (const role of Object.values(mode.frames)) {
        const slot = frameSlot(role)?.slot;
        const file = slot ? draft[slot] : undefined;
        if (file && slot) inputs.push({ file, role: slot === 'firstFrame' ? 'first_frame' : 'last_frame' });
      }
      if (mode.referenceInputs)
        for (const ref of draft.references) inputs.push({ file: ref, role: referenceRole(ref) });
    }
    const uploaded = new Map<string, string>();
    const fromJournal: string[] = [];
    for (const { file, role } of inputs) {
      if (uploaded.has(file.id)) continue;
      const asset = await uploadInput(this.core.journal, client, file, {
        model: draft.model,
        role,
        onProgress: (state) =>
          this.emitUpload(draftId, { fileName: file.fileName, state, sentBytes: null, totalBytes: null }),
        onBytes: (sentBytes, totalBytes) =>
          this.emitUpload(draftId, { fileName: file.fileName, state: 'uploading', sentBytes, totalBytes }),
      });
      uploaded.set(file.id, asset.assetId);
      if (asset.fromJournal) fromJournal.push(asset.assetId);
    }
    return { uploaded, fromJournal };
  }

  private emitUpload(draftId: string, progress: UploadState): void {
    try {
      this.o.events.emit('uploads.progress', { draftId, ...progress });
    } catch (error) {
      this.o.logger.warn('studio event not sent', { error });
    }
  }

  private async prepared(draftId: string) {
    const stored = this.stored(draftId);
    const client = await this.core.profiles.clientFor(stored.form.profileId);
    const service = await this.videoService(client, stored.form.model);
    const limits = limitsFor(service);
    const draft = await this.localDraft(stored.form);
    assertDraftValid(draft, limits);
    return { stored, client, limits, draft };
  }

  // ---------------------------------------------------------------- optimize, admission, submit

  /**
   * A separate, billed call; the draft's prompt is not changed (the creator accepts or not). The
   * optimization's key belongs to the draft's current inputs: pressing Optimize again for the same
   * prompt, mode, references, spec and style returns the recorded result or replays the same key.
   */
  async optimize(draftId: string, style: string | undefined) {
    const { stored, client, limits, draft } = await this.prepared(draftId);
    if (!limits.optimization.available)
      throw new AppError(
        'optimization.unavailable',
        `The service "${draft.model}" does not offer prompt optimization.`,
      );
    let usedCache = false;
    const optimizeOnce = async () => {
      const { uploaded, fromJournal } = await this.upload(draftId, client, draft, limits);
      usedCache = fromJournal.length > 0;
      const inputs = buildOptimizationRequest(draft, uploaded, limits, {
        clientRequestId: 'derived-below',
        style: style?.trim() ? style : undefined,
      }) as PromptOptimizationRequest;
      // the key is derived from the body (asset ids included): new uploads make a new key
      const clientRequestId = optimizationKey(this.core.journal, {
        profileId: client.profileId,
        scope: `studio-draft:${draftId}`,
        request: inputs,
      });
      const request = { ...inputs, clientRequestId };
      const result = await forgettingUnknownAssets(this.core.journal, client, draft.model, fromJournal, () =>
        optimizePrompt(this.core.journal, client, request, {
          clientTimeoutSeconds: limits.optimization.clientTimeoutSeconds,
          draftId,
        }),
      );
      return { clientRequestId, result };
    };
    let attempt: Awaited<ReturnType<typeof optimizeOnce>>;
    try {
      attempt = await optimizeOnce();
    } catch (error) {
      // an input cached from the journal is unknown to the service: the refusal (recorded as
      // failed, nothing created) forgot the cached ids, so the inputs are uploaded again and the
      // optimization, whose body and key now name the new assets, is sent once more
      if (!usedCache || !isAssetNotFound(error)) throw error;
      attempt = await optimizeOnce();
    }
    const { clientRequestId, result } = attempt;
    return {
      clientRequestId,
      originalPrompt: stored.form.prompt,
      optimizedPrompt: result.optimizedPrompt ?? '',
    };
  }

  async admission(draftId: string) {
    const { client, limits, draft } = await this.prepared(draftId);
    const { uploaded } = await this.upload(draftId, client, draft, limits);
    const body = buildMediaGenerationRequest(draft, uploaded, limits) as unknown as Record<string, unknown>;
    const preview = await client.admissionPreview(draft.model, body);
    const admission = preview.admission as Record<string, unknown>;
    return {
      admitted: typeof admission.admitted === 'boolean' ? admission.admitted : null,
      admission,
      generatedAt: preview.generatedAt,
    };
  }

  waitSeconds(): number {
    return this.core.journal.settings.get<number>(WAIT_SETTING) ?? DEFAULT_WAIT_SECONDS;
  }

  setWaitSeconds(seconds: number): void {
    this.core.journal.settings.set(WAIT_SETTING, seconds);
  }

  /**
   * Checks a folder the creator wants as the library: absolute, a folder that exists or can be
   * created, and writable. Returns the normalized path; throws a clear error otherwise (a folder
   * this check created is removed again, so a refusal changes nothing).
   */
  async checkLibraryDir(folder: string): Promise<string> {
    const refuse = (why: string): never => {
      throw new AppError('settings.library_dir_invalid', `The library folder "${folder}" ${why}`);
    };
    if (folder.includes('\0')) refuse('contains a NUL character.');
    if (!path.isAbsolute(folder)) refuse('is not an absolute path.');
    const target = path.resolve(folder);
    let created: string | undefined;
    try {
      created = await mkdir(target, { recursive: true });
    } catch (error) {
      refuse(`cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
    try {
      if (!(await stat(target)).isDirectory()) refuse('is not a folder.');
      const probe = path.join(target, `.framewright-write-check-${randomUUID()}`);
      try {
        await writeFile(probe, '');
      } catch (error) {
        refuse(`is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
      }
      await rm(probe, { force: true });
    } catch (error) {
      if (created) await rm(created, { recursive: true, force: true });
      throw error;
    }
    return target;
  }

  /**
   * Submits the draft with ITS idempotency key. Returns once the service answered the creation
   * (or after a short wait, while the core keeps retrying the committed intent in the
   * background). A second call for the same draft joins the same intent: never a second job.
   */
  private readonly submitting = new Map<string, Promise<SubmitOutcome>>();

  submit(draftId: string): Promise<SubmitOutcome> {
    // a double click while the first call is still uploading joins it
    let running = this.submitting.get(draftId);
    if (!running) {
      running = this.submitOnce(draftId).finally(() => this.submitting.delete(draftId));
      this.submitting.set(draftId, running);
    }
    return running;
  }

  private async submitOnce(draftId: string): Promise<SubmitOutcome> {
    const stored = this.stored(draftId);
    const key = stored.idempotencyKey;
    const draft = await this.localDraft(stored.form);
    let failure: { error: unknown } | undefined;
    // answers once the create is answered; the run continues in the background (the engine owns the job)
    await submitVideo(this.core, {
      profileId: stored.form.profileId,
      draft,
      idempotencyKey: key,
      draftId,
      wait: {
        waitSeconds: this.waitSeconds(),
        until: 'accepted',
        answerWithinMs: SUBMIT_ANSWER_MS,
        onBackgroundEnd: (end) => {
          if ('error' in end) this.logSubmitError(draftId, end.error);
        },
      },
      onUpload: (progress) => this.emitUpload(draftId, progress),
    }).catch((error: unknown) => {
      failure = { error };
      this.logSubmitError(draftId, error);
    });
    const intent = this.core.journal.jobs.getIntent(key);
    if (intent && intent.state !== 'rejected') this.markSubmitted(draftId);
    if (failure) {
      // nothing was created (invalid draft, refused upload or creation): editable again, and a
      // fresh key when the old one was spent on a refused creation
      if (!intent || intent.state === 'rejected') this.reopen(draftId, intent !== undefined);
      if (!intent || intent.state !== 'accepted') throw failure.error;
    }
    const job = intent ? this.core.journal.jobs.getJobForIntent(intent.id) : undefined;
    if (job) this.setDraftJob(draftId, job.id);
    return {
      state: job ? ('accepted' as const) : ('pending' as const),
      idempotencyKey: key,
      jobRowId: job?.id ?? null,
      reason: job ? null : (intent?.errorMessage ?? null),
      draft: this.draft(draftId),
    };
  }

  private logSubmitError(draftId: string, error: unknown): void {
    // closing the app keeps the job in the journal for the next start: not an error
    if (!isEngineStopped(error)) this.o.logger.warn('studio submit ended with an error', { draftId, error });
  }

  private markSubmitted(draftId: string): void {
    const stored = this.stored(draftId);
    if (stored.submittedAt === null)
      this.core.journal.drafts.save<StoredDraft>(draftId, { ...stored, submittedAt: Date.now() });
  }

  private setDraftJob(draftId: string, jobRowId: number): void {
    const stored = this.stored(draftId);
    this.core.journal.drafts.save<StoredDraft>(draftId, { ...stored, jobRowId });
  }

  /** After a refused creation: editable again; a new key when the old one is spent. */
  private reopen(draftId: string, newKey: boolean): void {
    const stored = this.stored(draftId);
    this.core.journal.drafts.save<StoredDraft>(draftId, {
      ...stored,
      submittedAt: null,
      idempotencyKey: newKey ? `draft-${draftId}-${randomUUID()}` : stored.idempotencyKey,
    });
  }

  // ---------------------------------------------------------------- jobs and library

  private requireJob(jobRowId: number): JobWithOutputs {
    const job = this.core.journal.jobs.getJob(jobRowId);
    if (!job) throw new AppError('job.not_found', 'This job is not in the journal.');
    return job;
  }

  outputView(jobRowId: number, output: Output): OutputView {
    const verified = output.downloadState === 'verified';
    const route = `library/${jobRowId}/${output.id}`;
    return {
      id: output.id,
      position: output.position,
      state: output.downloadState,
      kind: nul(output.kind),
      mimeType: nul(output.mimeType ?? output.expectedMimeType),
      byteSize: nul(output.byteSize ?? output.expectedByteSize),
      sha256: nul(output.sha256),
      verified,
      verification: verificationOf(output),
      mediaUrl: verified ? mediaUrl(this.o.host, route) : null,
      posterUrl: verified ? mediaUrl(this.o.host, `${route}/poster`) : null,
    };
  }

  jobView(job: Job, intent?: JobIntent): JobView {
    const i = intent ?? this.core.journal.jobs.getIntentById(job.intentId);
    const body = i ? (JSON.parse(i.canonicalBodyJson) as Record<string, unknown>) : {};
    const outputs =
      'outputs' in job ? (job as JobWithOutputs).outputs : this.core.journal.outputs.listForJob(job.id);
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
      prompt: typeof body.prompt === 'string' ? body.prompt : '',
      generationMode: typeof body.generationMode === 'string' ? body.generationMode : null,
      draftId: nul(i?.draftId),
      outputs: outputs.map((o) => this.outputView(job.id, o)),
    };
  }

  listJobs(query: { status?: Job['status']; profileId?: string; cursor?: string; limit?: number }) {
    const page = this.core.journal.jobs.listJobs(query);
    return { items: page.items.map((j) => this.jobView(j)), nextCursor: page.nextCursor ?? null };
  }

  jobDetail(jobRowId: number): JobDetail {
    const job = this.requireJob(jobRowId);
    const intent = this.core.journal.jobs.getIntentById(job.intentId)!;
    const view = this.jobView(job, intent);
    const requested = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    const optimization = intent.optimizationClientRequestId
      ? this.core.journal.optimizations.get(intent.optimizationClientRequestId)
      : undefined;
    const stored = intent.draftId ? this.core.journal.drafts.get<StoredDraft>(intent.draftId) : undefined;
    const references: JobDetail['references'] = [];
    if (stored?.body.kind === 'studio-video') {
      const form = stored.body.form;
      const add = (m: DraftMedia | undefined, role: string) => {
        if (!m) return;
        let available = true;
        try {
          this.o.staged.get(m.id);
        } catch {
          available = false;
        }
        references.push({
          ...m,
          role,
          posterUrl: available ? mediaUrl(this.o.host, `staged/${m.id}/poster`) : null,
        });
      };
      if (typeof requested.input_image_asset_id === 'string') add(form.firstFrame, 'first_frame');
      if (typeof requested.end_image_asset_id === 'string') add(form.lastFrame, 'last_frame');
      if (Array.isArray(requested.referenceInputs)) for (const r of form.references) add(r, referenceRole(r));
    }
    return {
      ...view,
      requested,
      effectiveSpec: job.effectiveSpec ?? null,
      seed: typeof requested.seed === 'number' ? requested.seed : null,
      originalPrompt: optimization?.canonicalBodyJson
        ? ((JSON.parse(optimization.canonicalBodyJson) as { originalPrompt?: string }).originalPrompt ?? null)
        : null,
      optimizedPrompt: optimization?.optimizedPrompt ?? null,
      references,
    };
  }

  library(filter: {
    profileId?: string;
    model?: string;
    mode?: string;
    status?: Job['status'];
    from?: number;
    to?: number;
    query?: string;
  }): { items: JobView[] } {
    const jobs = filter.query?.trim()
      ? this.core.journal.jobs.searchJobs(filter.query, { profileId: filter.profileId, limit: 500 })
      : this.core.journal.jobs.listJobs({
          profileId: filter.profileId,
          status: filter.status ?? 'succeeded',
          limit: 500,
        }).items;
    const items = jobs
      .filter((j) => (filter.status ? j.status === filter.status : j.status === 'succeeded'))
      .filter((j) => !filter.model || j.model === filter.model)
      .filter((j) => filter.from === undefined || j.acceptedAt >= filter.from)
      .filter((j) => filter.to === undefined || j.acceptedAt <= filter.to)
      .map((j) => this.jobView(j))
      .filter((v) => !filter.mode || v.generationMode === filter.mode)
      .filter((v) => filter.status !== undefined || v.outputs.some((o) => o.verified));
    return { items };
  }

  /** Deletes a finished result: its journal rows first (so it leaves the library at once), then its files. */
  async deleteResult(jobRowId: number): Promise<{ deleted: boolean; filesRemoved: number }> {
    const job = this.requireJob(jobRowId);
    const libraries = await Promise.all(this.core.libraryDirs().map((dir) => realpath(dir).catch(() => dir)));
    const folders = new Set<string>();
    const files: string[] = [];
    for (const output of job.outputs) {
      for (const root of libraries) files.push(path.join(root, '.posters', `output-${output.id}.png`));
      if (!output.localPath) continue;
      const real = await realpath(output.localPath).catch(() => undefined);
      const library = real && libraries.find((root) => real.startsWith(root + path.sep));
      if (!real || !library) continue;
      files.push(real);
      const folder = path.dirname(real);
      if (folder !== library && folder.startsWith(library + path.sep)) folders.add(folder);
    }
    let deleted: boolean;
    try {
      deleted = this.core.journal.jobs.deleteJob(jobRowId);
    } catch (error) {
      throw new AppError('library.busy', error instanceof Error ? error.message : String(error));
    }
    let filesRemoved = 0;
    for (const file of files) {
      if (existsSync(file)) {
        await rm(file, { force: true });
        filesRemoved += 1;
      }
    }
    for (const folder of folders) await removeJobFolder(folder, job);
    return { deleted, filesRemoved };
  }

  libraryFolder(jobRowId: number): string {
    const job = this.requireJob(jobRowId);
    const output = job.outputs.find((o) => o.localPath);
    if (!output?.localPath) throw new AppError('library.no_file', 'This job has no file in the library yet.');
    return output.localPath.slice(
      0,
      Math.max(output.localPath.lastIndexOf('/'), output.localPath.lastIndexOf('\\')),
    );
  }

  // ---------------------------------------------------------------- engine events

  onEngineChange(change: EngineChange): void {
    try {
      if (change.type === 'job') this.o.events.emit('jobs.changed', this.jobView(change.job));
      else if (change.type === 'download')
        this.o.events.emit('downloads.progress', {
          jobRowId: change.progress.jobRowId,
          outputId: change.progress.outputId,
          receivedBytes: change.progress.receivedBytes,
          totalBytes: nul(change.progress.totalBytes),
        });
      else
        this.o.events.emit('intents.changed', {
          idempotencyKey: change.intent.idempotencyKey,
          draftId: nul(change.intent.draftId),
          state: change.intent.state,
          errorCode: nul(change.intent.errorCode),
          errorMessage: nul(change.intent.errorMessage),
        });
    } catch (error) {
      this.o.logger.warn('studio event not sent', { error });
    }
  }
}

function toStudioService(s: PublicService): StudioServiceView {
  const obj = (v: unknown) => (v && typeof v === 'object' ? (v as Record<string, unknown>) : null);
  return {
    modelAlias: s.modelAlias,
    serviceKind: s.serviceKind,
    available: isCallable(s),
    availability: serviceAvailability(s),
    displayName: s.serviceDisplayName ?? s.modelAlias,
    mediaSpecContract: obj(s.mediaSpecContract),
    apiUsageContract: obj(s.apiUsageContract),
    promptOptimization: obj(s.promptOptimization),
  };
}
