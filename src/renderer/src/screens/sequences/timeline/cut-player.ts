import { shuttleStart, shuttleTime } from './shuttle';
import { audioContext, decodedSound } from './sound-cache';
import { musicGainAt, pictureAt, type PictureClip, type Timeline } from './timeline-model';

/**
 * The live preview of the cut (issue 40), without assembling anything: **sequenced media elements
 * for the picture, Web Audio for the music and voices**.
 *
 * Why not Media Source Extensions: the shots are the library's verified MP4 files as they were
 * downloaded (a `moov` box, not fragmented); MSE would need each one remuxed into fragments in the
 * page (a demuxer/muxer dependency) and re-fed on every trim. Two `<video>` elements play the files
 * as they are: the one on screen plays the current shot from its in point, the other is loaded and
 * seeked to the next shot's in point ahead of the cut, so the cut is a swap of two ready elements
 * (and a cross-fade the two at once, the incoming one's opacity and volume following the fade).
 * Paused, a time is shown by seeking each element to the middle of that frame, which is exact.
 *
 * The clock is the AudioContext's (sample-accurate, the one the sounds are scheduled on); the
 * picture follows it each animation frame (16 ms at 60 Hz, under a film frame of 41.7 ms) and an
 * element drifting more than a frame is seeked back. The music bed and the voice lines are decoded
 * once (`sound-cache.ts`) and scheduled as buffer sources at their film times with their gains; the
 * music's gain follows the delivery mix's duck envelope as a value curve (`musicGainAt`).
 *
 * J/K/L shuttle (`shuttle.ts`): faster than 1× forwards the elements play at that rate, without the
 * music and voices; backwards (a video element cannot play at a negative rate in Chromium) the
 * playhead moves back on the same clock and each animation frame seeks the elements to it, a frame
 * shown once decoded (a new seek only once the last one has landed). Backwards stops at 0.
 */
export class CutPlayer {
  private timeline: Timeline | null = null;
  /** Which shot each of the two elements holds. */
  private readonly holds: (string | null)[] = [null, null];
  private playing = false;
  /** Signed: 1 plays with sound; faster or negative (backwards) silently. */
  private playRate = 1;
  /** When the seek shown while going backwards was asked (0: none under way). */
  private steppingSince = 0;
  private startT = 0;
  private startClock = 0;
  /** The clock playback follows: the AudioContext once it runs, else (null) the page's. */
  private clock: AudioContext | null = null;
  private raf = 0;
  private sounds: AudioScheduledSourceNode[] = [];
  private readonly ready = new Map<string, AudioBuffer>();

  constructor(
    private readonly videos: readonly [HTMLVideoElement, HTMLVideoElement],
    private readonly onTime: (seconds: number) => void,
    private readonly onStop: (seconds: number) => void,
  ) {}

  get isPlaying(): boolean {
    return this.playing;
  }

  /** The rate it plays at (0 when stopped). */
  get rate(): number {
    return this.playing ? this.playRate : 0;
  }

  /** A new cut: its sounds are decoded ahead; a preview that is playing starts again from where it is. */
  setTimeline(timeline: Timeline): void {
    this.timeline = timeline;
    for (const clip of [...timeline.music, ...timeline.voices])
      if (clip.mediaUrl && !this.ready.has(clip.mediaUrl)) {
        const url = clip.mediaUrl;
        void decodedSound(url).then((buffer) => buffer && this.ready.set(url, buffer));
      }
    if (this.playing) this.play(this.now(), this.playRate);
  }

  /** Shows the frame at `seconds` (paused); resolves once the elements have it. */
  async show(seconds: number): Promise<void> {
    const timeline = this.timeline;
    if (!timeline) return;
    const at = pictureAt(timeline, seconds);
    if (!at) return this.hideAll();
    const waits: Promise<void>[] = [];
    const out = this.place(at.clip, null);
    if (out) waits.push(seekTo(out, at.clip, at.sourceSeconds));
    const incoming = at.incoming ? this.place(at.incoming.clip, at.clip.shotId) : undefined;
    if (incoming && at.incoming) waits.push(seekTo(incoming, at.incoming.clip, at.incoming.sourceSeconds));
    else {
      // the next shot waits ready in the other element
      const next = timeline.picture[at.clip.index + 1];
      const spare = next?.playable ? this.place(next, at.clip.shotId) : undefined;
      if (spare && next) void seekTo(spare, next, next.sourceIn);
    }
    this.style(out, incoming, at.incoming?.mix ?? 0);
    await Promise.all(waits);
  }

