import { createHash, randomUUID } from 'node:crypto';
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { SoundtrackView, VoiceLineView } from '../../../shared/bridge/domains/sequences.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { StudioBackend } from '../backends/studio-backend.js';
import { AppError } from '../errors.js';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import type { Journal } from '../journal/open-journal.js';
import type { Output } from '../journal/outputs-repository.js';
import type { VoiceLineRecord } from '../journal/soundtracks-repository.js';
import { mediaUrl } from '../library/media-resolver.js';
import type { StudioHost } from '../library/studio-host.js';
import type { Logger } from '../logging/logger.js';
import { cuesForLine, toSrt, toWebVtt, type CaptionCue } from '../media-tools/captions.js';
import { readMediaFacts, runMediaTool } from '../media-tools/probe-media.js';
import { audioJob, audioProfile, type AudioProfile } from '../operations/audio-generation.js';
import { SERVICE_KINDS } from '../operations/service-common.js';
import type { StagedFiles } from '../storage/staged-files.js';

/** A caption shorter than this cannot be read (a few frames): refused. */
export const MIN_CAPTION_SECONDS = 0.2;

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** What a delivery mixes: the ready files of the sound track, and a key that changes with any of it. */
export interface SoundtrackMixPlan {
  music?: { path: string; gainDb: number };
  voices: { path: string; atSeconds: number; gainDb: number }[];
  duckDb: number;
  /** A stable hash of everything that changes the mix (files by sha256, times, gains, duck). */
  planKey: string;
}

export interface SoundtrackFeatureDeps {
  journal: Pick<Journal, 'soundtracks' | 'sequences' | 'jobs'>;
  backend: Pick<
    StudioBackend,
    'service' | 'services' | 'createMediaJob' | 'activeProfileId' | 'playgroundCalls'
  >;
  staged: Pick<StagedFiles, 'resolve'>;
  /** The library folder: dropped voice files are kept under `sequences/voice/`. */
  libraryDir: () => string;
  host: StudioHost;
  logger: Logger;
  /** How long a generation is waited for before it is answered as still generating. */
  waitSeconds: () => number;
  /** Tells the renderers a sequence changed. */
  changed(sequenceId: string): void;
  /**
   * The sequence's latest finished film beside which caption sidecars are written (a delivery);
   * when it answers none, the latest ready assembly.
   */
  latestFilm?: (sequenceId: string) => string | null | undefined;
}

type Audio = Output & { localPath: string };

/**
 * A sequence's sound track (issue 31): a music bed (an audio result of the library, or generated
 * by the audio service's music model), voice-over lines at their times (speech generated from
 * their text, or dropped files whose text the transcription service gives once), gains and how far
 * the music ducks under a voice. Every billed call is a journaled job or call under a key recorded
 * first, so pressing again continues it. Answers the mix plan and the captions a delivery uses.
 */
export class SoundtrackFeature {
  private readonly durations = new Map<string, Promise<number | undefined>>();

  constructor(private readonly d: SoundtrackFeatureDeps) {}

  async get(sequenceId: string): Promise<SoundtrackView> {
    this.requireSequence(sequenceId);
    const record = this.d.journal.soundtracks.get(sequenceId);
    let music: SoundtrackView['music'] = null;
    if (record.music) {
      const job =
        record.music.source === 'library'
          ? this.d.journal.jobs.getJob(record.music.jobRowId)
          : this.jobOfKey(record.music.idempotencyKey);
      const sound = await this.soundOf(
        job,
        record.music.source === 'generated' ? record.music.idempotencyKey : undefined,
      );
      music = {
        source: record.music.source,
        jobRowId: job?.id ?? null,
        prompt: record.music.source === 'generated' ? record.music.prompt : null,
        ...sound,
      };
    }
    const voices = await Promise.all(
      this.d.journal.soundtracks.voices(sequenceId).map((line) => this.voiceView(line)),
    );
    return {
      sequenceId,
      music,
      musicGainDb: record.musicGainDb,
      duckDb: record.duckDb,
      voices,
      captions: await this.captionTrack(sequenceId),
    };
  }

  /** The music bed: a verified audio result of the library (by its job), or none. */
  async setMusic(sequenceId: string, jobRowId: number | null): Promise<SoundtrackView> {
    this.requireSequence(sequenceId);
    if (jobRowId === null) this.d.journal.soundtracks.setMusic(sequenceId, null);
    else {
      if (!audioOf(this.d.journal.jobs.getJob(jobRowId)))
        throw new AppError('library.no_file', 'That library item has no verified sound file.');
      this.d.journal.soundtracks.setMusic(sequenceId, { source: 'library', jobRowId });
    }
    return this.changedView(sequenceId);
  }

