import { memo, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SequenceView } from '../../../../../shared/bridge/contract';
import { promptExcerpt } from '../sequence-model';
import { SoundWave } from './SoundWave';
import {
  buildTimeline,
  dropPosition,
  duckSpans,
  pxToSeconds,
  rippleTrim,
  rulerStep,
  snapTargets,
  snapTime,
  timecode,
  captionEdge,
  type CaptionBlock,
  type PictureClip,
  type SoundClip,
  type Timeline,
} from './timeline-model';

/** Pixels within which a dragged edge snaps to a cut, the playhead or another clip's edge. */
const SNAP_PIXELS = 8;
/** A press that moves less than this is a click (select), not a drag. */
const DRAG_PIXELS = 3;

export type Selection = { kind: 'shot' | 'voice' | 'caption' | 'music'; id: string } | null;

type Drag = {
  kind: 'move' | 'in' | 'out' | 'voice' | 'cue-start' | 'cue-end';
  id: string;
  startX: number;
  dx: number;
};

/** What a finished drag asks for; the panel applies it through the history. */
export type DragEdit =
  | { kind: 'move'; shotId: string; to: number }
  | { kind: 'trim'; clip: PictureClip; range: { inFrame: number; outFrame: number } }
  | { kind: 'voice'; lineId: string; atSeconds: number }
  | { kind: 'caption'; block: CaptionBlock; range: { startSeconds: number; endSeconds: number } };

export interface TracksProps {
  sequence: SequenceView;
  timeline: Timeline;
  pxPerSecond: number;
  playhead: number;
  selection: Selection;
  onSelect(selection: Selection): void;
  onSeek(seconds: number): void;
  onDragEdit(edit: DragEdit): void;
  onClipKey(event: KeyboardEvent, selection: NonNullable<Selection>): void;
  onMenu(selection: NonNullable<Selection>): void;
  onGenerate(shotId: string): void;
  busyGenerate: (shotId: string) => boolean;
}

const secondsText = (s: number) => `${Number(s.toFixed(2))} s`;

/**
 * The tracks under the viewer (issue 40): a ruler, the picture (one clip per shot, as wide as its
 * kept length, its frames as thumbnails, linked to the shot it continues or bridges), the music
 * (its waveform, the duck drawn where voices fall), the voice lines and the caption cues. Clips
 * are buttons (a name and times for a screen reader); their edges and bodies drag.
 */
