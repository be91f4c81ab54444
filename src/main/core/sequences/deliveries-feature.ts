import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  AssemblyView,
  DeliveryRequest,
  DeliveryView,
  SequenceView,
} from '../../../shared/bridge/domains/sequences.js';
import { DELIVERY_PRESETS, WEB_LOUDNESS_LUFS } from '../../../shared/delivery-formats.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { DeliveryRecord } from '../journal/deliveries-repository.js';
import type { Logger } from '../logging/logger.js';
import { mediaUrl } from '../library/media-resolver.js';
import type { StudioHost } from '../library/studio-host.js';
import { sha256OfFile } from '../media-tools/probe-media.js';
import { isProcessAlive } from '../process/process-liveness.js';
import { produceDeliveryFile } from './delivery-file.js';
import type {
  DeliveryCaptionCue,
  DeliveryMixer,
  DeliveryMixPlan,
  DeliverySoundtrack,
} from './delivery-ports.js';
import { safeFileName, type SequenceAssembler } from './sequence-assembler.js';
import type { SequencesFeature } from './sequences-feature.js';
import { checkMediaRoom } from '../media-tools/media-work-queue.js';
import { holdQuota, type QuotaHold, type RecordingQuota } from '../storage/storage-usage.js';

export interface DeliveriesFeatureDeps {
  journal: Pick<Journal, 'sequences' | 'deliveries'>;
  sequences: Pick<SequencesFeature, 'get' | 'assemble'>;
  assembler: Pick<SequenceAssembler, 'finished' | 'filesOf'>;
  soundtrack: DeliverySoundtrack;
  mixer: DeliveryMixer;
  libraryDir: () => string;
  host: StudioHost;
  logger: Logger;
  /** Progress and the end of a delivery, for the renderers. */
  emit(view: DeliveryView): void;
  changed(sequenceId: string): void;
  /** The person's storage quota (the platform): a delivery is held against it before it renders. */
  quota?: RecordingQuota;
}

/** The folder of a library that holds deliveries. */
export const deliveriesFolderOf = (libraryDir: string) => path.join(libraryDir, 'sequences', 'deliveries');

/**
 * A render's temporary files: `.<deliveryId>.<pid>.part.*` beside the final file (the mixer's
 * own partial file of the sound adds a dot in front).
 */
const TEMP_NAME = /^\.+([0-9a-f-]{36})\.(\d+)\.part\./;

/** A delivery left 'rendering' without a file of a live process this long belongs to a process that stopped. */
const ABANDONED_AFTER_MS = 6 * 3600 * 1000;

interface Running {
  progress: number;
  controller: AbortController;
  done: Promise<void>;
  listeners: Set<(view: DeliveryView) => void>;
}

/**
 * Delivery formats (issue 31): the sequence's latest ready assembly (assembled first when there is
 * none or the shots changed) and its sound track, rendered into a preset's frame (pad or crop),
 * normalized to a loudness target, captions burned in when chosen, as a verified file of the
 * library with a sidecar listing its sources. The same assembly, mix plan, preset, fit, target and
 * captions (the reuse key) answer the earlier file. Renders run one at a time, report progress and
 * can be cancelled; a cancelled or crashed render leaves no part of its file in the library.
 */
export class DeliveriesFeature {
  private readonly running = new Map<string, Running>();
  /** Renders run one after another (each uses every core ffmpeg can). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly d: DeliveriesFeatureDeps) {}

  /**
   * Removes what a stopped process left: temporary files of renders whose process is gone, and
   * their deliveries (ended as failed). Called once at start; a failure is only logged.
   */
  async cleanUpInterrupted(): Promise<void> {
    const folder = deliveriesFolderOf(this.d.libraryDir());
    const names = await readdir(folder).catch(() => [] as string[]);
    const live = new Set<string>();
    for (const name of names) {
      const match = TEMP_NAME.exec(name);
      if (!match) continue;
      const pid = Number(match[2]);
      if (pid !== process.pid && isProcessAlive(pid)) {
        live.add(match[1]!);
        continue;
      }
      if (pid === process.pid && this.running.has(match[1]!)) continue;
      await rm(path.join(folder, name), { force: true });
      this.d.journal.deliveries.end(match[1]!, 'failed', 'The delivery was interrupted; deliver again.');
    }
    const now = Date.now();
    for (const stale of this.d.journal.deliveries.rendering())
      if (!this.running.has(stale.id) && !live.has(stale.id) && now - stale.updatedAt > ABANDONED_AFTER_MS)
        this.d.journal.deliveries.end(stale.id, 'failed', 'The delivery was interrupted; deliver again.');
  }

