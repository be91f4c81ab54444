import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type {
  AssemblyView,
  SequenceShotView,
  SequenceSummary,
  SequenceView,
} from '../../../shared/bridge/domains/sequences.js';
import { DraftForm, type DraftMedia } from '../../../shared/bridge/domains/studio.js';
import { emptyDraftForm } from '../../../shared/bridge/draft-form.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { ShotRecord, ShotTrimRecord } from '../journal/sequences-repository.js';
import type { Logger } from '../logging/logger.js';
import { extractFirstFrame, extractFrameAt, extractLastFrame } from '../media-tools/video-frames.js';
import { sha256OfFile } from '../media-tools/probe-media.js';
import type { StoredDraft, StudioDrafts } from '../creating/drafts.js';
import type { JobViews } from '../library/job-views.js';
import { mediaUrl } from '../library/media-resolver.js';
import type { StagedFiles } from '../storage/staged-files.js';
import type { StudioSubmit } from '../creating/submit.js';
import { jobOfDraft, verifiedVideoOf, type ResultFacts } from './shot-results.js';
import type { SequenceAssembler } from './sequence-assembler.js';
import type { StudioHost } from '../library/studio-host.js';
import { resultFramesOf, snapTrim, trimFor, trimSeconds } from './shot-trims.js';

export interface SequencesFeatureDeps {
  journal: Pick<Journal, 'sequences' | 'jobs' | 'transaction'>;
  drafts: StudioDrafts;
  submit: Pick<StudioSubmit, 'submit'>;
  staged: Pick<StagedFiles, 'stageCopy' | 'get'>;
  views: Pick<JobViews, 'outputView'>;
  assembler: Pick<SequenceAssembler, 'assemble' | 'view' | 'fingerprintOf' | 'removeFilesOf'>;
  /** Where frames are written before they are staged (inside the data folder). */
  workDir: string;
  host: StudioHost;
  logger: Logger;
  /** Tells the renderers a sequence changed. */
  changed(sequenceId: string): void;
  /** The shots' measured facts, shared with the assembler (ffprobe once per result). */
  facts: ResultFacts;
  /** Removes the sequence's other library files (its deliveries) before it is deleted. */
  removeFilesOf?: (sequenceId: string) => Promise<void>;
}

const label = (position: number) => `Shot ${position + 1}`;

/**
 * Sequences (issue 15): ordered shots kept in the journal, each a studio draft (with its own
 * idempotency key) and, once generated, a job with its verified result. Continue and bridge take
 * exact frames of verified results (ffmpeg, lossless PNG) into new shots as ordinary staged
 * references, so they are uploaded, reused and checked by the H3 rules like any dropped image.
 */
export class SequencesFeature {
  constructor(private readonly d: SequencesFeatureDeps) {}

  list(): SequenceSummary[] {
    return this.d.journal.sequences.list().map((s) => ({
      sequenceId: s.id,
      name: s.name,
      shotCount: s.shotCount,
      totalSeconds: this.requestedTotal(s.id),
      updatedAt: s.updatedAt,
    }));
  }

  create(name: string): Promise<SequenceView> {
    const id = randomUUID();
    this.d.journal.sequences.create(id, cleanName(name));
    return this.get(id);
  }

  rename(sequenceId: string, name: string): Promise<SequenceView> {
    this.requireSequence(sequenceId);
    this.d.journal.sequences.rename(sequenceId, cleanName(name));
    return this.changedView(sequenceId);
  }

  async delete(sequenceId: string): Promise<{ deleted: boolean }> {
    if (!this.d.journal.sequences.get(sequenceId)) return { deleted: false };
    await this.d.assembler.removeFilesOf(sequenceId);
    await this.d.removeFilesOf?.(sequenceId);
    const deleted = this.d.journal.sequences.delete(sequenceId);
    return { deleted };
  }

  /** A new shot: a new draft (its own idempotency key) at the end or at `position`. */
  addShot(sequenceId: string, form: DraftForm, position?: number): Promise<SequenceView> {
    this.requireSequence(sequenceId);
    const draft = this.d.drafts.createDraft(DraftForm.parse(form));
    this.d.journal.sequences.insertShot({
      id: randomUUID(),
      sequenceId,
      draftId: draft.id,
      origin: 'new',
      sourceShotIds: [],
      position,
    });
    return this.changedView(sequenceId);
  }

