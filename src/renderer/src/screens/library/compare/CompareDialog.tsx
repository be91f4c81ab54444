import { Dialog } from 'radix-ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JobDetail, JobView } from '../../../../../shared/bridge/contract';
import { useStudio } from '../../../store';
import { formatClock, frameAt, fpsOf } from './frame-step';
import { PromptDiffView } from './PromptDiffView';
import { SettingsTable } from './SettingsTable';
import { useSyncedPlayback } from './use-synced-playback';
import { Waveform } from './Waveform';

type Kind = 'video' | 'image' | 'audio';
type Layout = 'side' | 'wipe';

const kindOf = (mimeType: string | null | undefined): Kind =>
  mimeType?.startsWith('image/') ? 'image' : mimeType?.startsWith('audio/') ? 'audio' : 'video';

const SIDES = ['A', 'B'] as const;

/** What the job was asked to make: its prompt, or the text a speech job was asked to say. */
const promptOf = (d: JobDetail): string =>
  d.prompt || (typeof d.requested.text === 'string' ? d.requested.text : '');

/**
 * Two results and what made them differ: one transport for both (A is the clock, B follows),
 * frame stepping at A's effective fps, side by side or as an A/B wipe, waveforms for audio, a
 * word-level diff of the prompts and a table of every setting that differs.
 */
