import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { SequenceView } from '../../../../../shared/bridge/contract';
import { useStudio } from '../../../store';
import { useSoundtrack } from '../../../store/soundtrack-actions';
import { restoreShot, saveTrim } from '../../../store/trim-shot-action';
import { hasVerifiedResult, promptExcerpt } from '../sequence-model';
import { CutPlayer } from './cut-player';
import { shuttleRate, type ShuttleKey } from './shuttle';
import { sharedHistory, type History, type TimelineEdit } from './timeline-history';
import './timeline-i18n';
import {
  buildTimeline,
  captionEdge,
  fitZoom,
  stepFrames,
  timecode,
  trimAtPlayhead,
  trimRequest,
  zoomIn,
  zoomOut,
  type PictureClip,
} from './timeline-model';
import { TimelineTracks, type DragEdit, type Selection } from './TimelineTracks';
import './timeline.css';

const isTyping = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The open sequence on a timeline (issue 40): a viewer playing the cut as edited over the tracks,
 * the selected clip's inspector beside it. Every gesture is an edit applied through the bridge
 * (journaled, as the forms' are) and recorded in the sequence's undo history.
 */
export function TimelinePanel({ sequence }: { sequence: SequenceView }) {
  const { t } = useTranslation();
  const crossfade = useStudio((s) => s.sequenceCrossfade);
  const moveShot = useStudio((s) => s.moveShot);
  const removeShot = useStudio((s) => s.removeShot);
  const continueShot = useStudio((s) => s.continueShot);
  const bridgeShots = useStudio((s) => s.bridgeShots);
  const generateShots = useStudio((s) => s.generateShots);
  const busy = useStudio((s) => s.sequenceBusy);
  const soundtrack = useSoundtrack(sequence.sequenceId);
  const timeline = useMemo(
    () => buildTimeline(sequence, soundtrack.view, crossfade),
    [sequence, soundtrack.view, crossfade],
  );

  // --- the undo history (per sequence, kept in localStorage; the panel is keyed by the sequence)
  const [editor] = useState(() => sharedHistory(sequence.sequenceId));
  const [history, setHistory] = useState<History>(() => editor.state);
  useEffect(() => editor.subscribe(setHistory), [editor]);
  useEffect(() => {
    editor.connect({
      moveShot,
      removeShot,
      restoreShot,
      trimShot: saveTrim,
      updateVoice: soundtrack.actions.updateVoice,
      setLevels: soundtrack.actions.setLevels,
      updateCaption: soundtrack.actions.updateCaption,
    });
  }, [editor, moveShot, removeShot, soundtrack.actions]);

  // Ctrl/⌘+Z and Ctrl/⌘+Shift+Z also when nothing has the focus (a removed clip had it)
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.target !== document.body || !(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key !== 'z' && key !== 'y') return;
      e.preventDefault();
      void (key === 'y' || e.shiftKey ? editor.redo() : editor.undo());
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [editor]);

  // --- zoom, playhead, selection
  const scroller = useRef<HTMLDivElement>(null);
  const [viewWidth, setViewWidth] = useState(1200);
  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return undefined;
    // the fit: the scrolling area's width (the names' column beside it is not in it) less its
    // padding and the 2 px the tracks keep for the playhead at the end, so no scroll bar at the fit
    const measure = () => setViewWidth(el.clientWidth - 18);
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    measure();
    return () => observer.disconnect();
  }, []);
  const fit = fitZoom(timeline.totalSeconds, viewWidth);
  const [zoom, setZoom] = useState<number | null>(null);
  const pps = zoom ?? fit;
  const [playhead, setPlayheadState] = useState(0);
  /** The playhead as the last key press left it (several presses may come before a render). */
  const playheadNow = useRef(0);
  const setPlayhead = useCallback((seconds: number) => {
    playheadNow.current = seconds;
    setPlayheadState(seconds);
  }, []);
  /** The rate the viewer plays at: 0 stopped, 1 playing, else shuttling (J/K/L; negative: backwards). */
  const [rate, setRate] = useState(0);
  const playing = rate !== 0;
  const [selection, setSelection] = useState<Selection>(null);
  const [confirmRemove, setConfirmRemove] = useState<Selection>(null);
  const [showKeys, setShowKeys] = useState(false);
  const inspector = useRef<HTMLDivElement>(null);

  // --- the viewer
  const videoA = useRef<HTMLVideoElement>(null);
  const videoB = useRef<HTMLVideoElement>(null);
  const player = useRef<CutPlayer | null>(null);
  /** The time whose frame the viewer shows once its elements have seeked (null while seeking or playing). */
  const [shown, setShown] = useState<number | null>(null);
  const showFrame = useCallback((seconds: number) => {
    setShown(null);
    void player.current?.show(seconds).then(() => {
      if (playheadNow.current === seconds && !player.current?.isPlaying) setShown(seconds);
    });
  }, []);
  useEffect(() => {
    if (!videoA.current || !videoB.current) return undefined;
    const p = new CutPlayer(
      [videoA.current, videoB.current],
      (s) => setPlayhead(s),
      (s) => {
        // at the film's end, or its start going backwards: that very frame shown
        setRate(0);
        setPlayhead(s);
        showFrame(s);
      },
    );
    player.current = p;
    return () => p.dispose();
  }, [setPlayhead, showFrame]);
  useEffect(() => {
    player.current?.setTimeline(timeline);
    if (!player.current?.isPlaying) showFrame(playheadNow.current);
    // the frame is shown again when the cut changes; the playhead's own moves below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [timeline]);
  const seek = useCallback(
    (seconds: number) => {
      const s = Math.min(Math.max(0, seconds), Math.max(0, timeline.totalSeconds - 1 / timeline.fps));
      setPlayhead(s);
      if (player.current?.isPlaying) player.current.play(s, player.current.rate);
      else showFrame(s);
    },
    [timeline, setPlayhead, showFrame],
  );
  /** Stops where it is, that very frame shown. */
  const stop = () => {
    const p = player.current;
    if (!p?.isPlaying) return;
    const at = p.pause();
    setPlayhead(at);
    setRate(0);
    showFrame(at);
  };
  /** Plays at `next` (0 stops) from where the playhead is. */
  const playAt = (next: number) => {
    const p = player.current;
    if (!p) return;
    if (next === 0) return stop();
    const from = p.isPlaying ? p.pause() : playheadNow.current;
    p.play(from, next);
    setRate(p.rate);
    // playing, the viewer shows no one time; backwards from the start has nowhere to go
    if (p.isPlaying) setShown(null);
    else {
      setPlayhead(from);
      showFrame(from);
    }
  };
  const togglePlay = () => (player.current?.isPlaying ? stop() : playAt(1));
  const shuttle = (key: ShuttleKey) => playAt(shuttleRate(player.current?.rate ?? 0, key));
  // zooming keeps the playhead where it is on screen (the view's middle when it is out of view)
  const lastZoom = useRef({ pps, playhead: 0 });
  useLayoutEffect(() => {
    const el = scroller.current;
    const before = lastZoom.current;
    lastZoom.current = { pps, playhead };
    if (!el || before.pps === pps) return;
    const x = before.playhead * before.pps - el.scrollLeft;
    const anchor =
      x >= 0 && x <= el.clientWidth ? before.playhead : (el.scrollLeft + el.clientWidth / 2) / before.pps;
    const onScreen = anchor * before.pps - el.scrollLeft;
    el.scrollLeft = Math.max(0, anchor * pps - onScreen);
  }, [pps, playhead]);

  // the playhead stays in view while playing
  useEffect(() => {
    const el = scroller.current;
    if (!el || !playing) return;
    const x = playhead * pps;
    if (x < el.scrollLeft || x > el.scrollLeft + el.clientWidth - 40) el.scrollLeft = Math.max(0, x - 40);
  }, [playhead, playing, pps]);

  // --- edits
  const apply = (edit: TimelineEdit) => void editor.edit(edit);
  const trimEdit = (clip: PictureClip, range: { inFrame: number; outFrame: number }) => {
    const before = clip.shot.trim
      ? { inSeconds: clip.shot.trim.inSeconds, outSeconds: clip.shot.trim.outSeconds }
      : null;
    const after = trimRequest(clip, range);
    if (JSON.stringify(before) === JSON.stringify(after)) return;
    apply({ kind: 'trim', shotId: clip.shotId, label: clip.label, before, after });
  };
  const onDragEdit = (edit: DragEdit) => {
    if (edit.kind === 'move') {
      const clip = timeline.picture.find((c) => c.shotId === edit.shotId);
      if (clip)
        apply({ kind: 'move', shotId: clip.shotId, label: clip.label, from: clip.index, to: edit.to });
    } else if (edit.kind === 'trim') trimEdit(edit.clip, edit.range);
    else if (edit.kind === 'caption') {
      const { block, range } = edit;
      if (block.lineId === null || block.cueIndex === null) return;
      if (range.startSeconds === block.start && range.endSeconds === block.end) return;
      apply({
        kind: 'caption',
        lineId: block.lineId,
        cueIndex: block.cueIndex,
        label: block.text,
        before: { startSeconds: block.start, endSeconds: block.end },
        after: range,
      });
    } else {
      const voice = timeline.voices.find((v) => v.id === edit.lineId);
      if (voice && voice.start !== edit.atSeconds)
        apply({
          kind: 'voice-time',
          lineId: voice.id,
          label: voice.label,
          before: voice.start,
          after: edit.atSeconds,
        });
    }
  };
  const describe = (edit: TimelineEdit | undefined) => {
    if (!edit) return '';
    switch (edit.kind) {
      case 'move':
        return t('timeline.edit.move', { label: edit.label });
      case 'shot-presence':
        return t(edit.present ? 'timeline.edit.restore' : 'timeline.edit.remove', { label: edit.label });
      case 'trim':
        return t('timeline.edit.trim', { label: edit.label });
      case 'voice-time':
        return t('timeline.edit.voiceTime', { label: promptExcerpt(edit.label, 30) });
      case 'voice-gain':
        return t('timeline.edit.voiceGain', { label: promptExcerpt(edit.label, 30) });
      case 'caption':
        return t('timeline.edit.caption', { label: promptExcerpt(edit.label, 30) });
      case 'levels':
        return t('timeline.edit.levels');
    }
  };
  const lastDone = history.done[history.done.length - 1];
  const lastUndone = history.undone[history.undone.length - 1];

  const selectedShot =
    selection?.kind === 'shot' ? timeline.picture.find((c) => c.shotId === selection.id) : undefined;
  const selectedVoice =
    selection?.kind === 'voice' ? timeline.voices.find((v) => v.id === selection.id) : undefined;
  const selectedCaption = selection?.kind === 'caption' ? timeline.captions[Number(selection.id)] : undefined;

  /** A shot is removed at once (undo puts it back); a voice line only once confirmed (its file goes). */
  const remove = (target: Selection) => {
    setConfirmRemove(null);
    if (target?.kind === 'shot') {
      const clip = timeline.picture.find((c) => c.shotId === target.id);
      if (clip)
        void editor
          .edit({ kind: 'shot-presence', shotId: clip.shotId, label: clip.label, present: false })
          .then((done) => {
            if (!done) return;
            setSelection(null);
            // the removed clip had the focus: the tracks keep it (their keys, undo among them)
            scroller.current?.focus();
          });
    }
    if (target?.kind === 'voice')
      void soundtrack.actions.removeVoice(target.id).then((done) => done && setSelection(null));
  };

  const onClipKey = (e: KeyboardEvent, sel: NonNullable<Selection>) => {
    const dir = e.key === 'ArrowLeft' ? -1 : e.key === 'ArrowRight' ? 1 : 0;
    if (!dir || !(e.altKey || e.shiftKey)) return;
    e.preventDefault();
    e.stopPropagation();
    if (sel.kind === 'shot') {
      const clip = timeline.picture.find((c) => c.shotId === sel.id);
      if (!clip) return;
      if (e.altKey) {
        const to = clip.index + dir;
        if (to >= 0 && to < timeline.picture.length)
          apply({ kind: 'move', shotId: clip.shotId, label: clip.label, from: clip.index, to });
      } else if (clip.shot.frameRate && clip.shot.frameCount) {
        const range = {
          inFrame: clip.shot.trim?.inFrame ?? 0,
          outFrame: Math.min(
            clip.shot.frameCount,
            Math.max(
              (clip.shot.trim?.inFrame ?? 0) + 1,
              (clip.shot.trim?.outFrame ?? clip.shot.frameCount) + dir,
            ),
          ),
        };
        trimEdit(clip, range);
      }
    } else if (sel.kind === 'caption' && e.shiftKey) {
      const block = timeline.captions[Number(sel.id)];
      if (block?.lineId && block.cueIndex !== null) {
        const range = e.altKey
          ? captionEdge(block, 'start', block.start + dir / timeline.fps)
          : captionEdge(block, 'end', block.end + dir / timeline.fps);
        apply({
          kind: 'caption',
          lineId: block.lineId,
          cueIndex: block.cueIndex,
          label: block.text,
          before: { startSeconds: block.start, endSeconds: block.end },
          after: range,
        });
      }
    } else if (sel.kind === 'voice' && e.altKey) {
      const voice = timeline.voices.find((v) => v.id === sel.id);
      if (voice) {
        const after = Math.max(0, Math.round((voice.start + dir / timeline.fps) * 1000) / 1000);
        apply({ kind: 'voice-time', lineId: voice.id, label: voice.label, before: voice.start, after });
      }
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (isTyping(e.target)) return;
    const mod = e.ctrlKey || e.metaKey;
    const key = e.key;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    if (mod && (key === 'z' || key === 'Z')) {
      handled();
      void (e.shiftKey ? editor.redo() : editor.undo());
      return;
    }
    if (mod && (key === 'y' || key === 'Y')) {
      handled();
      void editor.redo();
      return;
    }
    if (mod || e.altKey) return;
    switch (key) {
      case ' ':
        handled();
        togglePlay();
        return;
      case 'j':
      case 'J':
      case 'k':
      case 'K':
      case 'l':
      case 'L':
        handled();
        shuttle(key.toLowerCase() as ShuttleKey);
        return;
      case 'ArrowLeft':
      case 'ArrowRight': {
        handled();
        const frames = (key === 'ArrowLeft' ? -1 : 1) * (e.shiftKey ? timeline.fps : 1);
        seek(stepFrames(playheadNow.current, frames, timeline.totalSeconds, timeline.fps));
        return;
      }
      case 'i':
      case 'I':
      case 'o':
      case 'O': {
        handled();
        const trim = trimAtPlayhead(timeline, playheadNow.current, key.toLowerCase() as 'i' | 'o');
        if (trim) trimEdit(trim.clip, trim.range);
        return;
      }
      case 'Delete':
      case 'Backspace':
        if (selection && selection.kind !== 'caption' && selection.kind !== 'music') {
          handled();
          if (selection.kind === 'shot') remove(selection);
          else setConfirmRemove(selection);
        }
        return;
      case '+':
      case '=':
        handled();
        setZoom(zoomIn(pps, fit, timeline.fps));
        return;
      case '-':
        handled();
        setZoom(zoomOut(pps, fit, timeline.fps));
        return;
      case '0':
        handled();
        setZoom(null);
        return;
      default:
    }
  };

  const caption = timeline.captions.find((c) => c.start <= playhead && playhead < c.end);
  const next = selectedShot ? timeline.picture[selectedShot.index + 1] : undefined;

  return (
    <section
      className="panel timeline"
      aria-labelledby="timeline-title"
      data-testid="timeline"
      onKeyDown={onKeyDown}
    >
      <h3 id="timeline-title" className="sr-only">
        {t('timeline.title')}
      </h3>
      <div className="timeline-top">
        <div
          className="timeline-viewer"
          role="img"
          aria-label={t('timeline.viewer', { time: timecode(playhead, timeline.fps) })}
          data-testid="timeline-viewer"
          data-shown={shown ?? ''}
        >
          <video ref={videoA} muted={false} playsInline preload="auto" data-testid="timeline-video" />
          <video ref={videoB} muted={false} playsInline preload="auto" data-testid="timeline-video" />
          {timeline.picture.length === 0 ? (
            <p className="timeline-empty muted">{t('timeline.noPicture')}</p>
          ) : null}
          {caption ? (
            <p className="timeline-caption-overlay" data-testid="timeline-caption-overlay">
              {caption.text}
            </p>
          ) : null}
        </div>
        <div
          className="timeline-inspector"
          ref={inspector}
          data-testid="timeline-inspector"
          aria-label={t('timeline.inspector')}
          role="region"
        >
          <h4>{t('timeline.inspector')}</h4>
          {selectedShot ? (
            <>
              <p>
                <strong>{selectedShot.label}</strong>{' '}
                <span className="muted small">
                  {t('timeline.times', {
                    from: timecode(selectedShot.start),
                    to: timecode(selectedShot.end),
                    length: `${Number(selectedShot.seconds.toFixed(2))} s`,
                  })}
                </span>
              </p>
              <p className="small">
                <span className="muted">{t('timeline.model')}:</span> {selectedShot.model}
              </p>
              <p className="small timeline-prompt">
                <span className="muted">{t('timeline.prompt')}:</span> {selectedShot.prompt}
              </p>
              <div className="row timeline-actions" role="group" aria-label={selectedShot.label}>
                {selectedShot.shot.state === 'draft' ? (
                  <button
                    type="button"
                    className="button button-small button-primary"
                    disabled={busy.includes(`generate:${selectedShot.shotId}`)}
                    onClick={() => void generateShots(selectedShot.shotId)}
                  >
                    {t('timeline.generate')}
                  </button>
                ) : null}
                {hasVerifiedResult(selectedShot.shot) ? (
                  <button
                    type="button"
                    className="button button-small"
                    data-testid="timeline-continue"
                    disabled={busy.includes(`continue:${selectedShot.shotId}`)}
                    onClick={() => void continueShot(selectedShot.shotId, 'i2v')}
                  >
                    {t('timeline.continueShot')}
                  </button>
                ) : null}
                {next && hasVerifiedResult(selectedShot.shot) && hasVerifiedResult(next.shot) ? (
                  <button
                    type="button"
                    className="button button-small"
                    data-testid="timeline-bridge"
                    disabled={busy.includes(`bridge:${selectedShot.shotId}`)}
                    onClick={() => void bridgeShots(selectedShot.shotId, next.shotId)}
                  >
                    {t('timeline.bridgeNext')}
                  </button>
                ) : null}
                <button
                  type="button"
                  className="button button-small"
                  data-testid="timeline-remove-shot"
                  onClick={() => remove({ kind: 'shot', id: selectedShot.shotId })}
                >
                  {t('timeline.remove')}
                </button>
              </div>
            </>
          ) : selectedVoice ? (
            <>
              <p>
                <strong>“{selectedVoice.label}”</strong>
              </p>
              <p className="small muted">
                {t('timeline.times', {
                  from: timecode(selectedVoice.start),
                  to: timecode(selectedVoice.end),
                  length: `${Number((selectedVoice.end - selectedVoice.start).toFixed(2))} s`,
                })}
              </p>
              <button
                type="button"
                className="button button-small"
                onClick={() => setConfirmRemove({ kind: 'voice', id: selectedVoice.id })}
              >
                {t('timeline.remove')}
              </button>
            </>
          ) : selectedCaption ? (
            <>
              <p>“{selectedCaption.text}”</p>
              <p className="small muted">
                {t('timeline.times', {
                  from: timecode(selectedCaption.start),
                  to: timecode(selectedCaption.end),
                  length: `${Number((selectedCaption.end - selectedCaption.start).toFixed(2))} s`,
                })}
              </p>
              <p className="small muted">{t('timeline.captionsFollow')}</p>
            </>
          ) : (
            <p className="muted small">{t('timeline.nothingSelected')}</p>
          )}
          {confirmRemove ? (
            <div className="row timeline-confirm" role="alert">
              <span>
                {t('timeline.removeConfirm', {
                  label: `“${promptExcerpt(timeline.voices.find((v) => v.id === confirmRemove.id)?.label ?? '', 30)}”`,
                })}
              </span>
              <button
                type="button"
                className="button button-small button-danger"
                data-testid="timeline-remove-confirm"
                onClick={() => remove(confirmRemove)}
              >
                {t('timeline.confirm')}
              </button>
              <button
                type="button"
                className="button button-small button-secondary"
                onClick={() => setConfirmRemove(null)}
              >
                {t('timeline.cancel')}
              </button>
            </div>
          ) : null}
          {soundtrack.error ? (
            <p role="alert" className="error-text small">
              {soundtrack.error}
            </p>
          ) : null}
        </div>
      </div>

      <div className="row timeline-toolbar" role="toolbar" aria-label={t('timeline.title')}>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-play"
          onClick={togglePlay}
        >
          {playing ? t('timeline.pause') : t('timeline.play')}
        </button>
        <span className="timeline-time" data-testid="timeline-time" aria-live="off">
          {timecode(playhead, timeline.fps)} / {timecode(timeline.totalSeconds, timeline.fps)}
        </span>
        <span className="timeline-rate" role="status" data-testid="timeline-rate" data-rate={rate}>
          {rate !== 0 && rate !== 1
            ? t(rate < 0 ? 'timeline.backwards' : 'timeline.forwards', { speed: Math.abs(rate) })
            : ''}
        </span>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-zoom-out"
          onClick={() => setZoom(zoomOut(pps, fit, timeline.fps))}
        >
          {t('timeline.zoomOut')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-zoom-fit"
          onClick={() => setZoom(null)}
        >
          {t('timeline.fit')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-zoom-in"
          onClick={() => setZoom(zoomIn(pps, fit, timeline.fps))}
        >
          {t('timeline.zoomIn')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-undo"
          disabled={!lastDone}
          title={lastDone ? t('timeline.undoWhat', { what: describe(lastDone) }) : undefined}
          onClick={() => void editor.undo()}
        >
          {t('timeline.undo')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid="timeline-redo"
          disabled={!lastUndone}
          title={lastUndone ? t('timeline.redoWhat', { what: describe(lastUndone) }) : undefined}
          onClick={() => void editor.redo()}
        >
          {t('timeline.redo')}
        </button>
        <button
          type="button"
          className="button button-small button-secondary"
          aria-expanded={showKeys}
          aria-controls="timeline-keys"
          data-testid="timeline-shortcuts"
          onClick={() => setShowKeys((v) => !v)}
        >
          {t('timeline.shortcuts')}
        </button>
      </div>
      {showKeys ? (
        <ul id="timeline-keys" className="timeline-keys small" data-testid="timeline-keys">
          {(['space', 'jkl', 'frame', 'io', 'delete', 'undo', 'clip', 'zoom'] as const).map((k) => (
            <li key={k}>{t(`timeline.keys.${k}`)}</li>
          ))}
        </ul>
      ) : null}

      <div className="timeline-frame">
        {/* the tracks' names, outside the scrolling tracks (whose pixels stay the film's seconds
            times the zoom); the tracks carry the same names for a screen reader */}
        <div className="timeline-names" aria-hidden="true" data-testid="timeline-track-names">
          <span className="timeline-name timeline-name-ruler" />
          {(['picture', 'music', 'voice', 'captions'] as const).map((track) => (
            <span key={track} className={`timeline-name timeline-name-${track}`}>
              {t(`timeline.${track}`)}
            </span>
          ))}
        </div>
        <div
          className="timeline-scroller"
          ref={scroller}
          role="region"
          tabIndex={0}
          aria-label={t('timeline.tracks', { name: sequence.name })}
          data-testid="timeline-scroller"
          onWheel={(e) => {
            if (!e.ctrlKey) return;
            e.preventDefault();
            setZoom(e.deltaY < 0 ? zoomIn(pps, fit, timeline.fps) : zoomOut(pps, fit, timeline.fps));
          }}
        >
          <TimelineTracks
            sequence={sequence}
            timeline={timeline}
            pxPerSecond={pps}
            playhead={playhead}
            selection={selection}
            onSelect={setSelection}
            onSeek={seek}
            onDragEdit={onDragEdit}
            onClipKey={onClipKey}
            onMenu={(sel) => {
              setSelection(sel);
              requestAnimationFrame(() =>
                inspector.current?.querySelector<HTMLButtonElement>('button')?.focus(),
              );
            }}
            onGenerate={(shotId) => void generateShots(shotId)}
            busyGenerate={(shotId) => busy.includes(`generate:${shotId}`)}
          />
        </div>
      </div>
    </section>
  );
}
