import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobView } from '../../../../shared/bridge/contract';
import type { SoundtrackState } from '../../store/soundtrack-actions';
import { NumberField } from './NumberField';
import { sharedHistory } from './timeline/timeline-history';

/** The music bed: the current one (playable), one from the library, or one generated from a prompt; its gain and duck. */
export function MusicBed({ state }: { state: SoundtrackState }) {
  const { t } = useTranslation();
  const { view, busy, actions } = state;
  const [library, setLibrary] = useState<JobView[] | null>(null);
  const [chosen, setChosen] = useState('');
  const [prompt, setPrompt] = useState('');
  const [gain, setGain] = useState<string | null>(null);
  const [duck, setDuck] = useState<string | null>(null);
  if (!view) return null;
  const music = view.music;
  const loadLibrary = () => void actions.librarySounds().then(setLibrary, () => setLibrary([]));
  const gainValue = gain ?? String(view.musicGainDb);
  const duckValue = duck ?? String(view.duckDb);

  return (
    <div className="soundtrack-music" data-testid="soundtrack-music">
      <h4>{t('soundtrack.music')}</h4>
      {music ? (
        <div
          className="row"
          data-testid="soundtrack-music-current"
          data-state={music.state}
          data-source={music.source}
        >
          <span className="small">
            {music.prompt ?? music.fileName ?? ''} · {t(`soundtrack.state_${music.state}`)}
          </span>
          {music.mediaUrl ? (
            <audio src={music.mediaUrl} controls preload="none" aria-label={t('soundtrack.music')} />
          ) : null}
          {music.errorMessage ? (
            <span role="alert" className="error-text small">
              {music.errorMessage}
            </span>
          ) : null}
          <button
            type="button"
            className="button button-small"
            data-testid="soundtrack-music-remove"
            disabled={busy !== null}
            onClick={() => void actions.setMusic(null)}
          >
            {t('soundtrack.removeMusic')}
          </button>
        </div>
      ) : (
        <p className="muted small">{t('soundtrack.noMusic')}</p>
      )}
      <div className="row">
        {library === null ? (
          <button
            type="button"
            className="button button-small"
            data-testid="soundtrack-library-open"
            onClick={loadLibrary}
          >
            {t('soundtrack.fromLibrary')}
          </button>
        ) : library.length === 0 ? (
          <span className="muted small">{t('soundtrack.noLibrarySounds')}</span>
        ) : (
          <>
            <label className="field-label" htmlFor="soundtrack-library">
              {t('soundtrack.chooseLibrary')}
            </label>
            <select
              id="soundtrack-library"
              className="input"
              data-testid="soundtrack-library"
              value={chosen}
              onChange={(e) => setChosen(e.target.value)}
            >
              <option value="" />
              {library.map((job) => (
                <option key={job.rowId} value={String(job.rowId)}>
                  {job.title || job.model} · {job.jobId}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button button-small"
              data-testid="soundtrack-library-use"
              disabled={!chosen || busy !== null}
              onClick={() => void actions.setMusic(Number(chosen))}
            >
              {t('soundtrack.useLibrary')}
            </button>
          </>
        )}
      </div>
      <div className="row">
        <label className="field-label" htmlFor="soundtrack-music-prompt">
          {t('soundtrack.generatePrompt')}
        </label>
        <input
          id="soundtrack-music-prompt"
          className="input"
          data-testid="soundtrack-music-prompt"
          value={prompt}
          maxLength={1000}
          onChange={(e) => setPrompt(e.target.value)}
        />
        <button
          type="button"
          className="button button-small"
          data-testid="soundtrack-music-generate"
          disabled={!prompt.trim() || busy !== null}
          onClick={() => void actions.generateMusic(prompt.trim())}
        >
          {busy === 'music' ? t('soundtrack.working') : t('soundtrack.generateMusic')}
        </button>
      </div>
      <div className="row">
        <NumberField
          id="soundtrack-music-gain"
          label={t('soundtrack.musicGain')}
          min={-60}
          max={12}
          step={1}
          value={gainValue}
          onChange={setGain}
        />
        <NumberField
          id="soundtrack-duck"
          label={t('soundtrack.duck')}
          min={0}
          max={60}
          step={1}
          value={duckValue}
          onChange={setDuck}
        />
        <button
          type="button"
          className="button button-small"
          data-testid="soundtrack-levels-save"
          disabled={busy !== null || (gain === null && duck === null)}
          onClick={() =>
            void actions
              .setLevels({ musicGainDb: Number(gainValue), duckDb: Number(duckValue) })
              .then((done) => {
                if (!done) return;
                // undone with Ctrl/⌘+Z like the timeline's edits
                sharedHistory(view.sequenceId).record({
                  kind: 'levels',
                  before: { musicGainDb: view.musicGainDb, duckDb: view.duckDb },
                  after: { musicGainDb: Number(gainValue), duckDb: Number(duckValue) },
                });
                setGain(null);
                setDuck(null);
              })
          }
        >
          {t('soundtrack.saveLevels')}
        </button>
      </div>
    </div>
  );
}
