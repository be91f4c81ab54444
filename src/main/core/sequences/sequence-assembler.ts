import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { AssemblyView } from '../../../shared/bridge/domains/sequences.js';
import { CROSSFADE_MAX_SECONDS } from '../../../shared/bridge/domains/sequences.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { AssemblyRecord, SequenceRecord, ShotRecord } from '../journal/sequences-repository.js';
import type { Logger } from '../logging/logger.js';
import { renderAssembly, type AssemblyCanvas, type AssemblyShot } from '../media-tools/assemble-shots.js';
import { readMediaFacts, sha256OfFile } from '../media-tools/probe-media.js';
import type { StudioDrafts } from '../creating/drafts.js';
import { mediaUrl } from '../library/media-resolver.js';
import { jobOfDraft, verifiedVideoOf, type ResultFacts } from './shot-results.js';
import type { StudioHost } from '../library/studio-host.js';
import { trimFor, trimSeconds } from './shot-trims.js';
import { checkMediaRoom } from '../media-tools/media-work-queue.js';
import { holdQuota, type QuotaHold, type RecordingQuota } from '../storage/storage-usage.js';

/** H3's canvas (spec: landscape 1376x768, portrait 768x1376, 24 fps), used when a job has no effective spec. */
const H3_FPS = 24;
const H3_CANVAS: Record<string, { width: number; height: number }> = {
  landscape: { width: 1376, height: 768 },
  portrait: { width: 768, height: 1376 },
};

/** How far the assembled file's measured duration may be from the planned one (one frame and AAC padding). */
const DURATION_TOLERANCE_SECONDS = 0.15;

/**
 * An assembly left 'assembling' longer than this belongs to a process that stopped (a render of
 * even a long sequence ends well within it; another process may be rendering a fresh one).
 */
const ABANDONED_AFTER_MS = 6 * 3600 * 1000;

/** What the fingerprint and the render need of each shot. */
interface ShotSource {
  shot: ShotRecord;
  path: string;
  sha256: string;
  jobId: string;
  jobRowId: number;
  model: string;
  prompt: string;
  durationSeconds: number;
  hasAudioTrack: boolean;
  canvas: { width: number; height: number };
  /** The kept range when the shot is trimmed (frames of the file and the same in seconds). */
  trim?: { inFrame: number; outFrame: number; inSeconds: number; outSeconds: number };
}

export interface SequenceAssemblerDeps {
  journal: Pick<Journal, 'sequences' | 'jobs'>;
  drafts: Pick<StudioDrafts, 'stored'>;
  libraryDir: () => string;
  host: StudioHost;
  logger: Logger;
  /** Progress and the end of an assembly, for the renderers. */
  emit(view: AssemblyView): void;
  changed(sequenceId: string): void;
  /** The shots' measured facts, shared with the sequence views (ffprobe once per result). */
  facts: ResultFacts;
  /** The person's storage quota (the platform): a render is held against it before it starts. */
  quota?: RecordingQuota;
}

/**
 * "Assemble" (issue 15): renders a sequence's verified shots into one MP4 in the library folder,
 * offline, with progress; checks the file (duration, picture and sound, sha256) and writes a
 * sidecar listing every source shot by job id and sha256 (and its trim). The same shots, order,
 * trims, cross-fade and canvas (the fingerprint) answer the earlier file instead of rendering again.
 */
export class SequenceAssembler {
  private readonly running = new Map<
    string,
    {
      progress: number;
      /** Jobs ahead of the render in the media-work queue; null once it runs. */
      waitingAhead: number | null;
      done: Promise<void>;
      listeners: Set<(view: AssemblyView) => void>;
    }
  >();

  constructor(private readonly d: SequenceAssemblerDeps) {
    const now = Date.now();
    for (const stale of d.journal.sequences.unfinishedAssemblies())
      if (now - stale.updatedAt > ABANDONED_AFTER_MS)
        d.journal.sequences.failAssembly(stale.id, 'The assembly was interrupted; assemble again.');
  }

