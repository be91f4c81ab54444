import { z } from 'zod';
import { JOB_STATUSES } from '../../api/job-statuses.js';
import { NoParams } from './app.js';
import { DraftForm, StagedFileId } from './studio.js';
import {
  DELIVERY_FITS,
  DELIVERY_PRESET_NAMES,
  LOUDNESS_MAX_LUFS,
  LOUDNESS_MIN_LUFS,
  type DeliveryPresetName,
} from '../../delivery-formats.js';

/**
 * Sequences (issue 15): an ordered list of shots kept in the journal, each shot a studio draft and,
 * once generated, a job with its verified result. Shots chain through their frames ("continue",
 * "bridge") and the sequence is assembled offline into one MP4 of the library with ffmpeg.
 */

const Id = z.string().min(1).max(200);
const SequenceName = z.string().trim().min(1).max(120);

/** The cross-fade between two shots when assembling, in seconds (0: a straight cut). */
export const CROSSFADE_MAX_SECONDS = 2;
export const CrossfadeSeconds = z.number().min(0).max(CROSSFADE_MAX_SECONDS);

/**
 * How a shot came to be: `new` (written by the creator), `continue` (its first frame is the exact
 * last frame of another shot's result), `bridge` (first/last frame from one shot's last frame to
 * another's first frame).
 */
export const ShotOrigin = z.enum(['new', 'continue', 'bridge']);

/** Where a shot is: a draft still editable, submitted (waiting for its job), or its job's status. */
export const ShotState = z.enum(['draft', 'submitted', ...JOB_STATUSES]);

/**
 * A shot's in and out points (issue 31), snapped to its result's frames: `inFrame` is the first
 * frame kept, `outFrame` the first one cut; `seconds` is the kept length. The file is not changed.
 */
export const ShotTrimView = z.object({
  inSeconds: z.number(),
  outSeconds: z.number(),
  inFrame: z.number().int(),
  outFrame: z.number().int(),
  seconds: z.number(),
});
export type ShotTrimView = z.infer<typeof ShotTrimView>;

export const SequenceShotView = z.object({
  shotId: z.string(),
  /** 0-based position in the sequence. */
  position: z.number().int(),
  /** "Shot 1", "Shot 2"… by position (the assembled file's chapters carry these names). */
  label: z.string(),
  draftId: z.string(),
  origin: ShotOrigin,
  /** The shots it was made from (continue: one; bridge: two), while they are still in the sequence. */
  sourceShotIds: z.array(z.string()),
  prompt: z.string(),
  model: z.string(),
  /** The seed the shot's job was sent with (the draft's before it is sent); null: the platform picks one. */
  seed: z.number().nullable(),
  generationMode: z.string(),
  /** The requested seconds (5..15 for H3). */
  seconds: z.number(),
  state: ShotState,
  jobRowId: z.number().nullable(),
  jobId: z.string().nullable(),
  errorMessage: z.string().nullable(),
  /** The verified result's measured duration, once there is one. */
  durationSeconds: z.number().nullable(),
  sha256: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** A poster of the shot's first-frame input (a continued or bridged shot), before it is generated. */
  firstFramePosterUrl: z.string().nullable(),
  /** The result's measured frame rate (frames per second) and number of frames, once there is one. */
  frameRate: z.number().nullable(),
  frameCount: z.number().int().nullable(),
  /** Evenly spaced frames of the result (the trim strip's thumbnails). */
  frameUrls: z.array(z.string()),
  /** The in and out points, or null when the whole result is used. */
  trim: ShotTrimView.nullable(),
});
export type SequenceShotView = z.infer<typeof SequenceShotView>;

export const AssemblyChapter = z.object({
  title: z.string(),
  startSeconds: z.number(),
  endSeconds: z.number(),
});

export const AssemblyView = z.object({
  assemblyId: z.string(),
  sequenceId: z.string(),
  state: z.enum(['assembling', 'ready', 'failed']),
  /** 0..1 while assembling. */
  progress: z.number(),
  crossfadeSeconds: z.number(),
  /** Only when ready (and verified): the library-only media route. */
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  byteSize: z.number().nullable(),
  sha256: z.string().nullable(),
  chapters: z.array(AssemblyChapter),
  errorMessage: z.string().nullable(),
  createdAt: z.number(),
  /** Re-assembling an unchanged sequence answers the earlier result. */
  reused: z.boolean(),
  /** While the render waits its turn in the media-work queue: how many jobs are ahead of it. */
  waitingAhead: z.number().int().nonnegative().nullable().optional(),
});
export type AssemblyView = z.infer<typeof AssemblyView>;

