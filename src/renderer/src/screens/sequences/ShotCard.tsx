import { useState } from 'react';
import { useFileDrop } from '../../components/use-file-drop';
import { useTranslation } from 'react-i18next';
import type { DraftMedia, SequenceShotView } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { ShotBoardSend } from './BoardLink';
import { TrimButton, TrimStrip } from './TrimStrip';
import {
  formatSeconds,
  hasVerifiedResult,
  keyboardMoveTarget,
  promptExcerpt,
  SHOT_SECONDS_MAX,
  SHOT_SECONDS_MIN,
  shotDuration,
} from './sequence-model';
import { sharedHistory } from './timeline/timeline-history';

const SHOT_DRAG_TYPE = 'application/x-framewright-shot';

/** Continue from a shot: image-to-video, or first/last frame with a last frame the creator gives. */
function ContinueMenu({ shot, index, onDone }: { shot: SequenceShotView; index: number; onDone(): void }) {
  const { t } = useTranslation();
  const continueShot = useStudio((s) => s.continueShot);
  const stageFile = useStudio((s) => s.stageFile);
  const busy = useStudio((s) => s.sequenceBusy.includes(`continue:${shot.shotId}`));
  const [lastFrame, setLastFrame] = useState<DraftMedia | null>(null);
  const [staging, setStaging] = useState<string | null>(null);
  const [stageError, setStageError] = useState<string | null>(null);
  const drop = useFileDrop({ stopPropagation: true });
  const stage = (file: File | undefined) => {
    if (!file) return;
    setStaging(file.name);
    setStageError(null);
    stageFile(file)
      .then(
        (media) => {
          if (media.kind !== 'image')
            setStageError(t('studio.sequences.lastFrameNotImage', { name: media.fileName }));
          else setLastFrame(media);
        },
        (error: unknown) => setStageError(error instanceof Error ? error.message : String(error)),
      )
      .finally(() => setStaging(null));
  };
  const run = (mode: 'i2v' | 'first_last_frame_video', fileId?: string) =>
    void continueShot(shot.shotId, mode, fileId).then((done) => done && onDone());
  return (
    <div
      className="shot-menu"
      role="group"
      aria-label={t('studio.sequences.continue')}
      data-testid={`sequence-continue-menu-${index}`}
    >
      <button
        type="button"
        className="button button-small"
        data-testid={`sequence-continue-i2v-${index}`}
        disabled={busy}
        onClick={() => run('i2v')}
      >
        {t('studio.sequences.continueI2v')}
      </button>
      <div
        className={`dropzone shot-dropzone${drop.over ? ' dropzone-over' : ''}`}
        data-testid={`sequence-continue-last-frame-${index}`}
        {...drop.handlers((files) => stage(files[0]))}
      >
        <span className="small">{t('studio.sequences.lastFrameDrop')}</span>{' '}
        <label className="link-button small">
          {t('studio.create.pickFiles')}
          <input
            type="file"
            hidden
            accept="image/*"
            data-testid={`sequence-continue-last-frame-file-${index}`}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              stage(file);
            }}
          />
        </label>
        {staging ? <p className="muted small">{t('studio.create.staging', { name: staging })}</p> : null}
        {lastFrame ? (
          <p className="small" data-testid={`sequence-continue-last-frame-name-${index}`}>
            {t('studio.sequences.lastFrameChosen', { name: lastFrame.fileName })}
          </p>
        ) : null}
        {stageError ? (
          <p role="alert" className="error-text small">
            {stageError}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className="button button-small"
        data-testid={`sequence-continue-flf-${index}`}
        disabled={busy || !lastFrame}
        onClick={() => lastFrame && run('first_last_frame_video', lastFrame.id)}
      >
        {t('studio.sequences.continueFlf')}
      </button>
    </div>
  );
}

/** A draft shot's prompt and seconds, edited in place (saved through its draft). */
function ShotEditForm({ shot, index, onDone }: { shot: SequenceShotView; index: number; onDone(): void }) {
  const { t } = useTranslation();
  const editShot = useStudio((s) => s.editShot);
  const busy = useStudio((s) => s.sequenceBusy.includes(`edit:${shot.shotId}`));
  const [prompt, setPrompt] = useState(shot.prompt);
  const [seconds, setSeconds] = useState(shot.seconds);
  return (
    <form
      className="shot-menu"
      onSubmit={(e) => {
        e.preventDefault();
        void editShot(shot.shotId, { prompt, seconds }).then((done) => done && onDone());
      }}
    >
      <label className="field-label small" htmlFor={`shot-prompt-${shot.shotId}`}>
        {t('studio.create.prompt')}
      </label>
      <textarea
        id={`shot-prompt-${shot.shotId}`}
        className="input textarea shot-textarea"
        data-testid={`sequence-shot-edit-prompt-${index}`}
        value={prompt}
        onChange={(e) => setPrompt(e.target.value)}
      />
      <label className="field-label small" htmlFor={`shot-seconds-${shot.shotId}`}>
        {t('studio.create.seconds')}
      </label>
      <input
        id={`shot-seconds-${shot.shotId}`}
        className="input input-number"
        type="number"
        min={SHOT_SECONDS_MIN}
        max={SHOT_SECONDS_MAX}
        step={1}
        data-testid={`sequence-shot-edit-seconds-${index}`}
        value={seconds}
        onChange={(e) => setSeconds(Number(e.target.value))}
      />
      <div className="row">
        <button
          type="submit"
          className="button button-small"
          data-testid={`sequence-shot-save-${index}`}
          disabled={busy || !prompt.trim()}
        >
          {t('studio.sequences.save')}
        </button>
        <button type="button" className="button button-small button-secondary" onClick={onDone}>
          {t('studio.sequences.cancel')}
        </button>
      </div>
    </form>
  );
}

