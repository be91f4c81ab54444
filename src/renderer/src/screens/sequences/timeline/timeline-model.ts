import type {
  CaptionCueView,
  SequenceShotView,
  SequenceView,
  SoundtrackView,
} from '../../../../../shared/bridge/contract';
import { filmSeconds } from '../../../../../shared/film-length';
import { shotDuration } from '../sequence-model';
import { initialRange, rangeSeconds, trimKey, withIn, withOut, type FrameRange } from '../trim-model';

/**
 * The timeline (issue 40): where every clip of the film lies, in seconds of the film, laid out
 * exactly as the assembly and the delivery's mix lay them out (`src/main/core/media-tools/
 * assemble-shots.ts`, `mix-soundtrack.ts`), so the timeline, its live preview and the assembled
 * file agree to the frame. Pure: no DOM, no bridge.
 */

/** The assembly's canvas rate (H3: 24 fps): every shot lasts a whole number of these frames. */
export const FILM_FPS = 24;
/** The music ducks this long before a voice starts, and comes back this long after it ends (the mix's). */
export const DUCK_ATTACK_SECONDS = 0.15;
export const DUCK_RELEASE_SECONDS = 0.3;

export interface PictureClip {
  shotId: string;
  index: number;
  label: string;
  prompt: string;
  model: string;
  /** The seed it was made with (null: the platform picked it). */
  seed: number | null;
  /** Where the shot starts and ends in the film (its fade-in begins at `start`). */
  start: number;
  end: number;
  /** Its length in the film: a whole number of canvas frames. */
  seconds: number;
  /** Where its kept range starts in its own file (the trim's in point, else 0). */
  sourceIn: number;
  /** The cross-fade with the previous / next shot (0: a straight cut, or no neighbour). */
  fadeIn: number;
  fadeOut: number;
  /** A continued or bridged shot made from the shot just before it. */
  linkedToPrevious: boolean;
  /** The shot has a verified result with measured frames: it plays and can be trimmed. */
  playable: boolean;
  shot: SequenceShotView;
}

export interface SoundClip {
  id: string;
  kind: 'music' | 'voice';
  label: string;
  start: number;
  end: number;
  /** Where in its file this clip starts (a looped music bed starts again at 0 each loop). */
  sourceOffset: number;
  gainDb: number;
  mediaUrl: string | null;
}

export interface CaptionBlock {
  index: number;
  /** The voice line it is made from and its index among that line's cues (what an edit names). */
  lineId: string | null;
  cueIndex: number | null;
  start: number;
  end: number;
  text: string;
}

export interface Timeline {
  fps: number;
  crossfadeSeconds: number;
  totalSeconds: number;
  picture: PictureClip[];
  /** The music bed, looped or cut to the film as the delivery's mix does. */
  music: SoundClip[];
  voices: SoundClip[];
  captions: CaptionBlock[];
  /** Film times where one shot gives way to the next (the middle of a cross-fade). */
  cuts: number[];
  musicGainDb: number;
  duckDb: number;
}