export const TimelineTracks = memo(function TimelineTracks(p: TracksProps) {
  const { t } = useTranslation();
  const [drag, setDrag] = useState<Drag | null>(null);
  const dragRef = useRef<Drag | null>(null);
  const pps = p.pxPerSecond;

  // while an edge is dragged, the timeline as it would be (ripple: later shots move up or down)
  const shown = useMemo(() => {
    if (!drag || (drag.kind !== 'in' && drag.kind !== 'out')) return p.timeline;
    const clip = p.timeline.picture.find((c) => c.shotId === drag.id);
    const range = clip ? rippleTrim(clip, drag.kind, pxToSeconds(drag.dx, pps)) : undefined;
    if (!clip || !range || !clip.shot.frameRate) return p.timeline;
    const fps = clip.shot.frameRate;
    const trim = {
      inSeconds: range.inFrame / fps,
      outSeconds: range.outFrame / fps,
      inFrame: range.inFrame,
      outFrame: range.outFrame,
      seconds: (range.outFrame - range.inFrame) / fps,
    };
    const shots = p.sequence.shots.map((s) => (s.shotId === drag.id ? { ...s, trim } : s));
    return buildTimeline({ shots }, null, p.timeline.crossfadeSeconds);
  }, [drag, p.timeline, p.sequence.shots, pps]);

  const width = Math.max(1, shown.totalSeconds * pps);
  const snap = (seconds: number, exceptId: string) =>
    snapTime(seconds, snapTargets(p.timeline, p.playhead, exceptId), SNAP_PIXELS / pps, p.timeline.fps)
      .seconds;

  const begin = (e: PointerEvent<HTMLElement>, kind: Drag['kind'], id: string) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const next = { kind, id, startX: e.clientX, dx: 0 };
    dragRef.current = next;
    setDrag(next);
  };
  const moveDrag = (e: PointerEvent<HTMLElement>) => {
    const current = dragRef.current;
    if (!current) return;
    const next = { ...current, dx: e.clientX - current.startX };
    dragRef.current = next;
    setDrag(next);
  };
  const end = (selection: NonNullable<Selection>) => {
    const current = dragRef.current;
    dragRef.current = null;
    setDrag(null);
    if (!current) return;
    if (Math.abs(current.dx) < DRAG_PIXELS) {
      p.onSelect(selection);
      return;
    }
    const delta = pxToSeconds(current.dx, pps);
    if (current.kind === 'move') {
      const clip = p.timeline.picture.find((c) => c.shotId === current.id);
      if (!clip) return;
      const to = dropPosition(p.timeline.picture, clip.shotId, (clip.start + clip.end) / 2 + delta);
      if (to !== clip.index) p.onDragEdit({ kind: 'move', shotId: clip.shotId, to });
    } else if (current.kind === 'cue-start' || current.kind === 'cue-end') {
      const block = p.timeline.captions[Number(current.id)];
      if (!block) return;
      const edge = current.kind === 'cue-start' ? 'start' : 'end';
      const at = snap((edge === 'start' ? block.start : block.end) + delta, `cue-${block.index}`);
      p.onDragEdit({ kind: 'caption', block, range: captionEdge(block, edge, at) });
    } else if (current.kind === 'voice') {
      const voice = p.timeline.voices.find((v) => v.id === current.id);
      if (voice)
        p.onDragEdit({
          kind: 'voice',
          lineId: voice.id,
          atSeconds: Math.max(0, snap(voice.start + delta, voice.id)),
        });
    } else {
      const clip = p.timeline.picture.find((c) => c.shotId === current.id);
      if (!clip) return;
      // the out edge snaps (a cut, the playhead, another clip's edge); the in edge moves by frames
      const d = current.kind === 'out' ? snap(clip.end + delta, clip.shotId) - clip.end : delta;
      const range = rippleTrim(clip, current.kind, d);
      if (range) p.onDragEdit({ kind: 'trim', clip, range });
    }
  }; /** A clip's edge handle: dragged, it trims the shot (in/out) or moves the caption's start/end. */
  const edgeHandle = (
    side: 'in' | 'out',
    kind: Drag['kind'],
    selection: NonNullable<Selection>,
    title: string,
    testId: string,
  ) => (
    <span
      className={`timeline-edge timeline-edge-${side}`}
      title={title}
      data-testid={testId}
      onPointerDown={(e) => begin(e, kind, selection.id)}
      onPointerMove={moveDrag}
      onPointerUp={() => end(selection)}
      onPointerCancel={() => end(selection)}
    />
  );

  const seekAt = (e: PointerEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    p.onSeek(Math.min(p.timeline.totalSeconds, Math.max(0, pxToSeconds(e.clientX - box.left, pps))));
  };

  const step = rulerStep(pps);
  const ticks: number[] = [];
  for (let s = 0, i = 0; s <= shown.totalSeconds + 1e-9 && i < 5000; i += 1, s = i * step) ticks.push(s);
  const selected = (kind: string, id: string) => p.selection?.kind === kind && p.selection.id === id;
  const dropAt =
    drag?.kind === 'move' && Math.abs(drag.dx) >= DRAG_PIXELS
      ? (() => {
          const clip = p.timeline.picture.find((c) => c.shotId === drag.id);
          if (!clip) return null;
          const to = dropPosition(
            p.timeline.picture,
            clip.shotId,
            (clip.start + clip.end) / 2 + pxToSeconds(drag.dx, pps),
          );
          const others = p.timeline.picture.filter((c) => c.shotId !== clip.shotId);
          return others[to]?.start ?? shown.totalSeconds;
        })()
      : null;

  return (
    <div
      className="timeline-lanes"
      style={{ width: `${width + 2}px` }}
      data-testid="timeline-lanes"
      data-px-per-second={pps}
    >
      <div
        className="timeline-ruler"
        aria-label={t('timeline.ruler')}
        role="presentation"
        data-testid="timeline-ruler"
        onPointerDown={seekAt}
      >
        {ticks.map((s) => (
          <span key={s} className="timeline-tick" style={{ left: `${s * pps}px` }}>
            {timecode(s, p.timeline.fps)}
          </span>
        ))}
      </div>

      <div className="timeline-track timeline-track-picture" role="group" aria-label={t('timeline.picture')}>
        {shown.picture.map((clip) => {
          const moving = drag?.kind === 'move' && drag.id === clip.shotId ? drag.dx : 0;
          const sel = { kind: 'shot' as const, id: clip.shotId };
          const w = Math.max(2, clip.seconds * pps);
          const label = t('timeline.shotClip', {
            label: clip.label,
            from: timecode(clip.start),
            to: timecode(clip.end),
            length: secondsText(clip.seconds),
            prompt: promptExcerpt(clip.prompt, 80),
          });
          const style = {
            left: `${clip.start * pps}px`,
            width: `${w}px`,
            transform: moving ? `translateX(${moving}px)` : undefined,
          };
          if (!clip.playable && clip.shot.state === 'draft')
            return (
              <div
                key={clip.shotId}
                className={`timeline-clip timeline-clip-empty${selected('shot', clip.shotId) ? ' is-selected' : ''}`}
                style={style}
                data-testid="timeline-shot"
                data-shot-id={clip.shotId}
                data-start={clip.start}
                data-end={clip.end}
              >
                <button
                  type="button"
                  className="timeline-clip-body"
                  aria-label={`${label}. ${t('timeline.emptySlot', { label: clip.label })}`}
                  aria-pressed={selected('shot', clip.shotId)}
                  onClick={() => p.onSelect(sel)}
                  onKeyDown={(e) => p.onClipKey(e, sel)}
                >
                  {clip.label}
                </button>
                <button
                  type="button"
                  className="button button-small button-primary"
                  data-testid="timeline-generate"
                  disabled={p.busyGenerate(clip.shotId)}
                  onClick={() => p.onGenerate(clip.shotId)}
                >
                  {t('timeline.generate')}
                </button>
              </div>
            );
          const frames = clip.shot.frameUrls.length
            ? clip.shot.frameUrls
            : clip.shot.posterUrl
              ? [clip.shot.posterUrl]
              : [];
          const thumbs = Math.max(1, Math.min(frames.length, Math.floor(w / 72)));
          const dur = clip.shot.durationSeconds ?? clip.seconds;
          const pick = (i: number) => {
            const at = (clip.sourceIn + ((i + 0.5) / thumbs) * clip.seconds) / Math.max(dur, 1e-6);
            return frames[Math.min(frames.length - 1, Math.max(0, Math.floor(at * frames.length)))]!;
          };
          return (
            <div
              key={clip.shotId}
              className={`timeline-clip timeline-clip-shot${selected('shot', clip.shotId) ? ' is-selected' : ''}${moving ? ' is-dragging' : ''}`}
              style={style}
              data-testid="timeline-shot"
              data-shot-id={clip.shotId}
              data-start={clip.start}
              data-end={clip.end}
            >
              {clip.linkedToPrevious ? (
                <span className="timeline-link" title={t('timeline.linked')} aria-hidden="true" />
              ) : null}
              {clip.fadeIn > 0 ? (
                <span
                  className="timeline-fade"
                  style={{ width: `${clip.fadeIn * pps}px` }}
                  aria-hidden="true"
                />
              ) : null}
              <button
                type="button"
                className="timeline-clip-body"
                aria-label={clip.linkedToPrevious ? `${label} (${t('timeline.linked')})` : label}
                aria-pressed={selected('shot', clip.shotId)}
                title={`${clip.label} · ${clip.model}${clip.seed === null ? '' : ` · ${t('timeline.seed', { seed: clip.seed })}`}\n${promptExcerpt(clip.prompt, 200)}`}
                data-testid="timeline-shot-body"
                onPointerDown={(e) => begin(e, 'move', clip.shotId)}
                onPointerMove={moveDrag}
                onPointerUp={() => end(sel)}
                onPointerCancel={() => end(sel)}
                onKeyDown={(e) => p.onClipKey(e, sel)}
                onContextMenu={(e) => {
                  e.preventDefault();
                  p.onMenu(sel);
                }}
              >
                <span className="timeline-thumbs" aria-hidden="true">
                  {frames.length
                    ? Array.from({ length: thumbs }, (_, i) => (
                        <img key={i} src={pick(i)} alt="" loading="lazy" draggable={false} />
                      ))
                    : null}
                </span>
                <span className="timeline-clip-name">{clip.label}</span>
              </button>
              {clip.playable ? (
                <>
                  {edgeHandle(
                    'in',
                    'in',
                    sel,
                    t('timeline.trimIn', { label: clip.label }),
                    'timeline-edge-in',
                  )}
                  {edgeHandle(
                    'out',
                    'out',
                    sel,
                    t('timeline.trimOut', { label: clip.label }),
                    'timeline-edge-out',
                  )}
                </>
              ) : null}
            </div>
          );
        })}
        {dropAt !== null ? (
          <span className="timeline-drop" style={{ left: `${dropAt * pps}px` }} aria-hidden="true" />
        ) : null}
      </div>

      <div className="timeline-track timeline-track-music" role="group" aria-label={t('timeline.music')}>
        {shown.music.map((clip) => (
          <MusicClip
            key={clip.id}
            clip={clip}
            timeline={shown}
            pps={pps}
            selected={selected('music', clip.id)}
            onSelect={p.onSelect}
          />
        ))}
        {duckSpans(shown.voices).map((span) =>
          shown.music.length && shown.duckDb > 0 ? (
            <span
              key={`duck-${span.start}`}
              className="timeline-duck"
              style={{ left: `${span.start * pps}px`, width: `${(span.end - span.start) * pps}px` }}
              aria-hidden="true"
            />
          ) : null,
        )}
      </div>

      <div className="timeline-track timeline-track-voice" role="group" aria-label={t('timeline.voice')}>
        {shown.voices.map((clip) => {
          const dx = drag?.kind === 'voice' && drag.id === clip.id ? drag.dx : 0;
          const sel = { kind: 'voice' as const, id: clip.id };
          const w = Math.max(2, (clip.end - clip.start) * pps);
          return (
            <button
              type="button"
              key={clip.id}
              className={`timeline-clip timeline-clip-voice${selected('voice', clip.id) ? ' is-selected' : ''}`}
              style={{
                left: `${clip.start * pps}px`,
                width: `${w}px`,
                transform: dx ? `translateX(${dx}px)` : undefined,
              }}
              aria-label={t('timeline.voiceClip', {
                text: promptExcerpt(clip.label, 60),
                from: timecode(clip.start),
                to: timecode(clip.end),
                gain: clip.gainDb,
              })}
              aria-pressed={selected('voice', clip.id)}
              data-testid="timeline-voice"
              data-line-id={clip.id}
              data-start={clip.start}
              onPointerDown={(e) => begin(e, 'voice', clip.id)}
              onPointerMove={moveDrag}
              onPointerUp={() => end(sel)}
              onPointerCancel={() => end(sel)}
              onKeyDown={(e) => p.onClipKey(e, sel)}
              onContextMenu={(e) => {
                e.preventDefault();
                p.onMenu(sel);
              }}
            >
              <SoundWave url={clip.mediaUrl} width={w} height={26} />
              <span className="timeline-clip-name">{clip.label}</span>
            </button>
          );
        })}
      </div>

      <div
        className="timeline-track timeline-track-captions"
        role="group"
        aria-label={t('timeline.captions')}
      >
        {shown.captions.map((cue) => {
          const sel = { kind: 'caption' as const, id: String(cue.index) };
          const dragging =
            drag && (drag.kind === 'cue-start' || drag.kind === 'cue-end') && drag.id === sel.id;
          const range = dragging
            ? captionEdge(
                cue,
                drag.kind === 'cue-start' ? 'start' : 'end',
                (drag.kind === 'cue-start' ? cue.start : cue.end) + pxToSeconds(drag.dx, pps),
              )
            : { startSeconds: cue.start, endSeconds: cue.end };
          const editable = cue.lineId !== null && cue.cueIndex !== null;
          return (
            <div
              key={`${cue.index}-${cue.start}`}
              className={`timeline-clip timeline-clip-caption${selected('caption', sel.id) ? ' is-selected' : ''}`}
              style={{
                left: `${range.startSeconds * pps}px`,
                width: `${Math.max(2, (range.endSeconds - range.startSeconds) * pps)}px`,
              }}
              data-testid="timeline-caption"
              data-start={cue.start}
              data-end={cue.end}
            >
              <button
                type="button"
                className="timeline-clip-body"
                aria-label={t('timeline.captionClip', {
                  text: promptExcerpt(cue.text, 60),
                  from: timecode(cue.start),
                  to: timecode(cue.end),
                })}
                aria-pressed={selected('caption', sel.id)}
                onClick={() => p.onSelect(sel)}
                onKeyDown={(e) => p.onClipKey(e, sel)}
              >
                <span className="timeline-clip-name">{cue.text}</span>
              </button>
              {editable ? (
                <>
                  {edgeHandle('in', 'cue-start', sel, t('timeline.captionStart'), 'timeline-caption-start')}
                  {edgeHandle('out', 'cue-end', sel, t('timeline.captionEnd'), 'timeline-caption-end')}
                </>
              ) : null}
            </div>
          );
        })}
      </div>

      <span
        className="timeline-playhead"
        style={{ transform: `translateX(${p.playhead * pps}px)` }}
        data-testid="timeline-playhead"
        data-seconds={p.playhead}
        aria-hidden="true"
      />
    </div>
  );
});

function MusicClip({
  clip,
  timeline,
  pps,
  selected,
  onSelect,
}: {
  clip: SoundClip;
  timeline: Timeline;
  pps: number;
  selected: boolean;
  onSelect(selection: Selection): void;
}) {
  const { t } = useTranslation();
  const w = Math.max(2, (clip.end - clip.start) * pps);
  return (
    <button
      type="button"
      className={`timeline-clip timeline-clip-music${selected ? ' is-selected' : ''}`}
      style={{ left: `${clip.start * pps}px`, width: `${w}px` }}
      aria-label={t('timeline.musicClip', {
        name: clip.label,
        from: timecode(clip.start),
        to: timecode(clip.end),
        gain: timeline.musicGainDb,
        duck: timeline.duckDb,
      })}
      aria-pressed={selected}
      data-testid="timeline-music"
      onClick={() => onSelect({ kind: 'music', id: clip.id })}
    >
      <SoundWave url={clip.mediaUrl} width={w} height={26} seconds={clip.end - clip.start} />
    </button>
  );
}
