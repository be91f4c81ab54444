import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobNoteView, NoteRect } from '../../../../../shared/bridge/contract';
import type { LoopRange, NoteDraft } from '../../../store/review-store';
import { formatClock, frameAt } from '../compare/frame-step';
import { atNoteFrame, containedBox, rectFromDrag, type Box } from './note-geometry';
import type { ReviewPlayback } from './use-review-player';

type Kind = 'video' | 'image' | 'audio';
export const kindOf = (mimeType: string | null | undefined): Kind =>
  mimeType?.startsWith('image/') ? 'image' : mimeType?.startsWith('audio/') ? 'audio' : 'video';

export interface ReviewPlayerProps {
  url: string;
  mimeType: string | null;
  playback: ReviewPlayback;
  notes: readonly JobNoteView[];
  /** The note being written on this take (its rectangle is drawn). */
  draft: NoteDraft | null;
  loop?: LoopRange;
  /** A rectangle dragged on the paused frame (pixels become fractions of the frame). */
  onDrawRect(rect: NoteRect): void;
  testId: string;
}

const percent = (n: number) => `${(n * 100).toFixed(3)}%`;

function RectBox({ rect, className, label }: { rect: NoteRect; className: string; label: string }) {
  return (
    <div
      className={`note-rect ${className}`}
      role="img"
      aria-label={label}
      data-testid={className}
      style={{
        left: percent(rect.x),
        top: percent(rect.y),
        width: percent(rect.width),
        height: percent(rect.height),
      }}
    />
  );
}

/**
 * A take's picture with its notes: the media (no native controls), the rectangles of the notes
 * at the frame shown and of the note being written, a rectangle drawn by dragging on the paused
 * frame, and the transport — play/pause, a frame back and on, the scrub bar with a marker at each
 * note (a marker jumps to its frame) and the loop's range.
 */