  /**
   * A new sequence of library takes (a collection's, issue 41): one shot per video take, in the
   * order given, each a submitted copy of the take's draft that shows the take's verified result
   * (nothing is generated; "Copy to Create" of a shot makes it again). Takes that are not verified
   * videos are skipped and counted. All of it is written in one transaction.
   */
  async createFromTakes(
    name: string,
    jobRowIds: readonly number[],
  ): Promise<{ sequenceId: string; shots: number; skipped: number }> {
    const id = randomUUID();
    let shots = 0;
    this.d.journal.transaction(() => {
      this.d.journal.sequences.create(id, cleanName(name));
      for (const jobRowId of jobRowIds) {
        const job = this.d.journal.jobs.getJob(jobRowId);
        if (!job || job.status !== 'succeeded' || !verifiedVideoOf(job)) continue;
        const draft = this.d.drafts.copyJob(job.id, emptyDraftForm(job.profileId));
        this.d.drafts.setDraftJob(draft.id, job.id);
        this.d.drafts.markSubmitted(draft.id);
        this.d.journal.sequences.insertShot({
          id: randomUUID(),
          sequenceId: id,
          draftId: draft.id,
          origin: 'new',
          sourceShotIds: [],
        });
        shots += 1;
      }
    });
    this.d.changed(id);
    return { sequenceId: id, shots, skipped: jobRowIds.length - shots };
  }

  moveShot(sequenceId: string, shotId: string, toPosition: number): Promise<SequenceView> {
    this.requireShot(sequenceId, shotId);
    this.d.journal.sequences.moveShot(sequenceId, shotId, toPosition);
    return this.changedView(sequenceId);
  }

  removeShot(sequenceId: string, shotId: string): Promise<SequenceView> {
    this.requireShot(sequenceId, shotId);
    this.d.journal.sequences.removeShot(sequenceId, shotId);
    return this.changedView(sequenceId);
  }

  /** Puts a removed shot back where it was, with its draft, result and trim (undo on the timeline). */
  restoreShot(sequenceId: string, shotId: string): Promise<SequenceView> {
    this.requireSequence(sequenceId);
    if (!this.d.journal.sequences.restoreShot(sequenceId, shotId))
      throw new AppError(
        'sequence.shot_not_found',
        'That shot was not removed from this sequence (or it was put back already).',
      );
    return this.changedView(sequenceId);
  }

  /**
   * Trim a shot (issue 31): in and out points snapped to its result's frames and checked against
   * what ffprobe measured of it; `null` (or the whole result) clears them. The result's file is
   * never changed.
   */
  async trimShot(
    sequenceId: string,
    shotId: string,
    range: { inSeconds: number; outSeconds: number } | null,
  ): Promise<SequenceView> {
    const shot = this.requireShot(sequenceId, shotId);
    if (range === null) {
      this.d.journal.sequences.clearTrim(sequenceId, shotId);
      return this.changedView(sequenceId);
    }
    const video = verifiedVideoOf(jobOfDraft(this.d.journal.jobs, this.d.drafts.stored(shot.draftId)));
    if (!video)
      throw new AppError(
        'sequence.no_result',
        `${label(shot.position)} has no verified result yet: generate it before trimming it.`,
      );
    const frames = resultFramesOf(await this.d.facts.of(video), label(shot.position));
    const { inFrame, outFrame } = snapTrim(range, frames, label(shot.position));
    if (inFrame === 0 && outFrame === frames.frameCount) {
      // the whole result: no trim (the assembly made without one stays current)
      this.d.journal.sequences.clearTrim(sequenceId, shotId);
      return this.changedView(sequenceId);
    }
    this.d.journal.sequences.setTrim(sequenceId, {
      shotId,
      sourceSha256: video.sha256 ?? (await sha256OfFile(video.localPath)),
      fpsNum: frames.fpsNum,
      fpsDen: frames.fpsDen,
      inFrame,
      outFrame,
    });
    return this.changedView(sequenceId);
  }