export function CompareDialog({ a, b, onClose }: { a: JobView; b: JobView; onClose(): void }) {
  const { t } = useTranslation();
  const jobDetail = useStudio((s) => s.jobDetail);
  const [details, setDetails] = useState<[JobDetail, JobDetail] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [layout, setLayout] = useState<Layout>('side');
  const [wipe, setWipe] = useState(50);
  const [listen, setListen] = useState<0 | 1>(0);
  const dragging = useRef(false);

  useEffect(() => {
    let cancelled = false;
    Promise.all([jobDetail(a.rowId), jobDetail(b.rowId)]).then(
      (pair) => !cancelled && setDetails(pair),
      (e: unknown) => !cancelled && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      cancelled = true;
    };
  }, [a.rowId, b.rowId, jobDetail]);

  const fps = fpsOf(details?.[0].effectiveSpec);
  const playback = useSyncedPlayback(fps, listen);

  const jobs = [a, b] as const;
  const outputs = jobs.map((j) => j.outputs.find((o) => o.verified));
  const kinds = outputs.map((o) => kindOf(o?.mimeType)) as [Kind, Kind];
  const timed = kinds.some((k) => k !== 'image');
  const steppable = kinds[0] === 'video';
  const canWipe = kinds.every((k) => k !== 'audio');
  const shownLayout: Layout = canWipe ? layout : 'side';

  const moveWipe = (clientX: number, box: DOMRect) =>
    setWipe(Math.round(Math.max(0, Math.min(100, ((clientX - box.left) / box.width) * 100))));

  const media = (i: 0 | 1) => {
    const url = outputs[i]?.mediaUrl ?? '';
    const testId = `compare-player-${i}`;
    const ref = i === 0 ? playback.refA : playback.refB;
    if (kinds[i] === 'image') return <img className="player" src={url} alt="" data-testid={testId} />;
    if (kinds[i] === 'audio')
      return (
        <>
          <Waveform
            key={url}
            url={url}
            time={playback.time}
            testId={`compare-waveform-${i}`}
            label={t('studio.compare.waveform', { side: SIDES[i] })}
            onSeek={playback.seek}
          />
          <audio ref={ref} src={url} preload="auto" data-testid={testId} />
        </>
      );
    return <video ref={ref} className="player" src={url} preload="auto" playsInline data-testid={testId} />;
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog-content dialog-wide"
          data-testid="library-compare"
          aria-describedby={undefined}
        >
          <Dialog.Title>{t('studio.library.compare')}</Dialog.Title>
          {canWipe ? (
            <div className="row" role="group" aria-label={t('studio.compare.layout')}>
              {(['side', 'wipe'] as const).map((l) => (
                <button
                  key={l}
                  type="button"
                  className={`button ${shownLayout === l ? '' : 'button-secondary'}`}
                  aria-pressed={shownLayout === l}
                  data-testid={`compare-layout-${l}`}
                  onClick={() => setLayout(l)}
                >
                  {t(l === 'side' ? 'studio.compare.layoutSide' : 'studio.compare.layoutWipe')}
                </button>
              ))}
            </div>
          ) : null}
          <div
            className={`compare-stage compare-stage-${shownLayout}`}
            data-testid="compare-stage"
            data-layout={shownLayout}
            onPointerDown={(e) => {
              if (shownLayout !== 'wipe') return;
              dragging.current = true;
              e.currentTarget.setPointerCapture(e.pointerId);
              moveWipe(e.clientX, e.currentTarget.getBoundingClientRect());
            }}
            onPointerMove={(e) => {
              if (dragging.current) moveWipe(e.clientX, e.currentTarget.getBoundingClientRect());
            }}
            onPointerUp={() => (dragging.current = false)}
            onPointerCancel={() => (dragging.current = false)}
          >
            {([0, 1] as const).map((i) => (
              <figure
                key={jobs[i].rowId}
                className={`compare-pane compare-pane-${i}`}
                data-testid={`compare-pane-${i}`}
                style={i === 1 && shownLayout === 'wipe' ? { clipPath: `inset(0 0 0 ${wipe}%)` } : undefined}
              >
                {media(i)}
                <figcaption className="small">
                  <strong>{SIDES[i]}</strong> · {jobs[i].model} · #{jobs[i].rowId}
                </figcaption>
              </figure>
            ))}
            {shownLayout === 'wipe' ? (
              <div className="wipe-divider" style={{ left: `${wipe}%` }} aria-hidden="true" />
            ) : null}
          </div>
          {shownLayout === 'wipe' ? (
            <input
              type="range"
              className="wipe-slider"
              min={0}
              max={100}
              step={1}
              value={wipe}
              aria-label={t('studio.compare.wipe')}
              aria-valuetext={`A ${wipe}% · B ${100 - wipe}%`}
              data-testid="compare-wipe"
              onChange={(e) => setWipe(Number(e.target.value))}
            />
          ) : null}
          {timed ? (
            <div className="compare-transport row">
              <button
                type="button"
                className="button"
                data-testid={playback.playing ? 'compare-pause' : 'compare-play'}
                onClick={playback.toggle}
              >
                {playback.playing ? t('studio.library.syncPause') : t('studio.library.syncPlay')}
              </button>
              {steppable ? (
                <>
                  <button
                    type="button"
                    className="button button-secondary"
                    data-testid="compare-step-back"
                    aria-label={t('studio.compare.stepBackLabel')}
                    onClick={() => playback.step(-1)}
                  >
                    {t('studio.compare.stepBack')}
                  </button>
                  <button
                    type="button"
                    className="button button-secondary"
                    data-testid="compare-step-forward"
                    aria-label={t('studio.compare.stepForwardLabel')}
                    onClick={() => playback.step(1)}
                  >
                    {t('studio.compare.stepForward')}
                  </button>
                </>
              ) : null}
              <input
                type="range"
                className="compare-seek"
                min={0}
                max={playback.duration || 0}
                step={1 / fps}
                value={Math.min(playback.time, playback.duration || 0)}
                aria-label={t('studio.compare.seek')}
                data-testid="compare-seek"
                onChange={(e) => playback.seek(Number(e.target.value))}
              />
              <output
                className="small compare-time"
                data-testid="compare-time"
                data-seconds={playback.time}
                data-frame={frameAt(playback.time, fps)}
                aria-live="off"
              >
                {steppable
                  ? t('studio.compare.time', {
                      clock: formatClock(playback.time),
                      frame: frameAt(playback.time, fps),
                      fps,
                    })
                  : formatClock(playback.time)}
              </output>
              <span className="small" role="group" aria-label={t('studio.compare.listen')}>
                {t('studio.compare.listen')}{' '}
                {([0, 1] as const).map((i) => (
                  <label key={i}>
                    <input
                      type="radio"
                      name="compare-listen"
                      data-testid={`compare-listen-${i}`}
                      checked={listen === i}
                      onChange={() => setListen(i)}
                    />{' '}
                    {SIDES[i]}{' '}
                  </label>
                ))}
              </span>
            </div>
          ) : null}
          {error ? <p role="alert">{t('errors.generic', { message: error })}</p> : null}
          {details ? (
            <>
              <PromptDiffView a={promptOf(details[0])} b={promptOf(details[1])} />
              <SettingsTable a={details[0]} b={details[1]} />
            </>
          ) : error ? null : (
            <p className="muted small">{t('studio.compare.loading')}</p>
          )}
          <div className="row">
            <Dialog.Close className="button button-secondary">{t('studio.library.close')}</Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