export function ReviewPlayer({
  url,
  mimeType,
  playback,
  notes,
  draft,
  loop,
  onDrawRect,
  testId,
}: ReviewPlayerProps) {
  const { t } = useTranslation();
  const kind = kindOf(mimeType);
  const stage = useRef<HTMLDivElement | null>(null);
  const media = useRef<HTMLVideoElement | HTMLImageElement | null>(null);
  const [frame, setFrame] = useState<Box | null>(null);
  const [drag, setDrag] = useState<{ from: { x: number; y: number }; to: { x: number; y: number } } | null>(
    null,
  );

  // the frame's box inside the stage, kept as the window or the take changes size
  useEffect(() => {
    const box = stage.current;
    if (!box || kind === 'audio') return;
    const measure = () => {
      const el = media.current;
      const natural =
        el instanceof HTMLVideoElement
          ? { w: el.videoWidth, h: el.videoHeight }
          : el instanceof HTMLImageElement
            ? { w: el.naturalWidth, h: el.naturalHeight }
            : { w: 0, h: 0 };
      if (!el || !natural.w) return setFrame(null);
      const inner = containedBox(el.clientWidth, el.clientHeight, natural.w, natural.h);
      setFrame({ ...inner, left: inner.left + el.offsetLeft, top: inner.top + el.offsetTop });
    };
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(box);
    const el = media.current;
    el?.addEventListener('loadedmetadata', measure);
    el?.addEventListener('load', measure);
    return () => {
      observer?.disconnect();
      el?.removeEventListener('loadedmetadata', measure);
      el?.removeEventListener('load', measure);
    };
  }, [kind, url]);

  const time = kind === 'image' ? 0 : playback.time;
  const shownNotes = notes.filter((n) => n.rect && atNoteFrame(time, n.atSeconds, playback.fps));
  const canDraw = kind !== 'audio' && !playback.playing && frame !== null;
  const at = (e: PointerEvent<HTMLElement>) => {
    const box = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };
  const dragged = drag && frame ? rectFromDrag(drag.from, drag.to, frame) : null;
  // one callback for the element's life (a new one each render would unbind and bind it each time)
  const bind = playback.ref;
  const mediaRef = useCallback(
    (el: HTMLVideoElement | HTMLAudioElement | HTMLImageElement | null) => {
      media.current = el instanceof HTMLAudioElement ? null : el;
      bind(el instanceof HTMLImageElement ? null : el);
    },
    [bind],
  );
  const duration = playback.duration;

  return (
    <div className="review-player">
      <div className="review-stage" ref={stage} data-testid={`${testId}-stage`}>
        {kind === 'image' ? (
          <img ref={mediaRef} className="review-media" src={url} alt="" data-testid={testId} />
        ) : kind === 'audio' ? (
          <audio ref={mediaRef} src={url} preload="auto" data-testid={testId} />
        ) : (
          <video
            ref={mediaRef}
            className="review-media"
            src={url}
            preload="auto"
            playsInline
            data-testid={testId}
          />
        )}
        {frame ? (
          <div
            className={`review-frame${canDraw ? ' review-frame-drawable' : ''}`}
            data-testid={`${testId}-frame`}
            style={{ left: frame.left, top: frame.top, width: frame.width, height: frame.height }}
            onPointerDown={(e) => {
              if (!canDraw || e.button !== 0) return;
              e.currentTarget.setPointerCapture(e.pointerId);
              const point = at(e);
              setDrag({ from: point, to: point });
            }}
            onPointerMove={(e) => drag && setDrag({ ...drag, to: at(e) })}
            onPointerUp={(e) => {
              if (!drag) return;
              const rect = rectFromDrag(drag.from, at(e), frame);
              setDrag(null);
              if (rect) onDrawRect(rect);
            }}
            onPointerCancel={() => setDrag(null)}
          >
            {shownNotes.map((n) => (
              <RectBox
                key={n.id}
                rect={n.rect!}
                className="note-rect-shown"
                label={t('review.notes.rectOf', { time: formatClock(n.atSeconds), text: n.text })}
              />
            ))}
            {dragged ? (
              <RectBox rect={dragged} className="note-rect-drawing" label={t('review.notes.drawing')} />
            ) : draft?.rect ? (
              <RectBox rect={draft.rect} className="note-rect-draft" label={t('review.notes.draftRect')} />
            ) : null}
          </div>
        ) : null}
      </div>
      {kind === 'image' ? null : (
        <div className="review-transport">
          <button
            type="button"
            className="button"
            data-testid={`${testId}-play`}
            aria-keyshortcuts="Space"
            onClick={playback.toggle}
          >
            {playback.playing ? t('review.player.pause') : t('review.player.play')}
          </button>
          {kind === 'video' ? (
            <>
              <button
                type="button"
                className="button button-secondary"
                aria-label={t('review.player.stepBack')}
                aria-keyshortcuts=","
                data-testid={`${testId}-step-back`}
                onClick={() => playback.step(-1)}
              >
                <span aria-hidden="true">◀|</span>
              </button>
              <button
                type="button"
                className="button button-secondary"
                aria-label={t('review.player.stepForward')}
                aria-keyshortcuts="."
                data-testid={`${testId}-step-forward`}
                onClick={() => playback.step(1)}
              >
                <span aria-hidden="true">|▶</span>
              </button>
            </>
          ) : null}
          <div className="review-scrub">
            <input
              type="range"
              className="review-seek"
              min={0}
              max={duration || 0}
              step={1 / playback.fps}
              value={Math.min(playback.time, duration || 0)}
              aria-label={t('review.player.seek')}
              aria-valuetext={formatClock(playback.time)}
              data-testid={`${testId}-seek`}
              onChange={(e) => playback.seek(Number(e.target.value))}
            />
            {duration > 0 && loop && loop.a !== null ? (
              <div
                className="review-loop-band"
                aria-hidden="true"
                data-testid={`${testId}-loop`}
                style={{
                  left: percent(Math.min(1, loop.a / duration)),
                  width: percent(Math.max(0, Math.min(1, (loop.b ?? loop.a) / duration) - loop.a / duration)),
                }}
              />
            ) : null}
            <ol className="review-markers" aria-label={t('review.notes.markers')}>
              {duration > 0
                ? notes.map((n) => (
                    <li key={n.id} style={{ left: percent(Math.min(1, n.atSeconds / duration)) }}>
                      <button
                        type="button"
                        className="review-marker"
                        data-testid="note-marker"
                        data-seconds={n.atSeconds}
                        aria-label={t('review.notes.marker', {
                          time: formatClock(n.atSeconds),
                          text: n.text,
                        })}
                        title={`${formatClock(n.atSeconds)} ${n.text}`}
                        onClick={() => {
                          playback.pause();
                          playback.seek(n.atSeconds);
                        }}
                      />
                    </li>
                  ))
                : null}
            </ol>
          </div>
          <output
            className="small review-time"
            data-testid={`${testId}-time`}
            data-seconds={playback.time}
            data-frame={frameAt(playback.time, playback.fps)}
          >
            {kind === 'video'
              ? t('review.player.time', {
                  clock: formatClock(playback.time),
                  frame: frameAt(playback.time, playback.fps),
                })
              : formatClock(playback.time)}
          </output>
        </div>
      )}
    </div>
  );
}
