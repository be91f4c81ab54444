import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStudio } from '../../store';
import { AddShotForm } from './AddShotForm';
import { AssemblyPanel } from './AssemblyPanel';
import { BoardLinkBar } from './BoardLink';
import { filmLength, formatSeconds } from './sequence-model';
import { SequenceError } from './SequencesScreen';
import { ShotCard } from './ShotCard';
import { SoundtrackPanel } from './SoundtrackPanel';
import { TimelinePanel } from './timeline/TimelinePanel';
import { sharedHistory } from './timeline/timeline-history';

/** Deliveries (issue 31): its own chunk, loaded when a sequence opens. */
const DeliveriesPanel = lazy(() => import('./DeliveriesPanel').then((m) => ({ default: m.DeliveriesPanel })));

function SequenceHeader() {
  const { t } = useTranslation();
  const sequence = useStudio((s) => s.sequence);
  const closeSequence = useStudio((s) => s.closeSequence);
  const renameSequence = useStudio((s) => s.renameSequence);
  const deleteSequence = useStudio((s) => s.deleteSequence);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  if (!sequence) return null;
  return (
    <div className="row sequence-header">
      <button
        type="button"
        className="button button-secondary"
        data-testid="sequence-back"
        onClick={closeSequence}
      >
        ← {t('studio.sequences.back')}
      </button>
      {renaming === null ? (
        <>
          <h2 className="sequence-name" data-testid="sequence-name">
            {sequence.name}
          </h2>
          <button
            type="button"
            className="button button-small"
            data-testid="sequence-rename"
            onClick={() => setRenaming(sequence.name)}
          >
            {t('studio.sequences.rename')}
          </button>
        </>
      ) : (
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            if (renaming.trim())
              void renameSequence(renaming.trim()).then((done) => done && setRenaming(null));
          }}
        >
          <input
            className="input"
            data-testid="sequence-rename-input"
            aria-label={t('studio.sequences.rename')}
            value={renaming}
            maxLength={120}
            onChange={(e) => setRenaming(e.target.value)}
          />
          <button
            type="submit"
            className="button button-small"
            data-testid="sequence-rename-save"
            disabled={!renaming.trim()}
          >
            {t('studio.sequences.save')}
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => setRenaming(null)}
          >
            {t('studio.sequences.cancel')}
          </button>
        </form>
      )}
      {confirming ? (
        <>
          <button
            type="button"
            className="button button-small button-danger"
            data-testid="sequence-delete-confirm"
            onClick={() => void deleteSequence(sequence.sequenceId)}
          >
            {t('studio.sequences.deleteConfirm')}
          </button>
          <button
            type="button"
            className="button button-small button-secondary"
            onClick={() => setConfirming(false)}
          >
            {t('studio.sequences.cancel')}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="button button-small"
          data-testid="sequence-delete"
          onClick={() => setConfirming(true)}
        >
          {t('studio.sequences.delete')}
        </button>
      )}
    </div>
  );
}

function GenerateOutcome() {
  const { t } = useTranslation();
  const outcome = useStudio((s) => s.generateOutcome);
  const shots = useStudio((s) => s.sequence?.shots);
  if (!outcome?.length) return null;
  const label = (shotId: string) => shots?.find((s) => s.shotId === shotId)?.label ?? shotId;
  const refused = outcome.filter((o) => o.state === 'refused');
  const pending = outcome.filter((o) => o.state === 'pending');
  return (
    <div className="small" data-testid="sequence-generate-outcome">
      {refused.length ? (
        <p role="alert" className="error-text" data-testid="sequence-generate-refused">
          {t('studio.sequences.refused', {
            shots: refused
              .map((o) => (o.message ? `${label(o.shotId)} (${o.message})` : label(o.shotId)))
              .join('; '),
          })}
        </p>
      ) : null}
      {pending.length ? (
        <p className="muted">
          {t('studio.sequences.pending', { shots: pending.map((o) => label(o.shotId)).join(', ') })}
        </p>
      ) : null}
    </div>
  );
}