  /**
   * Starts a delivery (or answers the earlier one made from the same sources). Assembles first
   * when the sequence has no ready assembly of its current shots, and waits for it.
   */
  async deliver(request: DeliveryRequest): Promise<DeliveryView> {
    const sequence = this.d.journal.sequences.get(request.sequenceId);
    if (!sequence) throw new AppError('sequence.not_found', 'This sequence no longer exists.');
    const preset = request.preset;
    const fit = request.fit ?? 'pad';
    const loudnessTarget = request.loudnessTarget ?? WEB_LOUDNESS_LUFS;
    const burnCaptions = request.burnCaptions ?? false;
    const assembly = await this.readyAssembly(await this.d.sequences.get(sequence.id));
    const localPath = this.d.assembler.filesOf(assembly.assemblyId).localPath;
    if (!localPath || !assembly.sha256 || assembly.durationSeconds === null)
      throw new AppError('sequence.not_assemblable', 'The assembled file is missing: assemble again.');
    const mixPlan = await this.d.soundtrack.mixPlanOf(sequence.id);
    const captions = burnCaptions ? await this.d.soundtrack.captionsOf(sequence.id) : [];
    const reuseKey = createHash('sha256')
      .update(
        JSON.stringify({
          v: 1,
          assembly: assembly.sha256,
          mix: mixPlan?.planKey ?? null,
          preset,
          fit,
          loudnessTarget,
          burnCaptions,
          captions: burnCaptions ? captions : null,
        }),
      )
      .digest('hex');
    const earlier = this.d.journal.deliveries.withReuseKey(sequence.id, reuseKey);
    if (earlier?.state === 'ready' && (await intact(earlier))) return this.view(earlier, true);
    if (earlier?.state === 'rendering' && this.running.has(earlier.id)) return this.view(earlier, true);
    checkMediaRoom();
    // a delivery is about the size of its assembly: over the quota, refused before any work
    const hold = await holdQuota(this.d.quota, assembly.byteSize ?? 0, 2);
    const record = this.d.journal.deliveries.start({
      id: randomUUID(),
      sequenceId: sequence.id,
      preset,
      fit,
      loudnessTarget,
      burnCaptions,
      reuseKey,
    });
    const state: Running = {
      progress: 0,
      controller: new AbortController(),
      done: Promise.resolve(),
      listeners: new Set(),
    };
    this.running.set(record.id, state);
    const job = this.queue.then(() =>
      this.render(record, state, hold, {
        sequenceName: sequence.name,
        assembly,
        assemblyPath: localPath,
        assemblySidecar: this.d.assembler.filesOf(assembly.assemblyId).sidecarPath,
        mixPlan,
        captions,
      }),
    );
    this.queue = job;
    state.done = job.finally(() => this.running.delete(record.id));
    this.d.changed(sequence.id);
    return this.view(record);
  }

  /** Stops a delivery still rendering (here, or in another process: it discards its file). */
  cancel(deliveryId: string): { cancelled: boolean } {
    const record = this.d.journal.deliveries.get(deliveryId);
    if (!record) throw new AppError('sequence.delivery_not_found', 'This delivery no longer exists.');
    const cancelled = this.d.journal.deliveries.end(deliveryId, 'cancelled', 'The delivery was cancelled.');
    this.running.get(deliveryId)?.controller.abort();
    if (cancelled) {
      const done = this.d.journal.deliveries.get(deliveryId);
      if (done) this.d.emit(this.view(done));
      this.d.changed(record.sequenceId);
    }
    return { cancelled };
  }

  /** A sequence's deliveries, newest first; without one, every sequence's ready deliveries. */
  list(sequenceId?: string): DeliveryView[] {
    if (sequenceId === undefined) return this.d.journal.deliveries.ready().map((r) => this.view(r));
    if (!this.d.journal.sequences.get(sequenceId))
      throw new AppError('sequence.not_found', 'This sequence no longer exists.');
    return this.d.journal.deliveries.ofSequence(sequenceId).map((r) => this.view(r));
  }

  /** Waits for a delivery this process renders, telling `onProgress` of its progress (the CLI waits). */
  async finished(deliveryId: string, onProgress?: (view: DeliveryView) => void): Promise<DeliveryView> {
    const running = this.running.get(deliveryId);
    if (running && onProgress) running.listeners.add(onProgress);
    await running?.done;
    const record = this.d.journal.deliveries.get(deliveryId);
    if (!record) throw new AppError('sequence.delivery_not_found', 'This delivery no longer exists.');
    return this.view(record);
  }

