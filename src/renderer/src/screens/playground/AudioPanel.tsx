import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { readMediaSpec } from '../../../../shared/api/contract-vocabulary';
import type { GenerationResult, MethodResult, PlaygroundFile } from '../../../../shared/bridge/contract';
import { useStudio } from '../../store';
import { Counter, FileDrop, NumberField, blobUrlOf, codePoints, paramOf } from './common';
import { GenerationResultView } from './GenerationResultView';
import { PanelScaffold } from './PanelScaffold';
import { usePlaygroundPanel } from './use-playground-panel';

const KINDS = ['audio_generation'];
type Voice = MethodResult<'playground.voices'>[number];

export function AudioPanel() {
  const { t } = useTranslation();
  const generateAudio = useStudio((s) => s.generateAudio);
  const previewVoice = useStudio((s) => s.previewVoice);
  const sendPlaygroundFile = useStudio((s) => s.sendPlaygroundFile);
  const listVoices = useStudio((s) => s.listVoices);
  const panel = usePlaygroundPanel<GenerationResult>(KINDS, { billed: false });
  const { service, model, attempt } = panel;
  const profile = readMediaSpec(service?.mediaSpecContract).profile ?? 'speech';
  const textMax = Math.min(paramOf(service, 'text')?.maxLength ?? 600, 600);
  const instructMax = Math.min(paramOf(service, 'instruct')?.maxLength ?? 160, 160);
  const voiceModeParam = paramOf(service, 'voiceMode');
  const secondsParam = paramOf(service, 'seconds');
  const [voices, setVoices] = useState<Voice[]>([]);
  const [voiceMode, setVoiceMode] = useState('text');
  const [text, setText] = useState('');
  const [speaker, setSpeaker] = useState('');
  const [instruct, setInstruct] = useState('');
  const [prompt, setPrompt] = useState('');
  const [seconds, setSeconds] = useState('');
  const [seed, setSeed] = useState('');
  const [video, setVideo] = useState<PlaygroundFile | null>(null);
  const [preview, setPreview] = useState<{ voiceId: string; url: string } | null>(null);

  useEffect(() => {
    void attempt(async () => setVoices(await listVoices()));
  }, [attempt, listVoices]);

  const playPreview = (voiceId: string) =>
    attempt(async () => {
      const { dataUrl } = await previewVoice({ voiceId, model });
      if (preview) URL.revokeObjectURL(preview.url);
      setPreview({ voiceId, url: blobUrlOf(dataUrl) });
    });

  const run = () => {
    const int = (v: string) => (v.trim() ? Number(v) : undefined);
    const speech = profile === 'speech';
    return panel.run(() =>
      generateAudio({
        model,
        ...(speech
          ? {
              text,
              ...(voiceModeParam ? { voiceMode: voiceMode as 'text' | 'custom_voice' | 'voice_design' } : {}),
              ...(voiceMode === 'custom_voice' ? { speaker } : {}),
              ...(voiceMode === 'voice_design' ? { instruct } : {}),
            }
          : { ...(prompt.trim() ? { prompt } : {}) }),
        ...(profile === 'foley' && video ? { videoFileId: video.fileId } : {}),
        ...(secondsParam && int(seconds) !== undefined ? { seconds: int(seconds) } : {}),
        ...(int(seed) !== undefined ? { seed: int(seed) } : {}),
      }),
    );
  };

  return (
    <PanelScaffold
      id="audio"
      title={t('playground.audio.title')}
      hint={t('playground.audio.hint')}
      panel={panel}
      options={
        <span className="badge" data-testid="audio-profile">
          {t(`playground.audio.profile.${profile === 'music' || profile === 'foley' ? profile : 'speech'}`)}
        </span>
      }
      runLabel={t('playground.audio.run')}
      onRun={() => void run()}
      renderResult={(result) => <GenerationResultView result={result} kind="audio" testId="audio-result" />}
    >
      {profile === 'speech' ? (
        <>
          {voiceModeParam ? (
            <div className="segmented" role="radiogroup" aria-label={t('playground.audio.voiceMode')}>
              {(voiceModeParam.values ?? ['text']).map((v) => (
                <button
                  key={String(v)}
                  type="button"
                  role="radio"
                  aria-checked={voiceMode === v}
                  className="segment"
                  data-state={voiceMode === v ? 'checked' : 'unchecked'}
                  data-testid={`audio-mode-${String(v)}`}
                  onClick={() => setVoiceMode(String(v))}
                >
                  {t(`playground.audio.mode.${String(v)}`, { defaultValue: String(v) })}
                </button>
              ))}
            </div>
          ) : null}
          <label className="pg-field">
            <span className="field-label">
              {t('playground.audio.text')}{' '}
              <Counter testId="audio-text-count" value={codePoints(text)} max={textMax} />
            </span>
            <textarea
              data-testid="audio-text"
              rows={3}
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          {voiceMode === 'custom_voice' ? (
            <label className="pg-field">
              <span className="field-label">{t('playground.audio.speaker')}</span>
              <select
                data-testid="audio-speaker"
                value={speaker}
                onChange={(e) => setSpeaker(e.target.value)}
              >
                <option value="">{t('playground.audio.chooseSpeaker')}</option>
                {voices.map((v) => (
                  <option key={v.voiceId} value={v.voiceId}>
                    {v.displayName}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {voiceMode === 'voice_design' ? (
            <label className="pg-field">
              <span className="field-label">
                {t('playground.audio.instruct')}{' '}
                <Counter testId="audio-instruct-count" value={codePoints(instruct)} max={instructMax} />
              </span>
              <input
                data-testid="audio-instruct"
                value={instruct}
                onChange={(e) => setInstruct(e.target.value)}
              />
            </label>
          ) : null}
          <h3>{t('playground.audio.voices')}</h3>
          <ul className="pg-voices" data-testid="audio-voices">
            {voices.map((v) => (
              <li key={v.voiceId}>
                <strong>{v.displayName}</strong>{' '}
                <span className="muted">{v.supportedLanguages.join(', ')}</span> {v.description}{' '}
                {v.hasPreview ? (
                  <button
                    type="button"
                    className="button"
                    data-testid={`voice-preview-${v.voiceId}`}
                    onClick={() => void playPreview(v.voiceId)}
                  >
                    {t('playground.audio.preview')}
                  </button>
                ) : null}
                {preview?.voiceId === v.voiceId ? (
                  <audio src={preview.url} controls autoPlay data-testid="voice-preview-audio" />
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <label className="pg-field">
          <span className="field-label">{t('playground.audio.prompt')}</span>
          <textarea
            data-testid="audio-prompt"
            rows={2}
            value={prompt}
            onChange={(e) => setPrompt(e.target.value)}
          />
        </label>
      )}
      {profile === 'foley' ? (
        <div className="pg-row">
          <FileDrop
            testId="audio-video"
            accept="video/mp4"
            label={t('playground.audio.video')}
            onFiles={([f]) => void panel.attempt(async () => setVideo(await sendPlaygroundFile(f!)))}
          />
          <span data-testid="audio-video-name">{video?.fileName}</span>
        </div>
      ) : null}
      <div className="pg-row">
        {secondsParam ? (
          <NumberField
            testId="audio-seconds"
            label={`${t('playground.audio.seconds')}${
              secondsParam.minimum !== undefined
                ? ` (${secondsParam.minimum}–${secondsParam.maximum ?? ''})`
                : ''
            }`}
            value={seconds}
            onChange={setSeconds}
          />
        ) : null}
        {paramOf(service, 'seed') ? (
          <NumberField
            testId="audio-seed"
            label={t('playground.common.seed')}
            value={seed}
            onChange={setSeed}
          />
        ) : null}
      </div>
    </PanelScaffold>
  );
}