export const SequenceView = z.object({
  sequenceId: z.string(),
  name: z.string(),
  shots: z.array(SequenceShotView),
  /** Sum of the shots' durations (trimmed, else measured once generated, else requested). */
  totalSeconds: z.number(),
  /** Every shot has a verified result: the sequence can be assembled. */
  assemblable: z.boolean(),
  /** The latest assembly, and whether the shots changed since it was made. */
  assembly: AssemblyView.nullable(),
  assemblyCurrent: z.boolean(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type SequenceView = z.infer<typeof SequenceView>;

export const SequenceSummary = z.object({
  sequenceId: z.string(),
  name: z.string(),
  shotCount: z.number().int(),
  totalSeconds: z.number(),
  updatedAt: z.number(),
});
export type SequenceSummary = z.infer<typeof SequenceSummary>;

/** A sound file's gain in the mix, in dB. */
export const GainDb = z.number().min(-60).max(12);
/** How much lower the music is while a voice plays, in dB. */
export const DuckDb = z.number().min(0).max(60);
/** Where a voice line starts in the film, in seconds. */
export const AtSeconds = z
  .number()
  .min(0)
  .max(24 * 3600);

/** A generated sound (music, speech) or a kept file: ready, still generating, or failed. */
export const SoundState = z.enum(['ready', 'generating', 'failed']);

export const CaptionCueView = z.object({
  startSeconds: z.number(),
  endSeconds: z.number(),
  text: z.string(),
  /** The voice line the cue is made from, and its index among that line's cues (issue 40: what `sequences.captions.update` names). */
  lineId: z.string().optional(),
  cueIndex: z.number().int().optional(),
});
export type CaptionCueView = z.infer<typeof CaptionCueView>;

export const SoundtrackMusicView = z.object({
  /** `library`: an audio result of the library; `generated`: made by the music model for this film. */
  source: z.enum(['library', 'generated']),
  jobRowId: z.number().nullable(),
  prompt: z.string().nullable(),
  state: SoundState,
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  errorMessage: z.string().nullable(),
});

export const VoiceLineView = z.object({
  lineId: z.string(),
  /** `generated`: speech of `text`; `file`: a dropped audio file (its text from the transcription service). */
  source: z.enum(['generated', 'file']),
  text: z.string(),
  atSeconds: z.number(),
  gainDb: z.number(),
  state: SoundState,
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  errorMessage: z.string().nullable(),
  /** A file line's text has been transcribed (a generated line's text is its own). */
  transcribed: z.boolean(),
});
export type VoiceLineView = z.infer<typeof VoiceLineView>;

export const SoundtrackView = z.object({
  sequenceId: z.string(),
  music: SoundtrackMusicView.nullable(),
  musicGainDb: z.number(),
  duckDb: z.number(),
  voices: z.array(VoiceLineView),
  /** The caption track the voice lines give (generated text, transcripts of files). */
  captions: z.array(CaptionCueView),
});
export type SoundtrackView = z.infer<typeof SoundtrackView>;
/**
 * Delivery formats (issue 31, frames in `../../delivery-formats.ts`): each a frame the assembled film is fitted into, letterboxed (`pad`)
 * or filled and cut to size (`crop`), encoded H.264 (yuv420p, +faststart) / AAC 48 kHz stereo MP4.
 */
export const DeliveryPreset = z.enum(DELIVERY_PRESET_NAMES as [DeliveryPresetName, ...DeliveryPresetName[]]);
export type DeliveryPreset = z.infer<typeof DeliveryPreset>;
export const DeliveryFit = z.enum(DELIVERY_FITS);
export type DeliveryFit = z.infer<typeof DeliveryFit>;
export const LoudnessTarget = z.number().min(LOUDNESS_MIN_LUFS).max(LOUDNESS_MAX_LUFS);

export const DeliveryState = z.enum(['rendering', 'ready', 'failed', 'cancelled']);

export const DeliveryView = z.object({
  deliveryId: z.string(),
  sequenceId: z.string(),
  /** The sequence's name (the library lists films of every sequence). */
  sequenceName: z.string(),
  preset: DeliveryPreset,
  fit: DeliveryFit,
  width: z.number().int(),
  height: z.number().int(),
  loudnessTarget: z.number(),
  burnCaptions: z.boolean(),
  state: DeliveryState,
  /** 0..1 while rendering. */
  progress: z.number(),
  /** Only when ready (and verified): the library-only media route. */
  mediaUrl: z.string().nullable(),
  fileName: z.string().nullable(),
  durationSeconds: z.number().nullable(),
  byteSize: z.number().nullable(),
  sha256: z.string().nullable(),
  /** The integrated loudness measured on the delivered file (LUFS). */
  measuredLufs: z.number().nullable(),
  errorMessage: z.string().nullable(),
  createdAt: z.number(),
  /** Delivering an unchanged film again answers the earlier file. */
  reused: z.boolean(),
});
export type DeliveryView = z.infer<typeof DeliveryView>;

export const DeliveryRequest = z
  .object({
    sequenceId: Id,
    preset: DeliveryPreset,
    fit: DeliveryFit.optional(),
    loudnessTarget: LoudnessTarget.optional(),
    burnCaptions: z.boolean().optional(),
  })
  .strict();
export type DeliveryRequest = z.infer<typeof DeliveryRequest>;

const SequenceRef = z.object({ sequenceId: Id }).strict();
const ShotRef = z.object({ sequenceId: Id, shotId: Id }).strict();

export const sequencesMethods = {
  'sequences.list': { params: NoParams, result: z.array(SequenceSummary) },
  'sequences.get': { params: SequenceRef, result: SequenceView },
  'sequences.create': { params: z.object({ name: SequenceName }).strict(), result: SequenceView },
  'sequences.rename': {
    params: z.object({ sequenceId: Id, name: SequenceName }).strict(),
    result: SequenceView,
  },
  /** Removes the sequence and its assemblies; its shots' drafts and jobs stay in the journal. */
  'sequences.delete': { params: SequenceRef, result: z.object({ deleted: z.boolean() }) },
  /** A new shot from a form (a new draft with its own idempotency key), at the end or at `position`. */
  'sequences.addShot': {
    params: z
      .object({ sequenceId: Id, form: DraftForm, position: z.number().int().min(0).optional() })
      .strict(),
    result: SequenceView,
  },
  'sequences.moveShot': {
    params: z.object({ sequenceId: Id, shotId: Id, toPosition: z.number().int().min(0) }).strict(),
    result: SequenceView,
  },
  /** Takes the shot out of the sequence (its draft and job stay in the journal; `restoreShot` puts it back). */
  'sequences.removeShot': { params: ShotRef, result: SequenceView },
  /**
   * Puts a removed shot back at its place (the end when the sequence is shorter now) with its draft,
   * result and trim, nothing generated again (issue 40: undo on the timeline); `sequence.shot_not_found`
   * when it was not removed from this sequence or was put back already.
   */
  'sequences.restoreShot': { params: ShotRef, result: SequenceView },
  /**
   * Trim a shot (issue 31): in and out points in seconds, snapped to the result's frames and
   * checked against its measured length (`sequence.invalid_trim`, `sequence.no_result`); null
   * clears them. The result's file is never changed; the assembly, continue and bridge use the range.
   */
  'sequences.trimShot': {
    params: z
      .object({
        sequenceId: Id,
        shotId: Id,
        range: z
          .object({ inSeconds: z.number().min(0).max(3600), outSeconds: z.number().min(0).max(3600) })
          .strict()
          .nullable(),
      })
      .strict(),
    result: SequenceView,
  },
  /**
   * Continue from a shot: the exact last frame of its verified result (of its kept range when it is
   * trimmed; lossless PNG, full resolution) becomes the first frame of a new shot placed after it — image-to-video, or
   * first/last-frame with the last frame the creator picked (`lastFrameFileId`, a staged image).
   */
  'sequences.continueShot': {
    params: z
      .object({
        sequenceId: Id,
        fromShotId: Id,
        generationMode: z.enum(['i2v', 'first_last_frame_video']),
        lastFrameFileId: StagedFileId.optional(),
        prompt: z.string().max(200_000).optional(),
      })
      .strict(),
    result: SequenceView,
  },
  /**
   * Bridge two shots: a first/last-frame shot from A's last frame to B's first frame (the out and
   * in points of trimmed shots), placed between them.
   */
  'sequences.bridgeShots': {
    params: z
      .object({ sequenceId: Id, fromShotId: Id, toShotId: Id, prompt: z.string().max(200_000).optional() })
      .strict(),
    result: SequenceView,
  },
  /**
   * Submits the shots that are still drafts (or only `shotId`), in order, each under its own
   * draft's idempotency key (a second call creates nothing new).
   */
  'sequences.generate': {
    params: z.object({ sequenceId: Id, shotId: Id.optional() }).strict(),
    result: z.object({
      submitted: z.array(
        z.object({
          shotId: z.string(),
          state: z.enum(['accepted', 'pending', 'refused']),
          /** Why a shot was refused (nothing was created; its draft is editable again). */
          message: z.string().nullable(),
        }),
      ),
      sequence: SequenceView,
    }),
  },
  /**
   * Renders the sequence into one MP4 of the library (offline): answers at once with the assembly
   * (progress follows as `sequences.assembly` events), or the earlier one when nothing changed.
   */
  'sequences.assemble': {
    params: z.object({ sequenceId: Id, crossfadeSeconds: CrossfadeSeconds.optional() }).strict(),
    result: AssemblyView,
  },
  /** The sequence's sound track: music bed, voice-over lines, gains, duck amount and captions. */
  'sequences.soundtrack.get': { params: SequenceRef, result: SoundtrackView },
  /** The music bed: an audio result of the library (its job), or none (`jobRowId` null). */
  'sequences.soundtrack.setMusic': {
    params: z.object({ sequenceId: Id, jobRowId: z.number().int().positive().nullable() }).strict(),
    result: SoundtrackView,
  },
  /**
   * A music bed made by the audio service's music model from a prompt (a billed job under its own
   * idempotency key, recorded first: pressing again for the same prompt continues that job).
   */
  'sequences.soundtrack.generateMusic': {
    params: z
      .object({
        sequenceId: Id,
        prompt: z.string().trim().min(1).max(1000),
        model: z.string().min(1).max(200).optional(),
        seconds: z.number().int().min(1).max(600).optional(),
      })
      .strict(),
    result: SoundtrackView,
  },
  /** The music's gain and how far it ducks under a voice. */
  'sequences.soundtrack.setLevels': {
    params: z.object({ sequenceId: Id, musicGainDb: GainDb.optional(), duckDb: DuckDb.optional() }).strict(),
    result: SoundtrackView,
  },
  /** A voice-over line at a time: speech generated from `text`, or a dropped audio file (`fileId`). */
  'sequences.soundtrack.addVoice': {
    params: z
      .object({
        sequenceId: Id,
        /** The new line's id (a UUID the caller chose): sending it again answers that line, adding nothing. */
        lineId: z.uuid().optional(),
        atSeconds: AtSeconds,
        gainDb: GainDb.optional(),
        text: z.string().trim().min(1).max(600).optional(),
        model: z.string().min(1).max(200).optional(),
        speaker: z.string().min(1).max(200).optional(),
        fileId: StagedFileId.optional(),
      })
      .strict(),
    result: SoundtrackView,
  },
  /** Moves or re-levels a line; a new text is spoken again; `transcribe` retries a file's transcript. */
  'sequences.soundtrack.updateVoice': {
    params: z
      .object({
        sequenceId: Id,
        lineId: Id,
        atSeconds: AtSeconds.optional(),
        gainDb: GainDb.optional(),
        text: z.string().trim().min(1).max(600).optional(),
        transcribe: z.boolean().optional(),
      })
      .strict(),
    result: SoundtrackView,
  },
  'sequences.soundtrack.removeVoice': {
    params: z.object({ sequenceId: Id, lineId: Id }).strict(),
    result: SoundtrackView,
  },
  /**
   * A caption cue's start and end set by hand, in seconds of the film (issue 40: its edges dragged
   * on the timeline): the cue is named by its voice line and its index among that line's cues. Kept
   * from the line's start (moving the line moves it along) while the cue reads the same; null gives
   * it back its line's own times. At least 0.2 s long (`sequence.invalid_caption`).
   */
  'sequences.captions.update': {
    params: z
      .object({
        sequenceId: Id,
        lineId: Id,
        cueIndex: z.number().int().min(0).max(10_000),
        range: z.object({ startSeconds: AtSeconds, endSeconds: AtSeconds }).strict().nullable(),
      })
      .strict(),
    result: SoundtrackView,
  },
  /**
   * The caption track as SRT and WebVTT text, also written as sidecars beside the latest assembled
   * file (`files`: their names; null when nothing is assembled yet).
   */
  'sequences.captions.export': {
    params: SequenceRef,
    result: z.object({
      srt: z.string(),
      vtt: z.string(),
      cueCount: z.number().int(),
      files: z.object({ srt: z.string(), vtt: z.string() }).nullable(),
    }),
  },
  /**
   * Renders the sequence's latest ready assembly (assembling it first when there is none or the
   * shots changed) with its sound track into a delivery format of the library: answers at once
   * (progress follows as `sequences.delivery` events), or the earlier file when nothing changed.
   */
  'sequences.deliver': { params: DeliveryRequest, result: DeliveryView },
  /**
   * A sequence's deliveries, newest first (failed and cancelled ones included); without a
   * sequence, the ready deliveries of every sequence (the library's films).
   */
  'sequences.deliveries.list': {
    params: z.object({ sequenceId: Id.optional() }).strict(),
    result: z.array(DeliveryView),
  },
  /** Stops a delivery still rendering; no part of its file stays in the library. */
  'sequences.deliveries.cancel': {
    params: z.object({ deliveryId: Id }).strict(),
    result: z.object({ cancelled: z.boolean() }),
  },
} as const;

export const sequencesEvents = {
  /** A sequence changed (shots, their jobs, an assembly). */
  'sequences.changed': z.object({ sequenceId: z.string() }),
  'sequences.assembly': AssemblyView,
  /** A delivery's progress and its end. */
  'sequences.delivery': DeliveryView,
} as const;
