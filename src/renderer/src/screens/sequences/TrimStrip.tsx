import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { SequenceShotView } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { saveTrim } from '../../store/trim-shot-action';
import {
  boundaryAt,
  initialRange,
  rangeSeconds,
  trimKey,
  withIn,
  withOut,
  type FrameRange,
} from './trim-model';
import './trim-i18n';
import { sharedHistory } from './timeline/timeline-history';

const fixed = (seconds: number) => String(Number(seconds.toFixed(3)));

/**
 * One handle of the strip: a slider over the frame boundaries (arrows move it by one frame, Home
 * and End to the ends), dragged with the pointer along the strip.
 */
function Handle({
  which,
  frame,
  frameCount,
  fps,
  index,
  onMove,
  stripRef,
}: {
  which: 'in' | 'out';
  frame: number;
  frameCount: number;
  fps: number;
  index: number;
  onMove(frame: number): void;
  stripRef: React.RefObject<HTMLDivElement | null>;
}) {
  const { t } = useTranslation();
  const dragTo = (e: PointerEvent<HTMLDivElement>) => {
    const rect = stripRef.current?.getBoundingClientRect();
    if (!rect || rect.width === 0) return;
    onMove(boundaryAt((e.clientX - rect.left) / rect.width, frameCount));
  };
  return (
    <div
      role="slider"
      tabIndex={0}
      className={`trim-handle trim-handle-${which}`}
      style={{ left: `${(frame / frameCount) * 100}%` }}
      aria-label={t(which === 'in' ? 'trim.inHandle' : 'trim.outHandle')}
      aria-valuemin={0}
      aria-valuemax={frameCount}
      aria-valuenow={frame}
      aria-valuetext={t('trim.at', { seconds: fixed(frame / fps), frame })}
      data-testid={`sequence-trim-${which}-${index}`}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        e.preventDefault();
        e.currentTarget.focus();
      }}
      onPointerMove={(e) => {
        if (e.currentTarget.hasPointerCapture(e.pointerId)) dragTo(e);
      }}
      onKeyDown={(e) => {
        const step = { ArrowLeft: -1, ArrowDown: -1, ArrowRight: 1, ArrowUp: 1 }[e.key];
        const to =
          step !== undefined ? frame + step : e.key === 'Home' ? 0 : e.key === 'End' ? frameCount : undefined;
        if (to === undefined) return;
        e.preventDefault();
        e.stopPropagation();
        onMove(to);
      }}
    />
  );
}

/** The card's Trim button, and what the shot keeps when it is trimmed. */
export function TrimButton({
  shot,
  index,
  open,
  ready,
  onToggle,
}: {
  shot: SequenceShotView;
  index: number;
  open: boolean;
  ready: boolean;
  onToggle(): void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid={`sequence-shot-trim-${index}`}
        aria-expanded={open}
        disabled={!ready || shot.frameCount === null}
        title={ready ? undefined : t('studio.sequences.needsResult')}
        onClick={onToggle}
      >
        {t('trim.open')}
      </button>
      {shot.trim ? (
        <span className="badge small" data-testid={`sequence-shot-trim-badge-${index}`}>
          {t('trim.badge', { from: fixed(shot.trim.inSeconds), to: fixed(shot.trim.outSeconds) })}
        </span>
      ) : null}
    </>
  );
}

/**
 * Trim a shot (issue 31): its result's frames as a strip with an in and an out handle, a playhead
 * with a preview of its exact frame, and the keys I / O (set in / out at the playhead) and ← / →
 * (move the playhead by one frame). Save sends the range to the core, which snaps it to the
 * result's frames again and checks it; the result's file is never changed.
 */