  /**
   * Generates the music bed from a prompt with the music model. The job's key is recorded before
   * the call; the same prompt pressed again (while its job has not failed) continues that job.
   */
  async generateMusic(
    sequenceId: string,
    input: { prompt: string; model?: string; seconds?: number },
  ): Promise<SoundtrackView> {
    this.requireSequence(sequenceId);
    const prompt = input.prompt.trim();
    const service = await this.audioService('music', input.model);
    const current = this.d.journal.soundtracks.get(sequenceId).music;
    const again =
      current?.source === 'generated' &&
      current.prompt === prompt &&
      current.model === service.modelAlias &&
      !this.failed(current.idempotencyKey);
    const idempotencyKey = again ? current.idempotencyKey : `soundtrack-music-${randomUUID()}`;
    const job = await audioJob({
      profileId: this.d.backend.activeProfileId(),
      service,
      draft: { prompt, ...(input.seconds !== undefined ? { seconds: input.seconds } : {}) },
      idempotencyKey,
      wait: { waitSeconds: this.d.waitSeconds() },
    });
    this.d.journal.soundtracks.setMusic(sequenceId, {
      source: 'generated',
      prompt,
      model: service.modelAlias,
      idempotencyKey,
    });
    this.d.changed(sequenceId);
    await this.d.backend.createMediaJob(job);
    return this.changedView(sequenceId);
  }

  setLevels(sequenceId: string, levels: { musicGainDb?: number; duckDb?: number }): Promise<SoundtrackView> {
    this.requireSequence(sequenceId);
    if (levels.duckDb !== undefined && !(levels.duckDb >= 0 && levels.duckDb <= 60))
      throw new AppError('sequence.not_assemblable', 'The duck amount is 0 to 60 dB.');
    if (levels.musicGainDb !== undefined) checkGain(levels.musicGainDb);
    this.d.journal.soundtracks.setLevels(sequenceId, levels);
    return this.changedView(sequenceId);
  }

  /**
   * A voice-over line at `atSeconds`: speech generated from `text` (a billed job under the line's
   * key, recorded first), or a dropped audio file (kept in the library, its text transcribed once).
   */
  async addVoice(
    sequenceId: string,
    input: {
      /** The new line's id, chosen by the caller: the same id again answers that line (a retry adds nothing). */
      lineId?: string;
      atSeconds: number;
      gainDb?: number;
      text?: string;
      model?: string;
      speaker?: string;
      fileId?: string;
    },
  ): Promise<SoundtrackView> {
    this.requireSequence(sequenceId);
    if ((input.text === undefined) === (input.fileId === undefined))
      throw new AppError(
        'sequence.not_assemblable',
        'A voice line is either a text to speak or a dropped file.',
      );
    checkTime(input.atSeconds);
    const gainDb = input.gainDb ?? 0;
    checkGain(gainDb);
    const id = input.lineId ?? randomUUID();
    const earlier = this.d.journal.soundtracks.voice(id);
    if (earlier) {
      if (earlier.sequenceId !== sequenceId)
        throw new AppError('sequence.shot_not_found', 'This voice line is in another sequence.');
      // a retry of the same line: its speech job is continued under its own key, nothing new is made
      if (earlier.source === 'generated' && !this.fileOf(earlier) && !this.failed(earlier.idempotencyKey!)) {
        const service = await this.audioService('speech', earlier.model ?? undefined);
        await this.d.backend.createMediaJob(
          await this.speechJob(service, earlier.text, earlier.speaker ?? undefined, earlier.idempotencyKey!),
        );
      }
      return this.changedView(sequenceId);
    }
    if (input.text !== undefined) {
      const text = input.text.trim();
      const service = await this.audioService('speech', input.model);
      const idempotencyKey = `soundtrack-voice-${randomUUID()}`;
      const job = await this.speechJob(service, text, input.speaker, idempotencyKey);
      this.d.journal.soundtracks.addVoice({
        id,
        sequenceId,
        source: 'generated',
        text,
        atSeconds: input.atSeconds,
        gainDb,
        model: service.modelAlias,
        speaker: input.speaker ?? null,
        idempotencyKey,
      });
      this.d.changed(sequenceId);
      await this.d.backend.createMediaJob(job);
      return this.changedView(sequenceId);
    }
    const staged = await this.d.staged.resolve(input.fileId!);
    if (staged.kind !== 'audio')
      throw new AppError('file.unsupported_type', `${staged.fileName} is not an audio file.`);
    const folder = path.join(this.d.libraryDir(), 'sequences', 'voice');
    await mkdir(folder, { recursive: true });
    const kept = path.join(folder, `${id}${path.extname(staged.fileName).toLowerCase() || '.audio'}`);
    await copyFile(staged.path, kept);
    try {
      this.d.journal.soundtracks.addVoice({
        id,
        sequenceId,
        source: 'file',
        text: '',
        atSeconds: input.atSeconds,
        gainDb,
        filePath: kept,
        fileName: staged.fileName,
        fileSha256: staged.sha256,
      });
    } catch (error) {
      await rm(kept, { force: true });
      throw error;
    }
    await this.transcribe(id);
    return this.changedView(sequenceId);
  }

