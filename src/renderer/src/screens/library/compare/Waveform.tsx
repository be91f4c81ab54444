import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { waveformPeaks } from './waveform-peaks';

const COLUMNS = 600;
const HEIGHT = 120;

type Decoded =
  { state: 'loading' } | { state: 'drawn'; duration: number } | { state: 'failed'; message: string };

/**
 * An audio result's waveform, drawn on a canvas from its decoded samples, with a play head at
 * `time`. A click or a key (←/→) moves the shared clock there. Keyed by `url` by its parent (a
 * new file is a new waveform).
 */
export function Waveform({
  url,
  time,
  testId,
  label,
  onSeek,
}: {
  url: string;
  time: number;
  testId: string;
  label: string;
  onSeek(seconds: number): void;
}) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [decoded, setDecoded] = useState<Decoded>({ state: 'loading' });

  useEffect(() => {
    let cancelled = false;
    const context = new AudioContext();
    void (async () => {
      try {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        const audio = await context.decodeAudioData(await response.arrayBuffer());
        if (cancelled) return;
        const channels = Array.from({ length: audio.numberOfChannels }, (_, i) => audio.getChannelData(i));
        const peaks = waveformPeaks(channels, COLUMNS);
        const c = canvas.current;
        const g = c?.getContext('2d');
        if (c && g) {
          const color = getComputedStyle(c).color || '#888';
          g.clearRect(0, 0, c.width, c.height);
          g.fillStyle = color;
          const mid = c.height / 2;
          peaks.forEach((p, x) => {
            const top = mid - p.max * mid;
            const bottom = mid - p.min * mid;
            g.fillRect(x, top, 1, Math.max(1, bottom - top));
          });
        }
        setDecoded({ state: 'drawn', duration: audio.duration });
      } catch (e) {
        if (!cancelled) setDecoded({ state: 'failed', message: e instanceof Error ? e.message : String(e) });
      } finally {
        void context.close().catch(() => undefined);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [url]);

  const duration = decoded.state === 'drawn' ? decoded.duration : 0;
  const at = duration > 0 ? Math.min(1, time / duration) : 0;
  return (
    <div className="waveform">
      <canvas
        ref={canvas}
        className="waveform-canvas"
        width={COLUMNS}
        height={HEIGHT}
        data-testid={testId}
        data-state={decoded.state}
        role="slider"
        tabIndex={0}
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={Math.round(duration * 1000) / 1000}
        aria-valuenow={Math.round(time * 1000) / 1000}
        onClick={(e) => {
          if (!duration) return;
          const box = e.currentTarget.getBoundingClientRect();
          onSeek(((e.clientX - box.left) / box.width) * duration);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
            e.preventDefault();
            onSeek(Math.max(0, time + (e.key === 'ArrowLeft' ? -1 : 1)));
          }
        }}
      />
      <div className="waveform-head" style={{ left: `${at * 100}%` }} aria-hidden="true" />
      {decoded.state === 'failed' ? (
        <p role="alert" className="small">
          {t('studio.compare.waveformFailed', { message: decoded.message })}
        </p>
      ) : null}
    </div>
  );
}
