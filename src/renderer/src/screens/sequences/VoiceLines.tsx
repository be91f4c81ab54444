import { useState } from 'react';
import { useFileDrop } from '../../components/use-file-drop';
import { useTranslation } from 'react-i18next';
import type { DraftMedia, VoiceLineView } from '../../../../shared/bridge/contract';
import { formatSeconds } from './sequence-model';
import type { SoundtrackState } from '../../store/soundtrack-actions';
import { NumberField } from './NumberField';
import { sharedHistory } from './timeline/timeline-history';

/** One line: its start and gain editable in place (saved when the field is left), its state, remove. */
function VoiceLine({ line, index, state }: { line: VoiceLineView; index: number; state: SoundtrackState }) {
  const { t } = useTranslation();
  const [at, setAt] = useState(String(line.atSeconds));
  const [gain, setGain] = useState(String(line.gainDb));
  const seconds = formatSeconds(line.atSeconds, 2);
  const update = (change: { atSeconds?: number; gainDb?: number; transcribe?: boolean }) =>
    void state.actions.updateVoice(line.lineId, change).then((done) => {
      // a new time or gain is undone with Ctrl/⌘+Z like the timeline's edits
      if (!done || !state.view) return;
      const history = sharedHistory(state.view.sequenceId);
      const label = line.text || line.fileName || line.lineId;
      if (change.atSeconds !== undefined && change.atSeconds !== line.atSeconds)
        history.record({
          kind: 'voice-time',
          lineId: line.lineId,
          label,
          before: line.atSeconds,
          after: change.atSeconds,
        });
      if (change.gainDb !== undefined && change.gainDb !== line.gainDb)
        history.record({
          kind: 'voice-gain',
          lineId: line.lineId,
          label,
          before: line.gainDb,
          after: change.gainDb,
        });
    });
  return (
    <li
      className="voice-line"
      data-testid={`soundtrack-voice-${index}`}
      data-state={line.state}
      data-at={line.atSeconds}
    >
      <input
        className="input input-narrow"
        type="number"
        min={0}
        step={0.1}
        aria-label={t('soundtrack.moveLine', { seconds })}
        data-testid={`soundtrack-voice-at-${index}`}
        value={at}
        onChange={(e) => setAt(e.target.value)}
        onBlur={() => Number(at) !== line.atSeconds && Number(at) >= 0 && update({ atSeconds: Number(at) })}
      />
      <input
        className="input input-narrow"
        type="number"
        min={-60}
        max={12}
        step={1}
        aria-label={t('soundtrack.gainOfLine', { seconds })}
        data-testid={`soundtrack-voice-gain-${index}`}
        value={gain}
        onChange={(e) => setGain(e.target.value)}
        onBlur={() => Number(gain) !== line.gainDb && update({ gainDb: Number(gain) })}
      />
      <span className="small">{line.text || line.fileName}</span>
      <span className="muted small">
        {t(`soundtrack.state_${line.state}`)}
        {line.durationSeconds !== null ? ` · ${formatSeconds(line.durationSeconds, 2)}` : ''}
      </span>
      {line.mediaUrl ? <audio src={line.mediaUrl} controls preload="none" aria-label={line.text} /> : null}
      {line.errorMessage ? (
        <span role="alert" className="error-text small">
          {line.errorMessage}
        </span>
      ) : null}
      {!line.transcribed ? (
        <button type="button" className="link-button small" onClick={() => update({ transcribe: true })}>
          {t('soundtrack.untranscribed')} {t('soundtrack.transcribe')}
        </button>
      ) : null}
      <button
        type="button"
        className="button button-small"
        aria-label={t('soundtrack.removeLine', { seconds })}
        data-testid={`soundtrack-voice-remove-${index}`}
        disabled={state.busy !== null}
        onClick={() => void state.actions.removeVoice(line.lineId)}
      >
        ×
      </button>
    </li>
  );
}

