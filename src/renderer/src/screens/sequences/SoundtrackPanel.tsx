import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { MusicBed } from './MusicBed';
import { useSoundtrack } from '../../store/soundtrack-actions';
import { formatSeconds } from './sequence-model';
import './soundtrack-i18n';
import { VoiceLines } from './VoiceLines';

type Exported = MethodResult<'sequences.captions.export'>;

/**
 * The open sequence's sound track (issue 31): its music bed, voice-over lines and the captions
 * they give, with "Export SRT and WebVTT" beside the assembled film.
 */
export function SoundtrackPanel({ sequenceId }: { sequenceId: string }) {
  const { t } = useTranslation();
  const state = useSoundtrack(sequenceId);
  const [exported, setExported] = useState<Exported | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const { view } = state;
  return (
    <section className="panel soundtrack" aria-labelledby="soundtrack-title" data-testid="soundtrack-panel">
      <h3 id="soundtrack-title">{t('soundtrack.title')}</h3>
      <p className="muted small">{t('soundtrack.intro')}</p>
      {state.error ? (
        <p role="alert" className="error-text" data-testid="soundtrack-error">
          {state.error}
        </p>
      ) : null}
      {view ? (
        <>
          <MusicBed state={state} />
          <VoiceLines state={state} />
          <div className="soundtrack-captions">
            <h4>{t('soundtrack.captions')}</h4>
            <p className="small" data-testid="soundtrack-cue-count" data-count={view.captions.length}>
              {t('soundtrack.cueCount', { count: view.captions.length })}
            </p>
            <ol className="caption-cues" data-testid="soundtrack-cues">
              {view.captions.map((cue, i) => (
                <li
                  key={`${cue.startSeconds}-${i}`}
                  className="small"
                  data-start={cue.startSeconds}
                  data-end={cue.endSeconds}
                >
                  <span className="muted">
                    {formatSeconds(cue.startSeconds, 2)} – {formatSeconds(cue.endSeconds, 2)}
                  </span>{' '}
                  {cue.text}
                </li>
              ))}
            </ol>
            <button
              type="button"
              className="button button-small"
              data-testid="soundtrack-captions-export"
              disabled={view.captions.length === 0}
              onClick={() => {
                setExportError(null);
                state.actions
                  .exportCaptions()
                  .then(setExported, (e: unknown) =>
                    setExportError(e instanceof Error ? e.message : String(e)),
                  );
              }}
            >
              {t('soundtrack.exportCaptions')}
            </button>
            {exported ? (
              exported.files ? (
                <p role="status" className="ok-text small" data-testid="soundtrack-captions-exported">
                  {t('soundtrack.exported', exported.files)}
                </p>
              ) : (
                <>
                  <p role="status" className="muted small">
                    {t('soundtrack.exportedText')}
                  </p>
                  <pre className="caption-text" data-testid="soundtrack-captions-text">
                    {exported.srt}
                  </pre>
                </>
              )
            ) : null}
            {exportError ? (
              <p role="alert" className="error-text small">
                {exportError}
              </p>
            ) : null}
          </div>
        </>
      ) : state.error ? null : (
        <p className="muted small">{t('soundtrack.loading')}</p>
      )}
    </section>
  );
}