  /** Where a ready delivery and its sidecar lie (for the CLI's answer; never sent to a renderer). */
  filesOf(deliveryId: string): { localPath: string | null; sidecarPath: string | null } {
    const record = this.d.journal.deliveries.get(deliveryId);
    return { localPath: record?.localPath ?? null, sidecarPath: record?.sidecarPath ?? null };
  }

  /** Removes the files of a sequence's deliveries (before the sequence is deleted). */
  async removeFilesOf(sequenceId: string): Promise<void> {
    for (const delivery of this.d.journal.deliveries.ofSequence(sequenceId)) {
      this.running.get(delivery.id)?.controller.abort();
      for (const file of [delivery.localPath, delivery.sidecarPath]) {
        if (!file) continue;
        const info = await stat(file).catch(() => undefined);
        await rm(file, { force: true });
        if (info) this.d.quota?.release(info.size, 1);
      }
    }
  }

  view(record: DeliveryRecord, reused = false): DeliveryView {
    const ready = record.state === 'ready';
    const frame = DELIVERY_PRESETS[record.preset];
    return {
      deliveryId: record.id,
      sequenceId: record.sequenceId,
      sequenceName: this.d.journal.sequences.get(record.sequenceId)?.name ?? '',
      preset: record.preset,
      fit: record.fit,
      width: frame.width,
      height: frame.height,
      loudnessTarget: record.loudnessTarget,
      burnCaptions: record.burnCaptions,
      state: record.state,
      progress: ready ? 1 : (this.running.get(record.id)?.progress ?? 0),
      mediaUrl: ready ? mediaUrl(this.d.host, `delivery/${record.id}`) : null,
      fileName: record.localPath ? path.basename(record.localPath) : null,
      durationSeconds: record.durationSeconds ?? null,
      byteSize: record.byteSize ?? null,
      sha256: record.sha256 ?? null,
      measuredLufs: record.measuredLufs ?? null,
      errorMessage: record.errorMessage ?? null,
      createdAt: record.createdAt,
      reused,
    };
  }

  /** The sequence's ready assembly of its current shots, assembling it (and waiting) when needed. */
  private async readyAssembly(view: SequenceView): Promise<AssemblyView> {
    if (view.assembly?.state === 'ready' && view.assemblyCurrent) return view.assembly;
    if (!view.assemblable)
      throw new AppError(
        'sequence.not_assemblable',
        'Every shot needs its verified result before the film can be delivered: generate them first.',
      );
    const started = await this.d.sequences.assemble(view.sequenceId, view.assembly?.crossfadeSeconds ?? 0);
    const done = await this.d.assembler.finished(started.assemblyId);
    if (done.state !== 'ready')
      throw new AppError('sequence.assembly_failed', done.errorMessage ?? 'The assembly failed.');
    return done;
  }