/** Each shot lasts a whole number of canvas frames (the assembly's `framesOf`). */
export function filmFramesOf(seconds: number, fps = FILM_FPS): number {
  return Math.max(1, Math.round(seconds * fps));
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** A shot is on the timeline at its kept length, rounded to whole frames as the assembly does. */
export function clipSecondsOf(shot: SequenceShotView, fps = FILM_FPS): number {
  return filmFramesOf(shotDuration(shot).seconds, fps) / fps;
}

/** The shots laid out as the assembly lays them: each starts one cross-fade before the last ends. */
export function layoutPicture(
  shots: readonly SequenceShotView[],
  crossfadeSeconds: number,
  fps = FILM_FPS,
): PictureClip[] {
  const fade = shots.length > 1 ? crossfadeSeconds : 0;
  let start = 0;
  return shots.map((shot, index) => {
    const seconds = clipSecondsOf(shot, fps);
    const previous = shots[index - 1];
    const clip: PictureClip = {
      shotId: shot.shotId,
      index,
      label: shot.label,
      prompt: shot.prompt,
      model: shot.model,
      seed: shot.seed,
      start: round6(start),
      end: round6(start + seconds),
      seconds,
      sourceIn: shot.trim?.inSeconds ?? 0,
      fadeIn: index > 0 ? fade : 0,
      fadeOut: index < shots.length - 1 ? fade : 0,
      linkedToPrevious:
        shot.origin !== 'new' && previous !== undefined && shot.sourceShotIds.includes(previous.shotId),
      playable: shot.mediaUrl !== null && shot.frameRate !== null && shot.frameCount !== null,
      shot,
    };
    start += seconds - fade;
    return clip;
  });
}

/** The film's length: the sum of the shots' frame-rounded lengths less one cross-fade per join. */
export function timelineSeconds(picture: readonly PictureClip[], crossfadeSeconds: number): number {
  return round6(
    filmSeconds(
      picture.map((c) => c.seconds),
      crossfadeSeconds,
    ),
  );
}

/** The music bed from 0 to the film's end, looped when it is shorter (the mix's `-stream_loop -1`). */
export function layoutMusic(soundtrack: SoundtrackView | null, totalSeconds: number): SoundClip[] {
  const music = soundtrack?.music;
  if (!music || totalSeconds <= 0) return [];
  const length = music.durationSeconds;
  const base = {
    kind: 'music' as const,
    label: music.fileName ?? music.prompt ?? 'Music',
    gainDb: soundtrack.musicGainDb,
    mediaUrl: music.mediaUrl,
  };
  if (!length || length <= 0)
    return [{ ...base, id: 'music-0', start: 0, end: totalSeconds, sourceOffset: 0 }];
  const clips: SoundClip[] = [];
  for (let start = 0, i = 0; start < totalSeconds - 1e-9 && i < 10_000; start += length, i += 1)
    clips.push({
      ...base,
      id: `music-${i}`,
      start: round6(start),
      end: round6(Math.min(totalSeconds, start + length)),
      sourceOffset: 0,
    });
  return clips;
}

/** One clip per voice line at its time, as long as its file (unknown length: one second, to be seen). */
export function layoutVoices(soundtrack: SoundtrackView | null): SoundClip[] {
  return (soundtrack?.voices ?? []).map((line) => ({
    id: line.lineId,
    kind: 'voice' as const,
    label: line.text || line.fileName || line.lineId,
    start: line.atSeconds,
    end: round6(line.atSeconds + (line.durationSeconds ?? 1)),
    sourceOffset: 0,
    gainDb: line.gainDb,
    mediaUrl: line.mediaUrl,
  }));
}

export function layoutCaptions(captions: readonly CaptionCueView[]): CaptionBlock[] {
  return captions.map((c, index) => ({
    index,
    lineId: c.lineId ?? null,
    cueIndex: c.cueIndex ?? null,
    start: c.startSeconds,
    end: c.endSeconds,
    text: c.text,
  }));
}

/** The whole timeline of a sequence and its sound track with the cross-fade chosen for the assembly. */
export function buildTimeline(
  sequence: Pick<SequenceView, 'shots'>,
  soundtrack: SoundtrackView | null,
  crossfadeSeconds: number,
  fps = FILM_FPS,
): Timeline {
  const picture = layoutPicture(sequence.shots, crossfadeSeconds, fps);
  const fade = picture.length > 1 ? crossfadeSeconds : 0;
  const totalSeconds = timelineSeconds(picture, fade);
  return {
    fps,
    crossfadeSeconds: fade,
    totalSeconds,
    picture,
    music: layoutMusic(soundtrack, totalSeconds),
    voices: layoutVoices(soundtrack),
    captions: layoutCaptions(soundtrack?.captions ?? []),
    cuts: picture.slice(1).map((c) => round6(c.start + c.fadeIn / 2)),
    musicGainDb: soundtrack?.musicGainDb ?? 0,
    duckDb: soundtrack?.duckDb ?? 0,
  };
}

// ---------------------------------------------------------------------------------------------
// The picture at a time (what the viewer shows)

export interface PictureAt {
  /** The shot shown (during a cross-fade: the outgoing one). */
  clip: PictureClip;
  /** Where in its file, in seconds. */
  sourceSeconds: number;
  /** During a cross-fade: the incoming shot, its time in its file and its opacity (0..1). */
  incoming?: { clip: PictureClip; sourceSeconds: number; mix: number };
}

/**
 * The film frame a time falls in (frame n covers [n/fps, (n+1)/fps)). Times are kept to the
 * microsecond, so a frame's start may read a few millionths early: a thousandth of a frame of slack.
 */
export function frameIndexAt(seconds: number, fps = FILM_FPS): number {
  return Math.floor(seconds * fps + 1e-3);
}

/**
 * What the film shows at `seconds`: the shot whose range holds it, and where in its file (the
 * frame's start); inside a cross-fade also the incoming shot and how far the fade has gone.
 */
export function pictureAt(timeline: Timeline, seconds: number): PictureAt | undefined {
  const { picture, fps } = timeline;
  if (picture.length === 0) return undefined;
  const t = frameIndexAt(Math.min(Math.max(0, seconds), timeline.totalSeconds - 1 / fps), fps) / fps;
  // the lowest-numbered shot whose range holds t: in a cross-fade, the outgoing one
  const outgoing =
    picture.find((c) => c.start <= t + 1e-9 && t < c.end - 1e-9) ?? picture[picture.length - 1]!;
  const next = picture[outgoing.index + 1];
  const at: PictureAt = { clip: outgoing, sourceSeconds: round6(outgoing.sourceIn + (t - outgoing.start)) };
  if (next && next.start <= t + 1e-9 && next.fadeIn > 0)
    at.incoming = {
      clip: next,
      sourceSeconds: round6(next.sourceIn + (t - next.start)),
      mix: Math.min(1, Math.max(0, (t - next.start) / next.fadeIn)),
    };
  return at;
}

/** The shot a playhead is over (I/O trim it): in a cross-fade, the one whose own part holds the time. */
export function clipAt(timeline: Timeline, seconds: number): PictureClip | undefined {
  const at = pictureAt(timeline, seconds);
  if (!at) return undefined;
  return at.incoming && at.incoming.mix >= 0.5 ? at.incoming.clip : at.clip;
}

// ---------------------------------------------------------------------------------------------
// The duck

/** How much the music is ducked at `t` (0: not at all, 1: by the whole duck amount) — the mix's envelope. */
export function duckDepthAt(voices: readonly SoundClip[], t: number): number {
  let depth = 0;
  for (const v of voices) {
    const down = Math.min(1, Math.max(0, (t - (v.start - DUCK_ATTACK_SECONDS)) / DUCK_ATTACK_SECONDS));
    const up = Math.min(1, Math.max(0, (v.end + DUCK_RELEASE_SECONDS - t) / DUCK_RELEASE_SECONDS));
    depth = Math.max(depth, down * up);
  }
  return depth;
}

/** The music's gain (linear) at `t`: its gain in dB, lowered by the duck where voices fall. */
export function musicGainAt(timeline: Timeline, t: number): number {
  const db = timeline.musicGainDb - timeline.duckDb * duckDepthAt(timeline.voices, t);
  return 10 ** (db / 20);
}

/** The spans where the music is ducked (voices merged where they overlap with their ramps), for drawing. */
export function duckSpans(voices: readonly SoundClip[]): { start: number; end: number }[] {
  const spans = voices
    .map((v) => ({ start: Math.max(0, v.start - DUCK_ATTACK_SECONDS), end: v.end + DUCK_RELEASE_SECONDS }))
    .sort((a, b) => a.start - b.start);
  const merged: { start: number; end: number }[] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s.start <= last.end) last.end = Math.max(last.end, s.end);
    else merged.push({ ...s });
  }
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Zoom: time ↔ pixels

