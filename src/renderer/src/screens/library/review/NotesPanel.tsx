import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobNoteView } from '../../../../../shared/bridge/contract';
import { NOTE_TEXT_MAX_CHARS } from '../../../../../shared/library-review';
import { noteProblem, useReview, type InputProblem } from '../../../store/review-store';
import { formatClock, stepFrame } from '../compare/frame-step';
import type { ReviewPlayback } from './use-review-player';
import { KEYBOARD_RECT, nudgeRect } from './note-geometry';

const EMPTY: JobNoteView[] = [];

/** A take's notes, read once per take (the panel and the scrub bar's markers share them). */
export function useTakeNotes(jobRowId: number): JobNoteView[] {
  const notes = useReview((s) => s.notes[jobRowId] ?? EMPTY);
  const loadNotes = useReview((s) => s.loadNotes);
  useEffect(() => {
    void loadNotes(jobRowId);
  }, [jobRowId, loadNotes]);
  return notes;
}

function NoteEditor({ note, onDone }: { note: JobNoteView; onDone(): void }) {
  const { t } = useTranslation();
  const updateNote = useReview((s) => s.updateNote);
  const [text, setText] = useState(note.text);
  const [problem, setProblem] = useState<InputProblem | null>(null);
  const save = async () => {
    const wrong = noteProblem(text);
    setProblem(wrong);
    if (wrong) return;
    if (await updateNote(note.jobRowId, note.id, { text })) onDone();
  };
  return (
    <div className="note-edit">
      <label className="sr-only" htmlFor={`note-edit-${note.id}`}>
        {t('review.notes.editLabel', { time: formatClock(note.atSeconds) })}
      </label>
      <input
        id={`note-edit-${note.id}`}
        className="input"
        data-testid="note-edit-text"
        value={text}
        maxLength={NOTE_TEXT_MAX_CHARS}
        autoFocus
        aria-invalid={problem !== null}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            void save();
          } else if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onDone();
          }
        }}
      />
      <button
        type="button"
        className="button button-small"
        data-testid="note-edit-save"
        onClick={() => void save()}
      >
        {t('review.notes.save')}
      </button>
      {note.rect ? (
        <button
          type="button"
          className="button button-small button-secondary"
          data-testid="note-edit-remove-rect"
          onClick={() => void updateNote(note.jobRowId, note.id, { rect: null })}
        >
          {t('review.notes.removeRect')}
        </button>
      ) : null}
      <button type="button" className="button button-small button-secondary" onClick={onDone}>
        {t('review.notes.cancel')}
      </button>
      {problem ? (
        <p role="alert" className="error-text small">
          {t(`review.notes.problem.${problem}`, { max: NOTE_TEXT_MAX_CHARS })}
        </p>
      ) : null}
    </div>
  );
}

export interface NotesPanelProps {
  jobRowId: number;
  notes: readonly JobNoteView[];
  playback: ReviewPlayback;
  /** Where N puts the focus: the new note's text. */
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  /** Whether the take has a time (a still image's notes are all at 0). */
  timed: boolean;
  /** Whether a rectangle can be drawn on it (not on a sound). */
  drawable: boolean;
  /** The note being written was saved or left (its field is gone: the focus goes back). */
  onClosed?: () => void;
}

/** Esc in a note's field leaves the note, not the dialog around it. */
export function escapeBelongsToNotes(target: EventTarget | null): boolean {
  const el = target as { closest?(selector: string): unknown } | null;
  return !!el?.closest?.('.note-draft, .note-edit');
}

/**
 * The notes beside the player: each at its time, in time order (its time jumps the player to its
 * frame), editable and deletable; and "Add a note" at the frame shown (N in the reviewer), whose
 * text Enter saves (Shift+Enter a new line, Esc leaves it). A rectangle dragged on the paused frame
 * goes with the note being written.
 */