  /** The fingerprint of what an assembly would be made from; '' while a shot has no result. */
  async fingerprintOf(shots: readonly ShotRecord[], crossfadeSeconds: number): Promise<string> {
    const sources = await this.sources(shots).catch(() => undefined);
    return sources ? this.fingerprint(sources, crossfadeSeconds) : '';
  }

  async assemble(
    sequence: SequenceRecord,
    shots: readonly ShotRecord[],
    crossfadeSeconds: number,
  ): Promise<AssemblyView> {
    if (!(crossfadeSeconds >= 0 && crossfadeSeconds <= CROSSFADE_MAX_SECONDS))
      throw new AppError(
        'sequence.invalid_crossfade',
        `The cross-fade is 0 to ${CROSSFADE_MAX_SECONDS} seconds (got ${crossfadeSeconds}).`,
      );
    if (shots.length === 0) throw new AppError('sequence.not_assemblable', 'The sequence has no shots.');
    const sources = await this.sources(shots);
    const fingerprint = this.fingerprint(sources, crossfadeSeconds);
    const earlier = this.d.journal.sequences.assemblyWithFingerprint(sequence.id, fingerprint);
    if (earlier?.state === 'ready' && (await this.intact(earlier))) return this.view(earlier, true);
    if (earlier?.state === 'assembling' && this.running.has(earlier.id)) return this.view(earlier, true);
    checkMediaRoom();
    // the film (and its sidecar) is about the size of its shots: over the quota, refused before any work
    const sizes = await Promise.all(sources.map((s) => stat(s.path).then((info) => info.size)));
    const hold = await holdQuota(
      this.d.quota,
      sizes.reduce((sum, size) => sum + size, 0),
      2,
    );

    const record = this.d.journal.sequences.startAssembly({
      id: randomUUID(),
      sequenceId: sequence.id,
      fingerprint,
      crossfadeSeconds,
    });
    const state = {
      progress: 0,
      waitingAhead: null as number | null,
      done: Promise.resolve(),
      listeners: new Set<(view: AssemblyView) => void>(),
    };
    this.running.set(record.id, state);
    state.done = this.render(sequence, record, sources, hold).finally(() => this.running.delete(record.id));
    return this.view(record);
  }

  /**
   * Waits for an assembly this process is rendering, telling `onProgress` of its progress (the CLI
   * waits; the app listens to events).
   */
  async finished(assemblyId: string, onProgress?: (view: AssemblyView) => void): Promise<AssemblyView> {
    const running = this.running.get(assemblyId);
    if (running && onProgress) running.listeners.add(onProgress);
    await running?.done;
    const record = this.d.journal.sequences.assembly(assemblyId);
    if (!record) throw new AppError('sequence.not_found', 'This assembly no longer exists.');
    return this.view(record);
  }

  /** Where a ready assembly and its sidecar lie (for the CLI's answer; never sent to a renderer). */
  filesOf(assemblyId: string): { localPath: string | null; sidecarPath: string | null } {
    const record = this.d.journal.sequences.assembly(assemblyId);
    return { localPath: record?.localPath ?? null, sidecarPath: record?.sidecarPath ?? null };
  }

  view(record: AssemblyRecord, reused = false): AssemblyView {
    const ready = record.state === 'ready';
    return {
      assemblyId: record.id,
      sequenceId: record.sequenceId,
      state: record.state,
      progress: ready ? 1 : (this.running.get(record.id)?.progress ?? 0),
      crossfadeSeconds: record.crossfadeSeconds,
      mediaUrl: ready ? mediaUrl(this.d.host, `assembly/${record.id}`) : null,
      fileName: record.localPath ? path.basename(record.localPath) : null,
      durationSeconds: record.durationSeconds ?? null,
      byteSize: record.byteSize ?? null,
      sha256: record.sha256 ?? null,
      chapters: [...record.chapters],
      errorMessage: record.errorMessage ?? null,
      createdAt: record.createdAt,
      reused,
      waitingAhead: ready ? null : (this.running.get(record.id)?.waitingAhead ?? null),
    };
  }