  /**
   * Continue from a shot: the exact last frame of its verified result (its out-point frame when it
   * is trimmed) becomes the first frame of a new shot right after it (image-to-video, or first/last
   * frame with the creator's last frame).
   */
  async continueShot(input: {
    sequenceId: string;
    fromShotId: string;
    generationMode: 'i2v' | 'first_last_frame_video';
    lastFrameFileId?: string;
    prompt?: string;
  }): Promise<SequenceView> {
    const from = this.requireShot(input.sequenceId, input.fromShotId);
    if (input.generationMode === 'first_last_frame_video' && !input.lastFrameFileId)
      throw new AppError(
        'sequence.needs_last_frame',
        'A first/last-frame shot needs its last frame: pick or drop an image for it.',
      );
    if (input.generationMode === 'i2v' && input.lastFrameFileId)
      throw new AppError('sequence.needs_last_frame', 'An image-to-video shot has no last frame.');
    const lastFrame = input.lastFrameFileId ? this.d.staged.get(input.lastFrameFileId) : undefined;
    if (lastFrame && lastFrame.kind !== 'image')
      throw new AppError('file.unsupported_type', `${lastFrame.fileName} is not an image.`);
    const firstFrame = await this.frameOf(from, 'last');
    return this.insertAfter(from, 'continue', [from.id], {
      generationMode: input.generationMode,
      prompt: input.prompt,
      firstFrame,
      lastFrame,
    });
  }

  /**
   * Bridge two shots: first/last frame from A's last frame to B's first frame (the out-point and
   * in-point frames of trimmed shots), placed right after A.
   */
  async bridgeShots(input: {
    sequenceId: string;
    fromShotId: string;
    toShotId: string;
    prompt?: string;
  }): Promise<SequenceView> {
    const from = this.requireShot(input.sequenceId, input.fromShotId);
    const to = this.requireShot(input.sequenceId, input.toShotId);
    if (from.id === to.id)
      throw new AppError('sequence.shot_not_found', 'A shot cannot be bridged to itself.');
    const firstFrame = await this.frameOf(from, 'last');
    const lastFrame = await this.frameOf(to, 'first');
    return this.insertAfter(from, 'bridge', [from.id, to.id], {
      generationMode: 'first_last_frame_video',
      prompt: input.prompt,
      firstFrame,
      lastFrame,
    });
  }