interface ShotCardProps {
  shot: SequenceShotView;
  index: number;
  /** The shot after it (a bridge goes from this shot to that one). */
  next: SequenceShotView | undefined;
  count: number;
  /** The shot being dragged, if any. */
  dragging: string | null;
  onDragging(shotId: string | null): void;
  onMove(shotId: string, toPosition: number): void;
}

/** One shot of the strip: its poster, label, prompt, state, duration, and what can be done with it. */
export function ShotCard({ shot, index, next, count, dragging, onDragging, onMove }: ShotCardProps) {
  const { t } = useTranslation();
  const busy = useStudio((s) => s.sequenceBusy);
  const generateShots = useStudio((s) => s.generateShots);
  const removeShot = useStudio((s) => s.removeShot);
  const bridgeShots = useStudio((s) => s.bridgeShots);
  const openShotInCreate = useStudio((s) => s.openShotInCreate);
  const [panel, setPanel] = useState<'continue' | 'edit' | 'trim' | null>(null);
  const [dropOver, setDropOver] = useState(false);
  const poster = shot.posterUrl ?? shot.firstFramePosterUrl;
  const duration = shotDuration(shot);
  const ready = hasVerifiedResult(shot);
  const isDraft = shot.state === 'draft';
  const stateText =
    shot.state === 'draft' || shot.state === 'submitted'
      ? t(`studio.sequences.state.${shot.state}`)
      : t(`studio.queue.status.${shot.state}`);

  return (
    <li
      className={`shot-card${panel === 'trim' ? ' shot-card-trimming' : ''}${dragging === shot.shotId ? ' shot-dragging' : ''}${dropOver ? ' shot-drop-over' : ''}`}
      data-testid={`sequence-shot-${index}`}
      data-shot-id={shot.shotId}
      data-state={shot.state}
      data-origin={shot.origin}
      tabIndex={0}
      draggable={panel !== 'trim'}
      aria-label={t('studio.sequences.cardLabel', { label: shot.label, state: stateText })}
      aria-keyshortcuts="Alt+ArrowLeft Alt+ArrowRight"
      onKeyDown={(e) => {
        if (e.target !== e.currentTarget) return;
        const to = keyboardMoveTarget(e.key, e.altKey, index, count);
        if (to === null) return;
        e.preventDefault();
        onMove(shot.shotId, to);
      }}
      onDragStart={(e) => {
        e.dataTransfer.setData(SHOT_DRAG_TYPE, shot.shotId);
        e.dataTransfer.effectAllowed = 'move';
        onDragging(shot.shotId);
      }}
      onDragEnd={() => onDragging(null)}
      onDragOver={(e) => {
        if (!dragging || dragging === shot.shotId) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = 'move';
        setDropOver(true);
      }}
      onDragLeave={() => setDropOver(false)}
      onDrop={(e) => {
        setDropOver(false);
        const shotId = e.dataTransfer.getData(SHOT_DRAG_TYPE) || dragging;
        if (!shotId || shotId === shot.shotId) return;
        e.preventDefault();
        onDragging(null);
        onMove(shotId, index);
      }}
    >
      <div className="shot-poster">
        {poster ? (
          <img src={poster} alt="" draggable={false} data-testid={`sequence-shot-poster-${index}`} />
        ) : (
          <div className="shot-placeholder" aria-hidden="true">
            ▶
          </div>
        )}
      </div>
      <div className="shot-head">
        <strong data-testid={`sequence-shot-label-${index}`}>{shot.label}</strong>
        {shot.origin !== 'new' ? (
          <span className="badge small" data-testid={`sequence-shot-origin-${index}`}>
            {t(`studio.sequences.origin.${shot.origin}`)}
          </span>
        ) : null}
        <span
          className={`badge status-${shot.state}`}
          data-testid={`sequence-shot-state-${index}`}
          data-state={shot.state}
        >
          {stateText}
        </span>
      </div>
      <p className="shot-prompt small" title={shot.prompt} data-testid={`sequence-shot-prompt-${index}`}>
        {promptExcerpt(shot.prompt)}
      </p>
      <p className="muted small">
        <span
          data-testid={`sequence-shot-duration-${index}`}
          data-seconds={duration.seconds}
          data-measured={duration.measured}
        >
          {formatSeconds(duration.seconds)}
        </span>{' '}
        · {duration.measured ? t('studio.sequences.measured') : t('studio.sequences.requested')} ·{' '}
        {t(`modeName.${shot.generationMode}`, { defaultValue: shot.generationMode })}
      </p>
      {shot.errorMessage ? (
        <p role="alert" className="error-text small" data-testid={`sequence-shot-error-${index}`}>
          {shot.errorMessage}
        </p>
      ) : null}
      <div className="shot-actions">
        <button
          type="button"
          className="button button-small"
          data-testid={`sequence-shot-left-${index}`}
          aria-label={t('studio.sequences.moveLeft', { label: shot.label })}
          title={t('studio.sequences.moveLeft', { label: shot.label })}
          disabled={index === 0}
          onClick={() => onMove(shot.shotId, index - 1)}
        >
          ←
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid={`sequence-shot-right-${index}`}
          aria-label={t('studio.sequences.moveRight', { label: shot.label })}
          title={t('studio.sequences.moveRight', { label: shot.label })}
          disabled={index === count - 1}
          onClick={() => onMove(shot.shotId, index + 1)}
        >
          →
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid={`sequence-shot-generate-${index}`}
          disabled={!isDraft || busy.includes(`generate:${shot.shotId}`) || busy.includes('generate:all')}
          onClick={() => void generateShots(shot.shotId)}
        >
          {t('studio.sequences.generate')}
        </button>
        <button
          type="button"
          className="button button-small"
          data-testid={`sequence-shot-continue-${index}`}
          aria-expanded={panel === 'continue'}
          disabled={!ready}
          title={ready ? undefined : t('studio.sequences.needsResult')}
          onClick={() => setPanel(panel === 'continue' ? null : 'continue')}
        >
          {t('studio.sequences.continue')}
        </button>
        <TrimButton
          shot={shot}
          index={index}
          open={panel === 'trim'}
          ready={ready}
          onToggle={() => setPanel(panel === 'trim' ? null : 'trim')}
        />
        {next ? (
          <button
            type="button"
            className="button button-small"
            data-testid={`sequence-shot-bridge-${index}`}
            disabled={!ready || busy.includes(`bridge:${shot.shotId}`)}
            title={
              ready
                ? t('studio.sequences.bridgeHint', { from: shot.label, to: next.label })
                : t('studio.sequences.needsResult')
            }
            onClick={() => void bridgeShots(shot.shotId, next.shotId)}
          >
            {t('studio.sequences.bridge')}
          </button>
        ) : null}
        {isDraft ? (
          <>
            <button
              type="button"
              className="button button-small"
              data-testid={`sequence-shot-edit-${index}`}
              aria-expanded={panel === 'edit'}
              onClick={() => setPanel(panel === 'edit' ? null : 'edit')}
            >
              {t('studio.sequences.edit')}
            </button>
            <button
              type="button"
              className="button button-small"
              data-testid={`sequence-shot-open-${index}`}
              onClick={() => void openShotInCreate(shot.shotId)}
            >
              {t('studio.sequences.openInCreate')}
            </button>
          </>
        ) : null}
        <button
          type="button"
          className="button button-small button-secondary"
          data-testid={`sequence-shot-remove-${index}`}
          disabled={busy.includes(`remove:${shot.shotId}`)}
          onClick={() =>
            void removeShot(shot.shotId).then((done) => {
              // undone with Ctrl/⌘+Z (sequences.restoreShot puts the very shot back)
              const sequenceId = useStudio.getState().openSequenceId;
              if (done && sequenceId)
                sharedHistory(sequenceId).record({
                  kind: 'shot-presence',
                  shotId: shot.shotId,
                  label: shot.label,
                  present: false,
                });
            })
          }
        >
          {t('studio.sequences.remove')}
        </button>
      </div>
      <ShotBoardSend shot={shot} index={index} />
      {panel === 'continue' && ready ? (
        <ContinueMenu shot={shot} index={index} onDone={() => setPanel(null)} />
      ) : null}
      {panel === 'trim' && ready ? (
        <TrimStrip shot={shot} index={index} onDone={() => setPanel(null)} />
      ) : null}
      {panel === 'edit' && isDraft ? (
        <ShotEditForm shot={shot} index={index} onDone={() => setPanel(null)} />
      ) : null}
    </li>
  );
}