/** The open sequence: its strip of shots (reorder by drag or Alt+arrows), generation and assembly. */
export function SequenceEditor() {
  const { t } = useTranslation();
  const sequence = useStudio((s) => s.sequence);
  const busy = useStudio((s) => s.sequenceBusy);
  const generateShots = useStudio((s) => s.generateShots);
  const moveShot = useStudio((s) => s.moveShot);
  const crossfade = useStudio((s) => s.sequenceCrossfade);
  const [dragging, setDragging] = useState<string | null>(null);
  /** The card to keep focused once the strip comes back in its new order. */
  const [focusShot, setFocusShot] = useState<string | null>(null);
  const strip = useRef<HTMLOListElement>(null);

  useEffect(() => {
    if (!focusShot) return;
    const card = strip.current?.querySelector<HTMLElement>(`[data-shot-id="${CSS.escape(focusShot)}"]`);
    if (card && document.activeElement !== card) card.focus();
  }, [focusShot, sequence]);

  if (!sequence) {
    return (
      <>
        <SequenceError />
        <p className="muted">{t('app.loading')}</p>
      </>
    );
  }
  const drafts = sequence.shots.filter((s) => s.state === 'draft').length;
  // what the assembled film will last with the cross-fade chosen below (not the shots' plain sum)
  const filmTotal = filmLength(sequence.shots, crossfade);
  const move = (shotId: string, toPosition: number) => {
    setFocusShot(shotId);
    const shot = sequence.shots.find((s) => s.shotId === shotId);
    void moveShot(shotId, toPosition).then((done) => {
      // the strip's moves are undone with Ctrl/⌘+Z like the timeline's
      if (done && shot)
        sharedHistory(sequence.sequenceId).record({
          kind: 'move',
          shotId,
          label: shot.label,
          from: shot.position,
          to: Math.min(toPosition, sequence.shots.length - 1),
        });
    });
  };

  return (
    <div className="sequence-editor" data-testid="sequence-editor" data-sequence-id={sequence.sequenceId}>
      <SequenceHeader />
      <BoardLinkBar />
      <SequenceError />
      <div className="row sequence-toolbar">
        <span data-testid="sequence-total" data-seconds={filmTotal}>
          {t('studio.sequences.total', {
            count: sequence.shots.length,
            total: formatSeconds(filmTotal),
          })}
        </span>
        <button
          type="button"
          className="button button-primary"
          data-testid="sequence-generate-all"
          disabled={drafts === 0 || busy.includes('generate:all')}
          title={drafts === 0 ? t('studio.sequences.nothingToGenerate') : undefined}
          onClick={() => void generateShots()}
        >
          {t('studio.sequences.generateAll', { count: drafts })}
        </button>
      </div>
      <GenerateOutcome />
      <TimelinePanel key={sequence.sequenceId} sequence={sequence} />
      <p className="muted small">{t('studio.sequences.reorderHint')}</p>
      <ol
        className="shot-strip"
        ref={strip}
        data-testid="sequence-strip"
        aria-label={t('studio.sequences.strip')}
      >
        {sequence.shots.map((shot, index) => (
          <ShotCard
            key={shot.shotId}
            shot={shot}
            index={index}
            next={sequence.shots[index + 1]}
            count={sequence.shots.length}
            dragging={dragging}
            onDragging={setDragging}
            onMove={move}
          />
        ))}
      </ol>
      {sequence.shots.length === 0 ? <p className="muted">{t('studio.sequences.noShots')}</p> : null}
      <AddShotForm />
      <AssemblyPanel />
      <SoundtrackPanel sequenceId={sequence.sequenceId} />
      <Suspense fallback={null}>
        <DeliveriesPanel />
      </Suspense>
    </div>
  );
}