  async updateVoice(
    sequenceId: string,
    lineId: string,
    change: { atSeconds?: number; gainDb?: number; text?: string; transcribe?: boolean },
  ): Promise<SoundtrackView> {
    const line = this.requireLine(sequenceId, lineId);
    if (change.atSeconds !== undefined) checkTime(change.atSeconds);
    if (change.gainDb !== undefined) checkGain(change.gainDb);
    const text = change.text?.trim();
    const reword = text !== undefined && text !== line.text;
    if (reword && line.source === 'file')
      throw new AppError('sequence.not_assemblable', "A dropped file's text comes from its transcript.");
    if (reword) {
      const service = await this.audioService('speech', line.model ?? undefined);
      const idempotencyKey = `soundtrack-voice-${randomUUID()}`;
      const job = await this.speechJob(service, text, line.speaker ?? undefined, idempotencyKey);
      this.d.journal.soundtracks.updateVoice(lineId, { ...change, text, idempotencyKey });
      this.d.changed(sequenceId);
      await this.d.backend.createMediaJob(job);
    } else {
      this.d.journal.soundtracks.updateVoice(lineId, { atSeconds: change.atSeconds, gainDb: change.gainDb });
      if (change.transcribe && line.source === 'file' && !line.transcript) await this.transcribe(lineId);
    }
    return this.changedView(sequenceId);
  }

  async removeVoice(sequenceId: string, lineId: string): Promise<SoundtrackView> {
    const line = this.requireLine(sequenceId, lineId);
    this.d.journal.soundtracks.removeVoice(lineId);
    if (line.filePath) await rm(line.filePath, { force: true });
    return this.changedView(sequenceId);
  }

  /** Removes the files kept for the sequence's dropped voice lines (before the sequence is deleted). */
  async removeFilesOf(sequenceId: string): Promise<void> {
    for (const line of this.d.journal.soundtracks.voices(sequenceId))
      if (line.filePath) await rm(line.filePath, { force: true });
  }

  /**
   * What a delivery mixes, or null when the sequence has no music and no voice (the film's own
   * sound is still normalized). A source not ready yet is refused: nothing is left out silently.
   */
  async mixPlanOf(sequenceId: string): Promise<SoundtrackMixPlan | null> {
    this.requireSequence(sequenceId);
    const record = this.d.journal.soundtracks.get(sequenceId);
    const lines = this.d.journal.soundtracks.voices(sequenceId);
    if (!record.music && lines.length === 0) return null;
    const key: unknown[] = [];
    let music: SoundtrackMixPlan['music'];
    if (record.music) {
      const job =
        record.music.source === 'library'
          ? this.d.journal.jobs.getJob(record.music.jobRowId)
          : this.jobOfKey(record.music.idempotencyKey);
      const audio = audioOf(job);
      if (!audio)
        throw new AppError(
          'sequence.not_assemblable',
          record.music.source === 'library'
            ? 'The music bed is no longer in the library: choose another one.'
            : 'The music bed is not ready yet.',
        );
      music = { path: audio.localPath, gainDb: record.musicGainDb };
      key.push({ music: audio.sha256 ?? audio.localPath, gainDb: record.musicGainDb });
    }
    const voices: SoundtrackMixPlan['voices'] = [];
    for (const line of lines) {
      const file = this.fileOf(line);
      if (!file)
        throw new AppError(
          'sequence.not_assemblable',
          `The voice line at ${line.atSeconds.toFixed(1)} s is not ready yet.`,
        );
      voices.push({ path: file.path, atSeconds: line.atSeconds, gainDb: line.gainDb });
      key.push({ voice: file.sha256, atSeconds: line.atSeconds, gainDb: line.gainDb });
    }
    key.push({ duckDb: record.duckDb });
    const planKey = createHash('sha256')
      .update(JSON.stringify({ v: 1, key }))
      .digest('hex');
    return { music, voices, duckDb: record.duckDb, planKey };
  }