  private async render(
    record: DeliveryRecord,
    state: Running,
    hold: QuotaHold,
    from: {
      sequenceName: string;
      assembly: AssemblyView;
      assemblyPath: string;
      assemblySidecar: string | null;
      mixPlan: DeliveryMixPlan | null;
      captions: DeliveryCaptionCue[];
    },
  ): Promise<void> {
    const folder = deliveriesFolderOf(this.d.libraryDir());
    const frame = DELIVERY_PRESETS[record.preset];
    const base = `${safeFileName(from.sequenceName)}-${record.preset}-${record.fit}-${record.id.slice(0, 8)}`;
    const finalPath = path.join(folder, `${base}.mp4`);
    const sidecarPath = path.join(folder, `${base}.json`);
    const sidecarTemp = path.join(folder, `.${record.id}.${process.pid}.part.json`);
    let lastEmit = 0;
    const report = (fraction: number) => {
      state.progress = fraction;
      if (Date.now() - lastEmit < 200) return;
      lastEmit = Date.now();
      // cancelled from another process: stop here too
      if (this.d.journal.deliveries.get(record.id)?.state !== 'rendering') state.controller.abort();
      const view = this.view(record);
      this.d.emit(view);
      for (const listener of state.listeners) listener(view);
    };
    try {
      if (this.d.journal.deliveries.get(record.id)?.state !== 'rendering' || state.controller.signal.aborted)
        throw new AppError('sequence.delivery_cancelled', 'The delivery was cancelled.');
      await mkdir(folder, { recursive: true });
      const file = await produceDeliveryFile({
        assemblyPath: from.assemblyPath,
        durationSeconds: from.assembly.durationSeconds!,
        frame,
        fit: record.fit,
        loudnessTarget: record.loudnessTarget,
        mixPlan: from.mixPlan,
        captions: from.captions,
        finalPath,
        tempBase: path.join(folder, `.${record.id}.${process.pid}.part`),
        mixer: this.d.mixer,
        signal: state.controller.signal,
        onProgress: report,
      });
      const sidecar = {
        framewright: 1,
        kind: 'sequence-delivery',
        sequence: { id: record.sequenceId, name: from.sequenceName },
        deliveryId: record.id,
        deliveredAt: new Date().toISOString(),
        file: path.basename(finalPath),
        sha256: file.sha256,
        byteSize: file.byteSize,
        durationSeconds: file.durationSeconds,
        preset: {
          name: record.preset,
          label: frame.label,
          width: frame.width,
          height: frame.height,
          fit: record.fit,
        },
        encoding: { video: 'H.264 yuv420p', audio: 'AAC 48 kHz stereo', container: 'MP4 (+faststart)' },
        loudness: { targetLufs: record.loudnessTarget, measuredLufs: file.measuredLufs },
        captions: { burnedIn: record.burnCaptions, cues: from.captions },
        mix: from.mixPlan
          ? {
              planKey: from.mixPlan.planKey,
              music: from.mixPlan.music
                ? { file: path.basename(from.mixPlan.music.path), gainDb: from.mixPlan.music.gainDb }
                : null,
              voices: from.mixPlan.voices.map((v) => ({
                file: path.basename(v.path),
                atSeconds: v.atSeconds,
                gainDb: v.gainDb,
              })),
              duckDb: from.mixPlan.duckDb,
            }
          : null,
        assembly: {
          id: from.assembly.assemblyId,
          file: path.basename(from.assemblyPath),
          sha256: from.assembly.sha256,
          crossfadeSeconds: from.assembly.crossfadeSeconds,
          chapters: from.assembly.chapters,
        },
        // the shots as the assembly's sidecar lists them (with their trims when it has them)
        shots: await shotsOf(from.assemblySidecar),
      };
      const sidecarText = `${JSON.stringify(sidecar, null, 2)}\n`;
      await writeFile(sidecarTemp, sidecarText);
      await rename(sidecarTemp, sidecarPath);
      const finished = this.d.journal.deliveries.finish(record.id, {
        localPath: finalPath,
        sidecarPath,
        sha256: file.sha256,
        byteSize: file.byteSize,
        durationSeconds: file.durationSeconds,
        measuredLufs: file.measuredLufs,
      });
      // cancelled while its file was moved into place: it goes
      if (!finished) await Promise.all([finalPath, sidecarPath].map((f) => rm(f, { force: true })));
      if (finished) hold.settle(file.byteSize + Buffer.byteLength(sidecarText), 2);
      else hold.cancel();
    } catch (error) {
      hold.cancel();
      await Promise.all([finalPath, sidecarPath, sidecarTemp].map((f) => rm(f, { force: true })));
      const message = error instanceof Error ? error.message : String(error);
      // stopped anywhere (the mix reports its own stop): a cancel, not a failure
      const cancelled =
        state.controller.signal.aborted ||
        (error instanceof AppError && error.code === 'sequence.delivery_cancelled');
      if (!cancelled)
        this.d.logger.warn('sequence delivery failed', { sequenceId: record.sequenceId, error: message });
      this.d.journal.deliveries.end(
        record.id,
        cancelled ? 'cancelled' : 'failed',
        cancelled ? 'The delivery was cancelled.' : message,
      );
    }
    const done = this.d.journal.deliveries.get(record.id);
    if (done) {
      const view = this.view(done);
      this.d.emit(view);
      for (const listener of state.listeners) listener(view);
    }
    this.d.changed(record.sequenceId);
  }
}

/** Whether a ready delivery's file is still there, unchanged. */
async function intact(record: DeliveryRecord): Promise<boolean> {
  if (!record.localPath || !existsSync(record.localPath)) return false;
  const info = await stat(record.localPath).catch(() => undefined);
  return info?.size === record.byteSize && (await sha256OfFile(record.localPath)) === record.sha256;
}

/** The shots an assembly's sidecar lists (job ids, sha256, trims…); [] when it cannot be read. */
async function shotsOf(sidecarPath: string | null): Promise<unknown[]> {
  if (!sidecarPath) return [];
  try {
    const sidecar = JSON.parse(await readFile(sidecarPath, 'utf8')) as { shots?: unknown };
    return Array.isArray(sidecar.shots) ? sidecar.shots : [];
  } catch {
    return [];
  }
}