  /** Removes the files of a sequence's assemblies (before the sequence is deleted). */
  async removeFilesOf(sequenceId: string): Promise<void> {
    for (const a of this.d.journal.sequences.assembliesOf(sequenceId))
      for (const file of [a.localPath, a.sidecarPath]) {
        if (!file) continue;
        const info = await stat(file).catch(() => undefined);
        await rm(file, { force: true });
        if (info) this.d.quota?.release(info.size, 1);
      }
  }

  private async sources(shots: readonly ShotRecord[]): Promise<ShotSource[]> {
    const missing: string[] = [];
    const sources: ShotSource[] = [];
    const trims = shots[0] ? this.d.journal.sequences.trimsOf(shots[0].sequenceId) : new Map();
    for (const shot of shots) {
      const draft = this.d.drafts.stored(shot.draftId);
      const job = jobOfDraft(this.d.journal.jobs, draft);
      const video = verifiedVideoOf(job);
      if (!job || !video || !existsSync(video.localPath)) {
        missing.push(`Shot ${shot.position + 1}`);
        continue;
      }
      const facts = await this.d.facts.of(video);
      const spec = (job.effectiveSpec ?? {}) as { width?: unknown; height?: unknown };
      const canvas =
        typeof spec.width === 'number' && typeof spec.height === 'number'
          ? { width: spec.width, height: spec.height }
          : (H3_CANVAS[draft.form.orientation] ?? H3_CANVAS.landscape!);
      const sha256 = video.sha256 ?? (await sha256OfFile(video.localPath));
      const trim = trimFor(trims.get(shot.id), sha256);
      sources.push({
        shot,
        path: video.localPath,
        sha256,
        jobId: job.jobId,
        jobRowId: job.id,
        model: job.model,
        prompt: draft.form.prompt,
        durationSeconds: facts.durationSeconds ?? draft.form.seconds,
        hasAudioTrack: facts.hasAudioTrack,
        canvas,
        ...(trim
          ? {
              trim: {
                inFrame: trim.inFrame,
                outFrame: trim.outFrame,
                inSeconds: trimSeconds(trim).inSeconds,
                outSeconds: trimSeconds(trim).outSeconds,
              },
            }
          : {}),
      });
    }
    if (missing.length > 0)
      throw new AppError(
        'sequence.not_assemblable',
        `${missing.join(', ')} ${missing.length === 1 ? 'has' : 'have'} no verified result yet: generate ${missing.length === 1 ? 'it' : 'them'} first.`,
      );
    return sources;
  }

  private canvasOf(sources: readonly ShotSource[]): AssemblyCanvas {
    return { ...sources[0]!.canvas, fps: H3_FPS };
  }

  private fingerprint(sources: readonly ShotSource[], crossfadeSeconds: number): string {
    const what = {
      v: 1,
      crossfadeSeconds,
      canvas: this.canvasOf(sources),
      // a trimmed shot adds its frames (an untrimmed one keeps the fingerprint it had before trims)
      shots: sources.map((s, i) => ({
        sha256: s.sha256,
        title: `Shot ${i + 1}`,
        ...(s.trim ? { inFrame: s.trim.inFrame, outFrame: s.trim.outFrame } : {}),
      })),
    };
    return createHash('sha256').update(JSON.stringify(what)).digest('hex');
  }

  private async intact(record: AssemblyRecord): Promise<boolean> {
    if (!record.localPath || !existsSync(record.localPath)) return false;
    const info = await stat(record.localPath).catch(() => undefined);
    return info?.size === record.byteSize && (await sha256OfFile(record.localPath)) === record.sha256;
  }