  /**
   * The caption track: a generated line's text from its start for its measured duration (split
   * into cues of readable length); a dropped file's transcript segments placed at its start.
   * Lines not ready (or not transcribed) have no cue yet. A cue whose times were set by hand
   * (`editCaption`, while it reads the same) has those, from its line's start.
   */
  async captionsOf(sequenceId: string): Promise<CaptionCue[]> {
    return (await this.captionTrack(sequenceId)).map(({ startSeconds, endSeconds, text }) => ({
      startSeconds,
      endSeconds,
      text,
    }));
  }

  /** The caption track with each cue's line and index in it (what the timeline edits). */
  private async captionTrack(
    sequenceId: string,
  ): Promise<(CaptionCue & { lineId: string; cueIndex: number })[]> {
    const edits = this.d.journal.soundtracks.captionEdits(sequenceId);
    const cues: (CaptionCue & { lineId: string; cueIndex: number })[] = [];
    for (const line of this.d.journal.soundtracks.voices(sequenceId)) {
      const made = await this.lineCues(line);
      made.forEach((cue, cueIndex) => {
        const edit = edits.get(`${line.id}:${cueIndex}`);
        const times =
          edit && edit.cueText === cue.text
            ? { startSeconds: line.atSeconds + edit.startOffset, endSeconds: line.atSeconds + edit.endOffset }
            : {};
        cues.push({ ...cue, ...times, lineId: line.id, cueIndex });
      });
    }
    return cues.sort((a, b) => a.startSeconds - b.startSeconds);
  }

  /** A line's cues as its text (or transcript) and measured length make them. */
  private async lineCues(line: VoiceLineRecord): Promise<CaptionCue[]> {
    const file = this.fileOf(line);
    if (!file) return [];
    const duration = await this.durationOf(file.path);
    if (duration === undefined) return [];
    if (line.source === 'generated') return cuesForLine(line.text, line.atSeconds, duration);
    const cues: CaptionCue[] = [];
    for (const segment of line.transcript ?? []) {
      const start = Math.max(0, segment.start);
      const end = Math.min(duration, segment.end);
      if (end > start) cues.push(...cuesForLine(segment.text, line.atSeconds + start, end - start));
    }
    return cues;
  }

  /**
   * A caption cue's start and end set by hand (issue 40: its edges dragged on the timeline), in
   * seconds of the film; null gives it back the times its line makes. Kept from the line's start, so
   * the cue moves with its line; re-wording the line (a new split) drops it.
   */
  async editCaption(
    sequenceId: string,
    input: { lineId: string; cueIndex: number; range: { startSeconds: number; endSeconds: number } | null },
  ): Promise<SoundtrackView> {
    const line = this.requireLine(sequenceId, input.lineId);
    const cues = await this.lineCues(line);
    const cue = cues[input.cueIndex];
    if (!cue)
      throw new AppError(
        'sequence.invalid_caption',
        `This voice line has no caption ${input.cueIndex + 1} (it has ${cues.length}).`,
      );
    if (input.range === null) this.d.journal.soundtracks.clearCaptionEdit(line.id, input.cueIndex);
    else {
      const { startSeconds, endSeconds } = input.range;
      if (!Number.isFinite(startSeconds) || !Number.isFinite(endSeconds) || startSeconds < 0)
        throw new AppError('sequence.invalid_caption', 'A caption starts at 0 s or later.');
      if (endSeconds - startSeconds < MIN_CAPTION_SECONDS)
        throw new AppError(
          'sequence.invalid_caption',
          `A caption lasts at least ${MIN_CAPTION_SECONDS} s (${Number(startSeconds.toFixed(3))}–${Number(endSeconds.toFixed(3))} s is shorter).`,
        );
      this.d.journal.soundtracks.setCaptionEdit({
        lineId: line.id,
        cueIndex: input.cueIndex,
        cueText: cue.text,
        startOffset: round3(startSeconds - line.atSeconds),
        endOffset: round3(endSeconds - line.atSeconds),
      });
    }
    return this.changedView(sequenceId);
  }