/** The voice-over lines by time, and a new line: words to speak, or a dropped audio file, at a time. */
export function VoiceLines({ state }: { state: SoundtrackState }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  // the new line's id: a retry of the same press answers that line instead of adding another
  const [lineId, setLineId] = useState(() => crypto.randomUUID());
  const [at, setAt] = useState('0');
  const [gain, setGain] = useState('0');
  const [file, setFile] = useState<DraftMedia | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const drop = useFileDrop();
  const { view, busy, actions } = state;
  if (!view) return null;
  const atSeconds = Number(at);
  const gainDb = Number(gain);
  const placeable = Number.isFinite(atSeconds) && atSeconds >= 0 && Number.isFinite(gainDb);
  const stage = (dropped: File | undefined) => {
    if (!dropped) return;
    setFileError(null);
    actions.stageFile(dropped).then(
      (media) =>
        media.kind === 'audio'
          ? setFile(media)
          : setFileError(t('soundtrack.notAudio', { name: media.fileName })),
      (e: unknown) => setFileError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <div className="soundtrack-voices" data-testid="soundtrack-voices">
      <h4>{t('soundtrack.voices')}</h4>
      {view.voices.length === 0 ? <p className="muted small">{t('soundtrack.noVoices')}</p> : null}
      <ol className="voice-lines">
        {view.voices.map((line, index) => (
          <VoiceLine
            key={`${line.lineId}-${line.atSeconds}-${line.gainDb}`}
            line={line}
            index={index}
            state={state}
          />
        ))}
      </ol>
      <div className="row">
        <label className="field-label" htmlFor="soundtrack-line-text">
          {t('soundtrack.lineText')}
        </label>
        <textarea
          id="soundtrack-line-text"
          className="input"
          rows={2}
          maxLength={600}
          data-testid="soundtrack-line-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <NumberField
          id="soundtrack-line-at"
          label={t('soundtrack.lineAt')}
          min={0}
          step={0.1}
          value={at}
          onChange={setAt}
        />
        <NumberField
          id="soundtrack-line-gain"
          label={t('soundtrack.lineGain')}
          min={-60}
          max={12}
          step={1}
          value={gain}
          onChange={setGain}
        />
        <button
          type="button"
          className="button button-small"
          data-testid="soundtrack-line-speak"
          disabled={!text.trim() || !placeable || busy !== null}
          onClick={() =>
            void actions.addVoice({ lineId, atSeconds, gainDb, text: text.trim() }).then((done) => {
              if (!done) return;
              setText('');
              setLineId(crypto.randomUUID());
            })
          }
        >
          {busy === 'voice' ? t('soundtrack.working') : t('soundtrack.speak')}
        </button>
      </div>
      <div
        className={`dropzone${drop.over ? ' dropzone-over' : ''}`}
        data-testid="soundtrack-line-drop"
        {...drop.handlers((files) => stage(files[0]))}
      >
        <span className="small">{t('soundtrack.dropVoice')}</span>{' '}
        <label className="link-button small">
          {t('studio.create.pickFiles')}
          <input
            type="file"
            hidden
            accept="audio/*"
            data-testid="soundtrack-line-file"
            onChange={(e) => {
              const picked = e.target.files?.[0];
              e.target.value = '';
              stage(picked);
            }}
          />
        </label>
        {file ? <p className="small">{t('soundtrack.fileChosen', { name: file.fileName })}</p> : null}
        {fileError ? (
          <p role="alert" className="error-text small">
            {fileError}
          </p>
        ) : null}
        <button
          type="button"
          className="button button-small"
          data-testid="soundtrack-line-place"
          disabled={!file || !placeable || busy !== null}
          onClick={() =>
            file &&
            void actions.addVoice({ lineId, atSeconds, gainDb, fileId: file.id }).then((done) => {
              if (!done) return;
              setFile(null);
              setLineId(crypto.randomUUID());
            })
          }
        >
          {t('soundtrack.placeFile')}
        </button>
      </div>
    </div>
  );
}