  private async render(
    sequence: SequenceRecord,
    record: AssemblyRecord,
    sources: ShotSource[],
    hold: QuotaHold,
  ): Promise<void> {
    const folder = path.join(this.d.libraryDir(), 'sequences');
    const base = `${safeFileName(sequence.name)}-${record.id.slice(0, 8)}`;
    const finalPath = path.join(folder, `${base}.mp4`);
    const sidecarPath = path.join(folder, `${base}.json`);
    const temp = path.join(folder, `.${base}.${process.pid}.part.mp4`);
    let lastEmit = 0;
    try {
      await mkdir(folder, { recursive: true });
      const shots: AssemblyShot[] = sources.map((s, i) => ({
        path: s.path,
        durationSeconds: s.durationSeconds,
        ...(s.trim ? { inSeconds: s.trim.inSeconds, outSeconds: s.trim.outSeconds } : {}),
        hasAudioTrack: s.hasAudioTrack,
        title: `Shot ${i + 1}`,
      }));
      const plan = { shots, canvas: this.canvasOf(sources), crossfadeSeconds: record.crossfadeSeconds };
      const tell = () => {
        const view = this.view(record);
        this.d.emit(view);
        for (const listener of this.running.get(record.id)?.listeners ?? []) listener(view);
      };
      const timeline = await renderAssembly(plan, temp, {
        title: sequence.name,
        onWaiting: (ahead) => {
          const state = this.running.get(record.id);
          if (state) state.waitingAhead = ahead;
          tell();
        },
        onProgress: (fraction) => {
          const state = this.running.get(record.id);
          if (state) {
            state.progress = fraction;
            state.waitingAhead = null;
          }
          if (Date.now() - lastEmit < 200) return;
          lastEmit = Date.now();
          tell();
        },
      });
      const facts = await readMediaFacts(temp);
      if (!facts.hasVideoTrack || !facts.hasAudioTrack)
        throw new AppError('sequence.assembly_failed', 'The assembled file lacks its picture or its sound.');
      if (Math.abs((facts.durationSeconds ?? 0) - timeline.totalSeconds) > DURATION_TOLERANCE_SECONDS)
        throw new AppError(
          'sequence.assembly_failed',
          `The assembled file lasts ${facts.durationSeconds ?? 0} s instead of ${timeline.totalSeconds} s.`,
        );
      const sha256 = await sha256OfFile(temp);
      const { size } = await stat(temp);
      await rename(temp, finalPath);
      const sidecar = {
        framewright: 1,
        kind: 'sequence-assembly',
        sequence: { id: sequence.id, name: sequence.name },
        assemblyId: record.id,
        assembledAt: new Date().toISOString(),
        file: path.basename(finalPath),
        sha256,
        byteSize: size,
        durationSeconds: timeline.totalSeconds,
        canvas: plan.canvas,
        crossfadeSeconds: record.crossfadeSeconds,
        chapters: timeline.chapters,
        shots: sources.map((s, i) => ({
          position: i + 1,
          label: `Shot ${i + 1}`,
          origin: s.shot.origin,
          jobId: s.jobId,
          jobRowId: s.jobRowId,
          model: s.model,
          prompt: s.prompt,
          sha256: s.sha256,
          durationSeconds: s.durationSeconds,
          trim: s.trim ?? null,
          file: path.basename(s.path),
        })),
      };
      const sidecarText = `${JSON.stringify(sidecar, null, 2)}\n`;
      await writeFile(sidecarPath, sidecarText);
      hold.settle(size + Buffer.byteLength(sidecarText), 2);
      this.d.journal.sequences.finishAssembly(record.id, {
        localPath: finalPath,
        sidecarPath,
        sha256,
        byteSize: size,
        durationSeconds: timeline.totalSeconds,
        chapters: timeline.chapters,
      });
    } catch (error) {
      hold.cancel();
      await rm(temp, { force: true });
      const message = error instanceof Error ? error.message : String(error);
      this.d.logger.warn('sequence assembly failed', { sequenceId: sequence.id, error: message });
      this.d.journal.sequences.failAssembly(record.id, message);
    }
    const done = this.d.journal.sequences.assembly(record.id);
    if (done) this.d.emit(this.view(done));
    this.d.changed(sequence.id);
  }
}

/** A file name from a sequence name: letters, digits, dashes and underscores only. */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return cleaned || 'sequence';
}