  /**
   * The captions as SRT and WebVTT, written as sidecars beside the latest film (a delivery, else
   * the latest assembled file; same name, `.srt` and `.vtt`) when there is one.
   */
  async exportCaptions(
    sequenceId: string,
  ): Promise<{ srt: string; vtt: string; cueCount: number; files: { srt: string; vtt: string } | null }> {
    this.requireSequence(sequenceId);
    const cues = await this.captionsOf(sequenceId);
    const srt = toSrt(cues);
    const vtt = toWebVtt(cues);
    const assembly = this.d.journal.sequences.latestAssembly(sequenceId);
    const film =
      this.d.latestFilm?.(sequenceId) ??
      (assembly?.state === 'ready' && assembly.localPath ? assembly.localPath : null);
    let files: { srt: string; vtt: string } | null = null;
    if (film) {
      const base = film.replace(/\.[^./\\]+$/, '');
      await writeFile(`${base}.srt`, srt, 'utf8');
      await writeFile(`${base}.vtt`, vtt, 'utf8');
      files = { srt: path.basename(`${base}.srt`), vtt: path.basename(`${base}.vtt`) };
    }
    return { srt, vtt, cueCount: cues.length, files };
  }

  /** A dropped file's text from the transcription service: one journaled call, its segments kept. */
  private async transcribe(lineId: string): Promise<void> {
    const line = this.d.journal.soundtracks.voice(lineId);
    if (!line?.filePath || line.transcript) return;
    // sent as 16 kHz mono WAV: every transcription service takes it, and a long line stays small
    const work = await mkdtemp(path.join(os.tmpdir(), 'fw-voice-'));
    try {
      const wav = path.join(work, `${path.parse(line.fileName ?? 'voice').name || 'voice'}.wav`);
      await runMediaTool('ffmpeg', line.filePath, [
        ...['-v', 'error', '-y', '-i', '{input}', '-vn', '-ac', '1', '-ar', '16000'],
        ...['-c:a', 'pcm_s16le', wav],
      ]);
      const service = await this.d.backend.service(SERVICE_KINDS.transcription);
      const calls = await this.d.backend.playgroundCalls();
      const { response } = await calls.transcribe(service, wav, {});
      const segments = response.segments.length
        ? response.segments.map((s) => ({ start: s.start, end: s.end, text: s.text.trim() }))
        : [{ start: 0, end: response.duration ?? 0, text: response.text.trim() }];
      this.d.journal.soundtracks.setTranscript(
        lineId,
        segments.filter((s) => s.text.length > 0),
      );
    } catch (error) {
      // the line stays in the mix; its captions wait for a transcript (updateVoice `transcribe`)
      this.d.logger.warn('voice line not transcribed', {
        lineId,
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  private speechJob(
    service: ServiceEntry,
    text: string,
    speaker: string | undefined,
    idempotencyKey: string,
  ) {
    return audioJob({
      profileId: this.d.backend.activeProfileId(),
      service,
      draft: { text, ...(speaker ? { voiceMode: 'custom_voice' as const, speaker } : {}) },
      idempotencyKey,
      wait: { waitSeconds: this.d.waitSeconds() },
    });
  }

  /** The audio service of a profile (speech or music): the named model, else the first callable one. */
  private async audioService(profile: AudioProfile, model: string | undefined): Promise<ServiceEntry> {
    const kinds = SERVICE_KINDS.audio;
    if (model) {
      const service = await this.d.backend.service(kinds, model);
      if (audioProfile(service) !== profile)
        throw new AppError('service.no_model_for_mode', `${model} does not make ${profile}.`);
      return service;
    }
    const { services } = await this.d.backend.services(undefined, kinds[0]);
    for (const entry of services) {
      if (!entry.available) continue;
      const service = await this.d.backend.service(kinds, entry.modelAlias).catch(() => undefined);
      if (service && audioProfile(service) === profile) return service;
    }
    throw new AppError('service.no_model_for_mode', `No ${profile} model is available.`);
  }

  private async voiceView(line: VoiceLineRecord): Promise<VoiceLineView> {
    const common = {
      lineId: line.id,
      source: line.source,
      text: line.source === 'file' ? (line.transcript ?? []).map((s) => s.text).join(' ') : line.text,
      atSeconds: line.atSeconds,
      gainDb: line.gainDb,
      transcribed: line.source === 'generated' || line.transcript !== null,
    };
    if (line.source === 'file') {
      const duration = line.filePath ? await this.durationOf(line.filePath) : undefined;
      return {
        ...common,
        state: duration === undefined ? 'failed' : 'ready',
        mediaUrl: null,
        fileName: line.fileName,
        durationSeconds: duration ?? null,
        errorMessage: duration === undefined ? 'The voice file is missing from the library.' : null,
      };
    }
    return { ...common, ...(await this.soundOf(this.jobOfKey(line.idempotencyKey!), line.idempotencyKey!)) };
  }

  /** A generated or library sound's state, file and duration. */
  private async soundOf(job: JobWithOutputs | undefined, key: string | undefined) {
    const audio = audioOf(job);
    const intentError = key ? this.d.journal.jobs.currentIntent(key)?.errorMessage : undefined;
    const state: 'ready' | 'generating' | 'failed' = audio
      ? 'ready'
      : job?.status === 'failed' || job?.status === 'canceled' || (!job && intentError) || !key
        ? 'failed'
        : 'generating';
    return {
      state,
      mediaUrl: audio && job ? mediaUrl(this.d.host, `library/${job.id}/${audio.id}`) : null,
      fileName: audio ? path.basename(audio.localPath) : null,
      durationSeconds: audio ? ((await this.durationOf(audio.localPath)) ?? null) : null,
      errorMessage:
        state === 'failed'
          ? (job?.errorMessage ?? intentError ?? 'The sound file is no longer in the library.')
          : null,
    };
  }

  private failed(key: string): boolean {
    const job = this.jobOfKey(key);
    if (job) return job.status === 'failed' || job.status === 'canceled';
    return Boolean(this.d.journal.jobs.currentIntent(key)?.errorMessage);
  }

  private jobOfKey(key: string): JobWithOutputs | undefined {
    const intent = this.d.journal.jobs.currentIntent(key);
    return intent ? this.d.journal.jobs.getJobForIntent(intent.id) : undefined;
  }

  /** A line's sound file once it exists: the verified speech, or the kept dropped file. */
  private fileOf(line: VoiceLineRecord): { path: string; sha256: string } | undefined {
    if (line.source === 'file')
      return line.filePath && line.fileSha256 ? { path: line.filePath, sha256: line.fileSha256 } : undefined;
    const audio = audioOf(this.jobOfKey(line.idempotencyKey!));
    return audio ? { path: audio.localPath, sha256: audio.sha256 ?? audio.localPath } : undefined;
  }

  /** A sound file's measured duration (ffprobe once per file; undefined when it cannot be read). */
  private durationOf(file: string): Promise<number | undefined> {
    let known = this.durations.get(file);
    if (!known) {
      known = readMediaFacts(file)
        .then((f) => f.durationSeconds)
        .catch(() => {
          this.durations.delete(file);
          return undefined;
        });
      this.durations.set(file, known);
    }
    return known;
  }

  private requireSequence(sequenceId: string) {
    const sequence = this.d.journal.sequences.get(sequenceId);
    if (!sequence) throw new AppError('sequence.not_found', 'This sequence no longer exists.');
    return sequence;
  }

  private requireLine(sequenceId: string, lineId: string): VoiceLineRecord {
    this.requireSequence(sequenceId);
    const line = this.d.journal.soundtracks.voice(lineId);
    if (!line || line.sequenceId !== sequenceId)
      throw new AppError('sequence.shot_not_found', 'This voice line is not in the sequence.');
    return line;
  }

  private async changedView(sequenceId: string): Promise<SoundtrackView> {
    this.d.changed(sequenceId);
    return this.get(sequenceId);
  }
}

/** The verified audio file of a job (its first), in the library. */
function audioOf(job: JobWithOutputs | undefined): Audio | undefined {
  return job?.outputs.find(
    (o): o is Audio =>
      o.downloadState === 'verified' &&
      o.localPath !== undefined &&
      (o.mimeType ?? o.expectedMimeType ?? '').startsWith('audio/'),
  );
}

function checkGain(gainDb: number): void {
  if (!(gainDb >= -60 && gainDb <= 12))
    throw new AppError('sequence.not_assemblable', 'A gain is -60 to +12 dB.');
}

function checkTime(atSeconds: number): void {
  if (!(atSeconds >= 0 && Number.isFinite(atSeconds)))
    throw new AppError('sequence.not_assemblable', 'A voice line starts at 0 s or later.');
}
