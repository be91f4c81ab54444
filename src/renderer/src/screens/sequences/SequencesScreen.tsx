import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../components/EmptyState';
import { useStudio } from '../../store';
import '../../theme/studio.css';
import './sequences.css';
import { BoardImportDialog } from './BoardImportDialog';
import { formatSeconds } from './sequence-model';
import { SequenceEditor } from './SequenceEditor';

/** The core's error, in place (never swallowed). */
export function SequenceError() {
  const error = useStudio((s) => s.sequenceError);
  return error ? (
    <p role="alert" className="error-banner" data-testid="sequence-error">
      {error}
    </p>
  ) : null;
}

function SequenceList() {
  const { t } = useTranslation();
  const sequences = useStudio((s) => s.sequences);
  const createSequence = useStudio((s) => s.createSequence);
  const openSequence = useStudio((s) => s.openSequence);
  const storyboards = useStudio((s) => s.info?.capabilities.storyboards === true);
  const [name, setName] = useState('');
  const [importing, setImporting] = useState(false);
  const create = () => {
    if (!name.trim()) return;
    void createSequence(name.trim()).then((done) => done && setName(''));
  };
  return (
    <>
      <form
        className="row sequence-create"
        onSubmit={(e) => {
          e.preventDefault();
          create();
        }}
      >
        <label className="field-label" htmlFor="sequence-new-name">
          {t('studio.sequences.newName')}
        </label>
        <input
          id="sequence-new-name"
          className="input"
          data-testid="sequence-new-name"
          value={name}
          maxLength={120}
          placeholder={t('studio.sequences.newNamePlaceholder')}
          onChange={(e) => setName(e.target.value)}
        />
        <button
          type="submit"
          className="button button-primary"
          data-testid="sequence-create"
          disabled={!name.trim()}
        >
          {t('studio.sequences.create')}
        </button>
        {storyboards ? (
          <button
            type="button"
            className="button button-secondary"
            data-testid="board-import-open"
            onClick={() => setImporting(true)}
          >
            {t('storyboards.importAction')}
          </button>
        ) : null}
      </form>
      {importing ? <BoardImportDialog onClose={() => setImporting(false)} /> : null}
      <SequenceError />
      {sequences && sequences.length === 0 ? (
        <EmptyState title={t('studio.sequences.emptyTitle')} body={t('studio.sequences.emptyBody')} />
      ) : null}
      <ul className="sequence-list" data-testid="sequence-list">
        {(sequences ?? []).map((s) => (
          <li key={s.sequenceId} data-testid="sequence-item" data-sequence-id={s.sequenceId}>
            <button
              type="button"
              className="link-button sequence-open"
              data-testid="sequence-open"
              onClick={() => void openSequence(s.sequenceId)}
            >
              {s.name}
            </button>
            <span className="muted small">
              {t('studio.sequences.summary', {
                count: s.shotCount,
                total: formatSeconds(s.totalSeconds),
              })}
            </span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** Sequences: shots chained past the 15-second limit, generated and assembled into one file. */
export function SequencesScreen() {
  const { t } = useTranslation();
  const openSequenceId = useStudio((s) => s.openSequenceId);
  const loadSequences = useStudio((s) => s.loadSequences);
  const refreshSequence = useStudio((s) => s.refreshSequence);

  useEffect(() => {
    void loadSequences();
    // the open sequence may have changed while another screen was shown
    void refreshSequence();
  }, [loadSequences, refreshSequence]);

  return (
    <section className="screen sequences-screen" aria-labelledby="sequences-title">
      <h1 id="sequences-title">{t('studio.sequences.title')}</h1>
      {openSequenceId ? <SequenceEditor /> : <SequenceList />}
    </section>
  );
}