  /**
   * Submits the shots still drafts (or only `shotId`), in order, each under its own draft's
   * idempotency key: a second call joins or finds the same jobs and creates nothing new.
   */
  async generate(
    sequenceId: string,
    shotId?: string,
  ): Promise<{
    submitted: { shotId: string; state: 'accepted' | 'pending' | 'refused'; message: string | null }[];
    sequence: SequenceView;
  }> {
    this.requireSequence(sequenceId);
    const shots = shotId
      ? [this.requireShot(sequenceId, shotId)]
      : this.d.journal.sequences.shots(sequenceId);
    const submitted: { shotId: string; state: 'accepted' | 'pending' | 'refused'; message: string | null }[] =
      [];
    for (const shot of shots) {
      const draft = this.d.drafts.stored(shot.draftId);
      if (draft.submittedAt !== null && !shotId) continue;
      try {
        const result = await this.d.submit.submit(shot.draftId);
        submitted.push({ shotId: shot.id, state: result.state, message: result.reason });
      } catch (error) {
        submitted.push({
          shotId: shot.id,
          state: 'refused',
          message: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return { submitted, sequence: await this.changedView(sequenceId) };
  }

  assemble(sequenceId: string, crossfadeSeconds = 0): Promise<AssemblyView> {
    const sequence = this.requireSequence(sequenceId);
    return this.d.assembler.assemble(sequence, this.d.journal.sequences.shots(sequenceId), crossfadeSeconds);
  }

  async get(sequenceId: string): Promise<SequenceView> {
    const sequence = this.requireSequence(sequenceId);
    const shots = this.d.journal.sequences.shots(sequenceId);
    const present = new Set(shots.map((s) => s.id));
    const trims = this.d.journal.sequences.trimsOf(sequenceId);
    const views = await Promise.all(shots.map((shot) => this.shotView(shot, present, trims.get(shot.id))));
    const latest = this.d.journal.sequences.latestAssembly(sequenceId);
    const assemblable = views.length > 0 && views.every((v) => v.mediaUrl !== null);
    let current = false;
    if (latest && assemblable)
      current = latest.fingerprint === (await this.d.assembler.fingerprintOf(shots, latest.crossfadeSeconds));
    return {
      sequenceId,
      name: sequence.name,
      shots: views,
      totalSeconds: round3(
        views.reduce((sum, v) => sum + (v.trim?.seconds ?? v.durationSeconds ?? v.seconds), 0),
      ),
      assemblable,
      assembly: latest ? this.d.assembler.view(latest) : null,
      assemblyCurrent: current,
      createdAt: sequence.createdAt,
      updatedAt: sequence.updatedAt,
    };
  }

  /** The sequence named by id or (case-insensitively) by name: for the CLI. */
  find(ref: string): string {
    if (this.d.journal.sequences.get(ref)) return ref;
    const byName = this.d.journal.sequences.list().filter((s) => s.name.toLowerCase() === ref.toLowerCase());
    if (byName.length === 1) return byName[0]!.id;
    throw new AppError(
      'sequence.not_found',
      byName.length > 1
        ? `Several sequences are named "${ref}": use its id (framewright sequence list).`
        : `No sequence is named "${ref}" (framewright sequence list).`,
    );
  }

  /** The seed a job's create body carried (undefined: none, or no job). */
  private sentSeed(job: { intentId: number } | undefined): number | undefined {
    const intent = job && this.d.journal.jobs.getIntentById(job.intentId);
    if (!intent) return undefined;
    const seed = (JSON.parse(intent.canonicalBodyJson) as { seed?: unknown }).seed;
    return typeof seed === 'number' ? seed : undefined;
  }

  private async shotView(
    shot: ShotRecord,
    present: Set<string>,
    stored: ShotTrimRecord | undefined,
  ): Promise<SequenceShotView> {
    const draft = this.d.drafts.stored(shot.draftId);
    const job = jobOfDraft(this.d.journal.jobs, draft);
    const video = verifiedVideoOf(job);
    const output = video && job ? this.d.views.outputView(job.id, video) : undefined;
    const facts = video ? await this.d.facts.of(video).catch(() => undefined) : undefined;
    const durationSeconds = facts?.durationSeconds ?? null;
    const trim = trimFor(stored, video?.sha256);
    const first = draft.form.firstFrame;
    return {
      shotId: shot.id,
      position: shot.position,
      label: label(shot.position),
      draftId: shot.draftId,
      origin: shot.origin,
      sourceShotIds: shot.sourceShotIds.filter((id) => present.has(id)),
      prompt: draft.form.prompt,
      model: draft.form.model,
      seed: this.sentSeed(job) ?? draft.form.seed ?? null,
      generationMode: draft.form.generationMode,
      seconds: draft.form.seconds,
      state: job ? job.status : draft.submittedAt !== null ? 'submitted' : 'draft',
      jobRowId: job?.id ?? null,
      jobId: job?.jobId ?? null,
      errorMessage: job?.errorMessage ?? this.intentError(draft),
      durationSeconds: durationSeconds === null ? null : round3(durationSeconds),
      sha256: video?.sha256 ?? null,
      mediaUrl: output?.mediaUrl ?? null,
      posterUrl: output?.posterUrl ?? null,
      firstFramePosterUrl: first ? mediaUrl(this.d.host, `staged/${first.id}/poster`) : null,
      frameRate: facts?.frameRate ? facts.frameRate.num / facts.frameRate.den : null,
      frameCount: facts?.frameCount ?? null,
      frameUrls: output?.frameUrls ?? [],
      trim: trim ? { ...roundedTrim(trim), inFrame: trim.inFrame, outFrame: trim.outFrame } : null,
    };
  }

  private intentError(draft: StoredDraft): string | null {
    const intent = this.d.journal.jobs.currentIntent(draft.idempotencyKey);
    return intent?.errorMessage ?? null;
  }

  /**
   * A shot made from `from` (continue, bridge), placed right after it: the source's settings with
   * the new mode, frames and prompt (the source's when none is given), no references and no seed
   * (the platform decides), as a new draft with its own idempotency key.
   */
  private insertAfter(
    from: ShotRecord,
    origin: 'continue' | 'bridge',
    sourceShotIds: string[],
    shot: { generationMode: string; prompt?: string; firstFrame: DraftMedia; lastFrame?: DraftMedia },
  ): Promise<SequenceView> {
    const base = this.d.drafts.stored(from.draftId).form;
    const draft = this.d.drafts.createDraft(
      DraftForm.parse({
        ...base,
        generationMode: shot.generationMode,
        prompt: shot.prompt ?? base.prompt,
        seed: null,
        firstFrame: shot.firstFrame,
        lastFrame: shot.lastFrame,
        references: [],
      }),
    );
    this.d.journal.sequences.insertShot({
      id: randomUUID(),
      sequenceId: from.sequenceId,
      draftId: draft.id,
      origin,
      sourceShotIds,
      position: from.position + 1,
    });
    return this.changedView(from.sequenceId);
  }

  /**
   * A frame of a shot's verified result, written as a lossless PNG and staged as a composer file:
   * its last or first frame, or for a trimmed shot the last or first frame of its kept range.
   */
  private async frameOf(shot: ShotRecord, which: 'first' | 'last'): Promise<DraftMedia> {
    const draft = this.d.drafts.stored(shot.draftId);
    const video = verifiedVideoOf(jobOfDraft(this.d.journal.jobs, draft));
    if (!video) {
      // a shot not generated yet still has a first frame when it was made from one
      if (which === 'first' && draft.form.firstFrame) return draft.form.firstFrame;
      throw new AppError(
        which === 'last' ? 'sequence.no_result' : 'sequence.no_first_frame',
        which === 'last'
          ? `${label(shot.position)} has no verified result yet: generate it first.`
          : `${label(shot.position)} has no first frame yet: generate it first.`,
      );
    }
    await mkdir(this.d.workDir, { recursive: true });
    const dir = await mkdtemp(path.join(this.d.workDir, 'frame-'));
    const file = path.join(dir, `${label(shot.position).replace(' ', '-').toLowerCase()}-${which}-frame.png`);
    const trim = trimFor(this.d.journal.sequences.trimsOf(shot.sequenceId).get(shot.id), video.sha256);
    try {
      if (trim)
        await extractFrameAt(video.localPath, which === 'last' ? trim.outFrame - 1 : trim.inFrame, file);
      else await (which === 'last' ? extractLastFrame : extractFirstFrame)(video.localPath, file);
      return await this.d.staged.stageCopy(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  private requestedTotal(sequenceId: string): number {
    return this.d.journal.sequences
      .shots(sequenceId)
      .reduce((sum, shot) => sum + (this.d.drafts.find(shot.draftId)?.form.seconds ?? 0), 0);
  }

  private requireSequence(sequenceId: string) {
    const sequence = this.d.journal.sequences.get(sequenceId);
    if (!sequence) throw new AppError('sequence.not_found', 'This sequence no longer exists.');
    return sequence;
  }

  private requireShot(sequenceId: string, shotId: string): ShotRecord {
    this.requireSequence(sequenceId);
    const shot = this.d.journal.sequences.shots(sequenceId).find((s) => s.id === shotId);
    if (!shot) throw new AppError('sequence.shot_not_found', 'This shot is not in the sequence.');
    return shot;
  }

  private async changedView(sequenceId: string): Promise<SequenceView> {
    this.d.changed(sequenceId);
    return this.get(sequenceId);
  }
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 120)
    throw new AppError('sequence.invalid_name', 'A sequence name has 1 to 120 characters.');
  return trimmed;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** A trim's seconds as the views show them (to the millisecond; the frames stay exact). */
function roundedTrim(trim: ShotTrimRecord) {
  const { inSeconds, outSeconds, seconds } = trimSeconds(trim);
  return { inSeconds: round3(inSeconds), outSeconds: round3(outSeconds), seconds: round3(seconds) };
}