/** The closest zoom: one film frame this many pixels wide. */
export const FRAME_PIXELS_MAX = 24;
export const ZOOM_STEP = 1.5;

/** Pixels per second that fit the whole film in `width` pixels (at least a 1-second film). */
export function fitZoom(totalSeconds: number, width: number): number {
  return Math.max(1, width) / Math.max(1, totalSeconds);
}

/** The zoom clamped between the fit (never further out) and one frame per {@link FRAME_PIXELS_MAX} pixels. */
export function clampZoom(pxPerSecond: number, fit: number, fps = FILM_FPS): number {
  const max = FRAME_PIXELS_MAX * fps;
  return Math.min(Math.max(pxPerSecond, Math.min(fit, max)), max);
}

export function zoomIn(pxPerSecond: number, fit: number, fps = FILM_FPS): number {
  return clampZoom(pxPerSecond * ZOOM_STEP, fit, fps);
}

export function zoomOut(pxPerSecond: number, fit: number, fps = FILM_FPS): number {
  return clampZoom(pxPerSecond / ZOOM_STEP, fit, fps);
}

export const secondsToPx = (seconds: number, pxPerSecond: number) => seconds * pxPerSecond;
export const pxToSeconds = (px: number, pxPerSecond: number) => px / pxPerSecond;

