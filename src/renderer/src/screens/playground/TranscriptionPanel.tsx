import { readApiUsage } from '../../../../shared/api/contract-vocabulary';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MethodResult } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { FileDrop, download } from './common';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['audio_transcription'];

function clock(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

export function TranscriptionPanel() {
  const { t } = useTranslation();
  const transcribe = useStudio((s) => s.transcribe);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const panel = usePlaygroundPanel<MethodResult<'playground.transcribe'>>(KINDS, { billed: true });
  const usage = readApiUsage(panel.service?.apiUsageContract);
  const [language, setLanguage] = useState('');
  const [format, setFormat] = useState('');
  const [audioUrl, setAudioUrl] = useState<string | null>(null);
  const [name, setName] = useState('transcript');
  const [playing, setPlaying] = useState<number | null>(null);
  const audio = useRef<HTMLAudioElement>(null);

  useEffect(
    () => () => {
      if (audioUrl) URL.revokeObjectURL(audioUrl);
    },
    [audioUrl],
  );

  const run = (file: File) => {
    setAudioUrl(URL.createObjectURL(file));
    setName(file.name.replace(/\.[^.]+$/, '') || 'transcript');
    return panel.run(async () => {
      const sent = await sendPlaygroundFile(file);
      return transcribe({
        model: panel.model,
        fileId: sent.fileId,
        ...(usage.supportsLanguage && language ? { language } : {}),
        ...(format ? { responseFormat: format } : {}),
      });
    });
  };

  const play = (segment: { id: number; start: number; end: number }) => {
    const el = audio.current;
    if (!el) return;
    el.currentTime = segment.start;
    setPlaying(segment.id);
    void el.play().catch(() => undefined);
    const stop = () => {
      if (el.currentTime >= segment.end) {
        el.pause();
        el.removeEventListener('timeupdate', stop);
      }
    };
    el.addEventListener('timeupdate', stop);
  };

  return (
    <PanelScaffold
      id="transcribe"
      title={t('playground.transcription.title')}
      hint={t('playground.transcription.hint')}
      panel={panel}
      options={
        <>
          {usage.supportsLanguage ? (
            <label className="pg-field">
              <span className="field-label">{t('playground.transcription.language')}</span>
              <select
                data-testid="transcribe-language"
                value={language}
                onChange={(e) => setLanguage(e.target.value)}
              >
                <option value="">{t('playground.common.default')}</option>
                {(usage.languages ?? []).map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {usage.responseFormats?.length ? (
            <label className="pg-field">
              <span className="field-label">{t('playground.transcription.responseFormat')}</span>
              <select
                data-testid="transcribe-format"
                value={format}
                onChange={(e) => setFormat(e.target.value)}
              >
                <option value="">{t('playground.common.default')}</option>
                {usage.responseFormats.map((f) => (
                  <option key={f} value={f}>
                    {f}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
        </>
      }
      beforeResult={
        audioUrl ? <audio ref={audio} src={audioUrl} controls data-testid="transcribe-audio" /> : null
      }
      renderResult={(result) => (
        <div data-testid="transcribe-result">
          <p className="muted">
            {t('playground.transcription.summary', {
              language: result.language,
              duration: result.duration.toFixed(1),
            })}
          </p>
          <ol className="pg-segments">
            {result.segments.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  className={`pg-link${playing === s.id ? ' pg-link-active' : ''}`}
                  data-testid="transcribe-segment"
                  onClick={() => play(s)}
                >
                  <span className="badge">
                    {clock(s.start)}–{clock(s.end)}
                  </span>{' '}
                  {s.text}
                </button>
              </li>
            ))}
          </ol>
          <div className="pg-row">
            <button
              type="button"
              className="button"
              data-testid="export-txt"
              onClick={() => download(`${name}.txt`, result.exports.txt)}
            >
              {t('playground.transcription.exportTxt')}
            </button>
            <button
              type="button"
              className="button"
              data-testid="export-srt"
              onClick={() => download(`${name}.srt`, result.exports.srt, 'application/x-subrip')}
            >
              {t('playground.transcription.exportSrt')}
            </button>
            <button
              type="button"
              className="button"
              data-testid="export-vtt"
              onClick={() => download(`${name}.vtt`, result.exports.vtt, 'text/vtt')}
            >
              {t('playground.transcription.exportVtt')}
            </button>
          </div>
        </div>
      )}
    >
      <FileDrop
        testId="transcribe-file"
        accept="audio/*,.wav,.mp3,.m4a,.mp4,.webm,.ogg,.oga,.flac"
        label={t('playground.transcription.drop')}
        onFiles={([f]) => void run(f!)}
      />
    </PanelScaffold>
  );
}