export function TrimStrip({
  shot,
  index,
  onDone,
}: {
  shot: SequenceShotView;
  index: number;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const busy = useStudio((s) => s.sequenceBusy.includes(`trim:${shot.shotId}`));
  const fps = shot.frameRate ?? 24;
  const frameCount = Math.max(1, shot.frameCount ?? 1);
  const [range, setRange] = useState<FrameRange>(() => initialRange(shot));
  const [playhead, setPlayhead] = useState(range.inFrame);
  const strip = useRef<HTMLDivElement>(null);
  const video = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    // the middle of the frame: never the boundary a decoder may round to the frame before
    if (video.current) video.current.currentTime = (playhead + 0.5) / fps;
  }, [playhead, fps]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const next = trimKey(e.key, { range, playhead, frameCount });
    if (!next) return;
    e.preventDefault();
    setRange(next.range);
    setPlayhead(next.playhead);
  };
  const kept = range.outFrame - range.inFrame;
  const title = t('trim.title', { label: shot.label });

  /** Saves (or clears) the trim, recorded for Ctrl/⌘+Z like the timeline's trims. */
  const save = async (after: { inSeconds: number; outSeconds: number } | null) => {
    const before = shot.trim ? { inSeconds: shot.trim.inSeconds, outSeconds: shot.trim.outSeconds } : null;
    if (!(await saveTrim(shot.shotId, after))) return;
    const sequenceId = useStudio.getState().openSequenceId;
    if (sequenceId)
      sharedHistory(sequenceId).record({
        kind: 'trim',
        shotId: shot.shotId,
        label: shot.label,
        before,
        after,
      });
    onDone();
  };
  return (
    <div
      className="shot-menu trim-panel"
      role="group"
      aria-label={title}
      aria-keyshortcuts="I O ArrowLeft ArrowRight"
      data-testid={`sequence-trim-panel-${index}`}
      onKeyDown={onKeyDown}
    >
      <strong className="small">{title}</strong>
      {shot.mediaUrl ? (
        <video
          ref={video}
          className="trim-preview"
          src={shot.mediaUrl}
          muted
          preload="auto"
          playsInline
          aria-label={t('trim.preview')}
          onLoadedMetadata={(e) => {
            e.currentTarget.currentTime = (playhead + 0.5) / fps;
          }}
          data-testid={`sequence-trim-preview-${index}`}
        />
      ) : null}
      <div className="trim-strip" ref={strip} data-testid={`sequence-trim-strip-${index}`}>
        <div className="trim-frames" aria-hidden="true">
          {shot.frameUrls.map((url) => (
            <img key={url} src={url} alt="" draggable={false} />
          ))}
        </div>
        <div
          className="trim-cut"
          aria-hidden="true"
          style={{ left: 0, width: `${(range.inFrame / frameCount) * 100}%` }}
        />
        <div
          className="trim-cut"
          aria-hidden="true"
          style={{ left: `${(range.outFrame / frameCount) * 100}%`, right: 0 }}
        />
        <div
          className="trim-playhead"
          aria-hidden="true"
          style={{ left: `${((playhead + 0.5) / frameCount) * 100}%` }}
        />
        <Handle
          which="in"
          frame={range.inFrame}
          frameCount={frameCount}
          fps={fps}
          index={index}
          stripRef={strip}
          onMove={(frame) => {
            // the preview follows the handle: the first frame kept
            const next = withIn(range, frame);
            setRange(next);
            setPlayhead(next.inFrame);
          }}
        />
        <Handle
          which="out"
          frame={range.outFrame}
          frameCount={frameCount}
          fps={fps}
          index={index}
          stripRef={strip}
          onMove={(frame) => {
            // the preview follows the handle: the last frame kept
            const next = withOut(range, frame, frameCount);
            setRange(next);
            setPlayhead(next.outFrame - 1);
          }}
        />
      </div>
      <label className="field-label small" htmlFor={`trim-playhead-${shot.shotId}`}>
        {t('trim.playhead')}
      </label>
      <input
        id={`trim-playhead-${shot.shotId}`}
        type="range"
        className="trim-playhead-input"
        min={0}
        max={frameCount - 1}
        step={1}
        value={playhead}
        aria-valuetext={t('trim.at', { seconds: fixed(playhead / fps), frame: playhead })}
        data-testid={`sequence-trim-playhead-${index}`}
        onChange={(e) => setPlayhead(Number(e.target.value))}
        onKeyDown={(e) => {
          // ←/→ are the range input's own one-frame steps; I and O reach the group
          if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') e.stopPropagation();
        }}
      />
      <p className="muted small">{t('trim.keys')}</p>
      <p
        className="small"
        aria-live="polite"
        data-testid={`sequence-trim-kept-${index}`}
        data-in-frame={range.inFrame}
        data-out-frame={range.outFrame}
      >
        {t('trim.kept', {
          seconds: fixed(kept / fps),
          total: fixed(frameCount / fps),
          frames: kept,
        })}
      </p>
      <div className="row">
        <button
          type="button"
          className="button button-small"
          data-testid={`sequence-trim-save-${index}`}
          disabled={busy}
          onClick={() => void save(rangeSeconds(range, fps))}
        >
          {t('trim.save')}
        </button>
        {shot.trim ? (
          <button
            type="button"
            className="button button-small button-secondary"
            data-testid={`sequence-trim-clear-${index}`}
            disabled={busy}
            onClick={() => void save(null)}
          >
            {t('trim.clear')}
          </button>
        ) : null}
        <button type="button" className="button button-small button-secondary" onClick={onDone}>
          {t('trim.cancel')}
        </button>
      </div>
    </div>
  );
}