/** A time on a frame boundary of the film. */
export function snapToFrame(seconds: number, fps = FILM_FPS): number {
  return round6(Math.round(seconds * fps) / fps);
}

/** The ruler's tick spacing in seconds: the smallest "nice" step at least `minPx` pixels apart. */
export function rulerStep(pxPerSecond: number, minPx = 64, fps = FILM_FPS): number {
  const steps = [1 / fps, 2 / fps, 6 / fps, 12 / fps, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600];
  return steps.find((s) => s * pxPerSecond >= minPx) ?? steps[steps.length - 1]!;
}

/** `m:ss.ff` — minutes, seconds and frames of the film. */
export function timecode(seconds: number, fps = FILM_FPS): string {
  const frames = Math.max(0, Math.round(seconds * fps));
  const whole = Math.floor(frames / fps);
  const f = frames % fps;
  const m = Math.floor(whole / 60);
  const s = whole % 60;
  return `${m}:${String(s).padStart(2, '0')}.${String(f).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Snapping

/** Everything a dragged edge may snap to: the cuts, the playhead and the other clips' edges. */
export function snapTargets(timeline: Timeline, playhead: number, exceptId?: string): number[] {
  const edges: number[] = [0, timeline.totalSeconds, playhead, ...timeline.cuts];
  for (const c of timeline.picture) if (c.shotId !== exceptId) edges.push(c.start, c.end);
  for (const v of timeline.voices) if (v.id !== exceptId) edges.push(v.start, v.end);
  // a dragged cue never snaps to itself, nor a dragged voice line to its own captions
  for (const c of timeline.captions)
    if (`cue-${c.index}` !== exceptId && (c.lineId === null || c.lineId !== exceptId))
      edges.push(c.start, c.end);
  return edges;
}

/**
 * A dragged time snapped to the nearest target within `thresholdSeconds` (the caller passes a few
 * pixels' worth at the zoom), else to the nearest frame.
 */
export function snapTime(
  seconds: number,
  targets: readonly number[],
  thresholdSeconds: number,
  fps = FILM_FPS,
): { seconds: number; snappedTo: number | null } {
  let best: number | null = null;
  for (const target of targets)
    if (
      Math.abs(target - seconds) <= thresholdSeconds &&
      (best === null || Math.abs(target - seconds) < Math.abs(best - seconds))
    )
      best = target;
  return best === null
    ? { seconds: snapToFrame(seconds, fps), snappedTo: null }
    : { seconds: best, snappedTo: best };
}

// ---------------------------------------------------------------------------------------------
// Editing arithmetic

/** Where a shot dragged to film time `seconds` lands: before the first other shot whose middle is later. */
export function dropPosition(picture: readonly PictureClip[], shotId: string, seconds: number): number {
  const others = picture.filter((c) => c.shotId !== shotId);
  const at = others.findIndex((c) => seconds < (c.start + c.end) / 2);
  return at < 0 ? others.length : at;
}

/**
 * A ripple trim: one edge of a shot dragged by `deltaSeconds` of film time. The shot keeps its place
 * and the later shots move up or down by the change. Answers the new range of its file's frames
 * (at least one frame, within the file) — the core snaps and checks it again.
 */
export function rippleTrim(
  clip: PictureClip,
  edge: 'in' | 'out',
  deltaSeconds: number,
): FrameRange | undefined {
  const { frameRate, frameCount } = clip.shot;
  if (!frameRate || !frameCount) return undefined;
  const range = initialRange(clip.shot);
  const delta = Math.round(deltaSeconds * frameRate);
  return edge === 'in'
    ? withIn(range, range.inFrame + delta)
    : withOut(range, range.outFrame + delta, frameCount);
}

/** What `sequences.trimShot` is sent for a range: seconds, or null when the whole file is kept again. */
export function trimRequest(
  clip: PictureClip,
  range: FrameRange,
): { inSeconds: number; outSeconds: number } | null {
  const { frameRate, frameCount } = clip.shot;
  if (!frameRate || !frameCount) return null;
  if (range.inFrame === 0 && range.outFrame === frameCount) return null;
  return rangeSeconds(range, frameRate);
}

/** The frame of a shot's file under a film time (clamped into the file). */
export function sourceFrameAt(clip: PictureClip, seconds: number): number {
  const { frameRate, frameCount } = clip.shot;
  if (!frameRate || !frameCount) return 0;
  const source = clip.sourceIn + (seconds - clip.start);
  return Math.min(frameCount - 1, Math.max(0, Math.floor(source * frameRate + 1e-3)));
}

/**
 * I / O at the playhead: the shot under it gets its in point at the playhead's frame (I), or its
 * out point just after it (O: that frame is the last one kept). Undefined when no shot there can be trimmed.
 */
export function trimAtPlayhead(
  timeline: Timeline,
  playhead: number,
  key: 'i' | 'o',
): { clip: PictureClip; range: FrameRange } | undefined {
  const clip = clipAt(timeline, playhead);
  if (!clip?.playable || !clip.shot.frameCount) return undefined;
  const next = trimKey(key, {
    range: initialRange(clip.shot),
    playhead: sourceFrameAt(clip, playhead),
    frameCount: clip.shot.frameCount,
  });
  return next ? { clip, range: next.range } : undefined;
}

/** A voice line dragged by `deltaSeconds`: never before the film's start, to the millisecond. */
export function movedVoiceTime(atSeconds: number, deltaSeconds: number): number {
  return Math.max(0, Math.round((atSeconds + deltaSeconds) * 1000) / 1000);
}

/** A caption lasts at least this long (the core refuses shorter: `sequence.invalid_caption`). */
export const MIN_CAPTION_SECONDS = 0.2;

/**
 * A caption's edge dragged to `seconds` (already snapped): its new start and end, never shorter
 * than {@link MIN_CAPTION_SECONDS} nor before the film's start, to the millisecond.
 */
export function captionEdge(
  block: Pick<CaptionBlock, 'start' | 'end'>,
  edge: 'start' | 'end',
  seconds: number,
): { startSeconds: number; endSeconds: number } {
  const ms = (n: number) => Math.round(n * 1000) / 1000;
  if (edge === 'start')
    return {
      startSeconds: ms(Math.max(0, Math.min(seconds, block.end - MIN_CAPTION_SECONDS))),
      endSeconds: ms(block.end),
    };
  return {
    startSeconds: ms(block.start),
    endSeconds: ms(Math.max(seconds, block.start + MIN_CAPTION_SECONDS)),
  };
}

/** The playhead moved by whole frames, kept inside the film. */
export function stepFrames(playhead: number, frames: number, totalSeconds: number, fps = FILM_FPS): number {
  const last = Math.max(0, filmFramesOf(totalSeconds, fps) - 1);
  const frame = Math.min(last, Math.max(0, frameIndexAt(playhead, fps) + frames));
  return round6(frame / fps);
}