export function NotesPanel({
  jobRowId,
  notes,
  playback,
  inputRef,
  timed,
  drawable,
  onClosed,
}: NotesPanelProps) {
  const { t } = useTranslation();
  const draft = useReview((s) => (s.noteDraft?.jobRowId === jobRowId ? s.noteDraft : null));
  const error = useReview((s) => s.notesError);
  const startNote = useReview((s) => s.startNote);
  const cancelNote = useReview((s) => s.cancelNote);
  const saveNote = useReview((s) => s.saveNote);
  const setDraftRect = useReview((s) => s.setDraftRect);
  const deleteNote = useReview((s) => s.deleteNote);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<InputProblem | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const save = async () => {
    if (saving) return;
    setSaving(true);
    const outcome = await saveNote(text);
    setSaving(false);
    setProblem(outcome === 'empty' || outcome === 'tooLong' ? outcome : null);
    if (outcome === null) {
      setText('');
      onClosed?.();
    }
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void save();
    } else if (e.key === 'Escape') {
      // leaves the note, not the reviewer (the text stays for a second try)
      e.preventDefault();
      e.stopPropagation();
      cancelNote();
      onClosed?.();
    }
  };
  const here = timed ? stepFrame(playback.time, playback.fps, 0, playback.duration) : 0;
  const areaRef = useRef<HTMLDivElement>(null);
  /** The area's keys: arrows move it, Shift+arrows resize it, Enter or Esc back to the text. */
  const onAreaKey = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!draft?.rect) return;
    if (e.key === 'Enter' || e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      inputRef?.current?.focus();
      return;
    }
    const next = nudgeRect(draft.rect, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    e.stopPropagation();
    setDraftRect(next);
  };
  const pct = (n: number) => `${Math.round(n * 100)}%`;

  return (
    <section className="notes-panel" aria-labelledby={`notes-title-${jobRowId}`} data-testid="notes-panel">
      <h3 id={`notes-title-${jobRowId}`}>{t('review.notes.title', { count: notes.length })}</h3>
      {notes.length === 0 ? <p className="muted small">{t('review.notes.none')}</p> : null}
      <ol className="notes-list" data-testid="notes-list">
        {notes.map((note) => (
          <li key={note.id} className="note" data-testid="note" data-seconds={note.atSeconds}>
            <button
              type="button"
              className="link-button note-time"
              data-testid="note-jump"
              aria-label={t('review.notes.jump', { time: formatClock(note.atSeconds) })}
              onClick={() => {
                playback.pause();
                playback.seek(note.atSeconds);
              }}
            >
              {formatClock(note.atSeconds)}
            </button>
            {note.rect ? (
              <span className="note-has-rect small" title={t('review.notes.hasRect')}>
                <span aria-hidden="true">▭</span>
                <span className="sr-only">{t('review.notes.hasRect')}</span>
              </span>
            ) : null}
            {editing === note.id ? (
              <NoteEditor note={note} onDone={() => setEditing(null)} />
            ) : (
              <>
                <span className="note-text" data-testid="note-text">
                  {note.text}
                </span>
                <span className="note-actions">
                  <button
                    type="button"
                    className="link-button small"
                    data-testid="note-edit"
                    aria-label={t('review.notes.editLabel', { time: formatClock(note.atSeconds) })}
                    onClick={() => setEditing(note.id)}
                  >
                    {t('review.notes.edit')}
                  </button>
                  <button
                    type="button"
                    className="link-button small"
                    data-testid="note-delete"
                    aria-label={t('review.notes.deleteLabel', { time: formatClock(note.atSeconds) })}
                    onClick={() => void deleteNote(jobRowId, note.id)}
                  >
                    {t('review.notes.delete')}
                  </button>
                </span>
              </>
            )}
          </li>
        ))}
      </ol>
      {draft ? (
        <div className="note-draft" data-testid="note-draft" data-seconds={draft.atSeconds}>
          <label className="field-label" htmlFor={`note-text-${jobRowId}`}>
            {t('review.notes.newAt', { time: formatClock(draft.atSeconds) })}
          </label>
          <textarea
            id={`note-text-${jobRowId}`}
            ref={inputRef}
            className="input"
            rows={2}
            data-testid="note-text-input"
            value={text}
            maxLength={NOTE_TEXT_MAX_CHARS}
            aria-invalid={problem !== null}
            aria-describedby={`note-hint-${jobRowId}`}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKey}
          />
          <p id={`note-hint-${jobRowId}`} className="muted small">
            {draft.rect ? t('review.notes.rectDrawn') : drawable ? t('review.notes.drawHint') : null}
          </p>
          <div className="row">
            <button
              type="button"
              className="button button-primary button-small"
              data-testid="note-save"
              disabled={saving}
              onClick={() => void save()}
            >
              {t('review.notes.save')}
            </button>
            {draft.rect ? (
              <button
                type="button"
                className="button button-small button-secondary"
                data-testid="note-draft-remove-rect"
                onClick={() => setDraftRect(null)}
              >
                {t('review.notes.removeRect')}
              </button>
            ) : drawable ? (
              <button
                type="button"
                className="button button-small button-secondary"
                data-testid="note-draft-area"
                onClick={() => {
                  setDraftRect(KEYBOARD_RECT);
                  requestAnimationFrame(() => areaRef.current?.focus());
                }}
              >
                {t('review.notes.markArea')}
              </button>
            ) : null}
            <button
              type="button"
              className="button button-small button-secondary"
              onClick={() => {
                cancelNote();
                onClosed?.();
              }}
            >
              {t('review.notes.cancel')}
            </button>
          </div>
          {draft.rect ? (
            <div
              ref={areaRef}
              className="note-area-keys small"
              role="group"
              tabIndex={0}
              data-testid="note-draft-area-keys"
              aria-label={t('review.notes.areaKeys')}
              onKeyDown={onAreaKey}
            >
              <output aria-live="polite" data-testid="note-draft-area-where">
                {t('review.notes.areaWhere', {
                  x: pct(draft.rect.x),
                  y: pct(draft.rect.y),
                  width: pct(draft.rect.width),
                  height: pct(draft.rect.height),
                })}
              </output>
            </div>
          ) : null}
          {problem ? (
            <p role="alert" className="error-text small" data-testid="note-problem">
              {t(`review.notes.problem.${problem}`, { max: NOTE_TEXT_MAX_CHARS })}
            </p>
          ) : null}
        </div>
      ) : (
        <button
          type="button"
          className="button button-small"
          data-testid="note-add"
          aria-keyshortcuts="N"
          onClick={() => {
            playback.pause();
            setProblem(null);
            startNote(jobRowId, here);
            requestAnimationFrame(() => inputRef?.current?.focus());
          }}
        >
          {t('review.notes.addAt', { time: formatClock(here) })}
        </button>
      )}
      {error ? (
        <p role="alert" className="error-banner small" data-testid="notes-error">
          {t('errors.generic', { message: error })}
        </p>
      ) : null}
    </section>
  );
}