  /** Plays from `from` at `rate` (see `shuttle.ts`); backwards from 0 does nothing. */
  play(from: number, rate = 1): void {
    const timeline = this.timeline;
    if (!timeline || timeline.picture.length === 0 || rate === 0) return;
    const start = shuttleStart(from, rate, timeline.totalSeconds, timeline.fps);
    if (start === null) return;
    this.stopSounds();
    this.playing = true;
    this.playRate = rate;
    this.steppingSince = 0;
    this.startT = start;
    if (rate < 0) for (const v of this.videos) v.pause();
    const ctx = audioContext();
    // the AudioContext's clock once it runs (the sounds are scheduled on it); until then (a page
    // not yet allowed to play sound) the page's clock, and the sounds join when it starts
    this.clock = ctx?.state === 'running' ? ctx : null;
    if (this.clock && ctx) {
      this.startClock = ctx.currentTime + 0.05;
      if (rate === 1) this.schedule(ctx, timeline, this.startT, this.startClock);
    } else {
      this.startClock = performance.now() / 1000;
      if (ctx)
        void ctx.resume().then(() => {
          if (this.playing && ctx.state === 'running') this.play(this.now(), this.playRate);
        });
    }
    cancelAnimationFrame(this.raf);
    const tick = () => {
      if (!this.playing) return;
      const { seconds: t, ended } = this.position();
      if (ended) {
        this.pause();
        this.onStop(t);
        return;
      }
      if (this.playRate > 0) this.follow(timeline, t);
      else this.step(t);
      this.onTime(t);
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  /** Stops where it is; answers that time. */
  pause(): number {
    const t = this.now();
    this.startT = t;
    this.playing = false;
    this.steppingSince = 0;
    cancelAnimationFrame(this.raf);
    this.stopSounds();
    for (const v of this.videos) v.pause();
    return t;
  }

  dispose(): void {
    this.pause();
    for (const v of this.videos) {
      v.removeAttribute('src');
      v.load();
    }
  }

  private now(): number {
    return this.position().seconds;
  }

  private position(): { seconds: number; ended: boolean } {
    const timeline = this.timeline;
    if (!this.playing || !timeline) return { seconds: this.startT, ended: false };
    const clock = this.clock ? this.clock.currentTime : performance.now() / 1000;
    return shuttleTime(this.startT, this.playRate, clock - this.startClock, timeline.totalSeconds);
  }

  /** Backwards: the frame at `t` shown once the last one asked for has landed (or a quarter second on). */
  private step(t: number): void {
    const now = performance.now();
    if (this.steppingSince && now - this.steppingSince < 250) return;
    const since = now;
    this.steppingSince = since;
    void this.show(t).then(() => {
      if (this.steppingSince === since) this.steppingSince = 0;
    });
  }

  /** While playing: the elements play the shots under `t`, kept within a frame of it. */
  private follow(timeline: Timeline, t: number): void {
    const at = pictureAt(timeline, t);
    if (!at) return;
    const out = this.place(at.clip, at.incoming?.clip.shotId ?? null);
    const incoming = at.incoming ? this.place(at.incoming.clip, at.clip.shotId) : undefined;
    const rate = this.playRate;
    if (out)
      keepPlaying(out, at.clip.sourceIn + (t - at.clip.start), at.incoming ? 1 - at.incoming.mix : 1, rate);
    if (incoming && at.incoming)
      keepPlaying(incoming, at.incoming.clip.sourceIn + (t - at.incoming.clip.start), at.incoming.mix, rate);
    else {
      const next = timeline.picture[at.clip.index + 1];
      if (next?.playable && next.start - t < 1.5) {
        const spare = this.place(next, at.clip.shotId);
        if (spare && spare.paused && Math.abs(spare.currentTime - next.sourceIn) > 0.01)
          spare.currentTime = next.sourceIn;
      }
    }
    for (const v of this.videos) if (v !== out && v !== incoming && !v.paused) v.pause();
    this.style(out, incoming, at.incoming?.mix ?? 0);
  }

  /** The element holding `clip` (loading it into the one not holding `keep` when neither does). */
  private place(clip: PictureClip, keep: string | null): HTMLVideoElement | undefined {
    if (!clip.playable || !clip.shot.mediaUrl) return undefined;
    const held = this.holds.indexOf(clip.shotId);
    if (held >= 0) return this.videos[held];
    const index = keep !== null && this.holds[0] === keep ? 1 : 0;
    const video = this.videos[index]!;
    video.pause();
    video.src = clip.shot.mediaUrl;
    video.dataset.shotId = clip.shotId;
    this.holds[index] = clip.shotId;
    return video;
  }

  private style(
    out: HTMLVideoElement | undefined,
    incoming: HTMLVideoElement | undefined,
    mix: number,
  ): void {
    for (const v of this.videos) {
      const shown = v === out || v === incoming;
      v.style.visibility = shown ? 'visible' : 'hidden';
      v.style.zIndex = v === incoming ? '2' : '1';
      v.style.opacity = v === incoming ? String(mix) : '1';
      v.dataset.onScreen = String(v === out);
    }
  }

  private hideAll(): void {
    this.style(undefined, undefined, 0);
  }

  private schedule(ctx: AudioContext, timeline: Timeline, from: number, at: number): void {
    const remaining = timeline.totalSeconds - from;
    if (remaining <= 0) return;
    const musicGain = ctx.createGain();
    musicGain.connect(ctx.destination);
    // the duck envelope at 100 points a second, exactly the mix's (a value curve from `at` on)
    const points = Math.max(2, Math.ceil(remaining * 100));
    const curve = new Float32Array(points);
    for (let i = 0; i < points; i += 1)
      curve[i] = musicGainAt(timeline, from + (i / (points - 1)) * remaining);
    musicGain.gain.setValueCurveAtTime(curve, at, remaining);
    for (const clip of timeline.music) this.start(ctx, clip, from, at, musicGain);
    for (const clip of timeline.voices) {
      const gain = ctx.createGain();
      gain.gain.value = 10 ** (clip.gainDb / 20);
      gain.connect(ctx.destination);
      this.start(ctx, clip, from, at, gain);
    }
  }

  private start(
    ctx: AudioContext,
    clip: { start: number; end: number; sourceOffset: number; mediaUrl: string | null },
    from: number,
    at: number,
    into: AudioNode,
  ): void {
    const buffer = clip.mediaUrl ? this.ready.get(clip.mediaUrl) : undefined;
    if (!buffer || clip.end <= from) return;
    const source = ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(into);
    const skip = Math.max(0, from - clip.start);
    source.start(at + Math.max(0, clip.start - from), clip.sourceOffset + skip, clip.end - clip.start - skip);
    this.sounds.push(source);
  }

  private stopSounds(): void {
    for (const s of this.sounds) {
      try {
        s.stop();
      } catch {
        // never started
      }
      s.disconnect();
    }
    this.sounds = [];
  }
}

/** Seeks an element to the middle of the frame at `sourceSeconds` (so that very frame is shown). */
function seekTo(video: HTMLVideoElement, clip: PictureClip, sourceSeconds: number): Promise<void> {
  const fps = clip.shot.frameRate ?? 24;
  const target = sourceSeconds + 0.5 / fps;
  return new Promise((resolve) => {
    const done = () => {
      video.removeEventListener('seeked', done);
      video.removeEventListener('error', done);
      resolve();
    };
    video.addEventListener('seeked', done);
    video.addEventListener('error', done);
    if (video.readyState >= 1 && Math.abs(video.currentTime - target) < 1e-4 && !video.seeking) done();
    else if (video.readyState >= 1) video.currentTime = target;
    else video.addEventListener('loadedmetadata', () => (video.currentTime = target), { once: true });
  });
}

/** Plays `video` at `rate` within a frame and a half (of the film, at that rate) of `expected`; silent unless at 1×. */
function keepPlaying(video: HTMLVideoElement, expected: number, volume: number, rate: number): void {
  video.volume = rate === 1 ? Math.min(1, Math.max(0, volume)) : 0;
  // a new source resets the rate to 1
  if (video.playbackRate !== rate) video.playbackRate = rate;
  if (Math.abs(video.currentTime - expected) > (1.5 / 24) * rate) video.currentTime = expected;
  if (video.paused) void video.play().catch(() => undefined);
}
