import { useEffect, useRef } from 'react';
import { decodedSound, peaksOf } from './sound-cache';

/** A canvas is never wider than this (a zoomed-in clip's canvas is stretched by CSS). */
const MAX_CANVAS = 2048;

/** A sound clip's waveform: `seconds` of the file from `fromSeconds`, drawn across the clip. */
export function SoundWave({
  url,
  width,
  height,
  fromSeconds = 0,
  seconds,
}: {
  url: string | null;
  width: number;
  height: number;
  fromSeconds?: number;
  seconds?: number;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const columns = Math.max(1, Math.min(MAX_CANVAS, Math.round(width)));
  useEffect(() => {
    if (!url) return undefined;
    let live = true;
    void decodedSound(url).then((buffer) => {
      const c = canvas.current;
      const g = c?.getContext('2d');
      if (!live || !buffer || !c || !g) return;
      const peaks = peaksOf(buffer, columns, fromSeconds, seconds ?? buffer.duration - fromSeconds);
      g.clearRect(0, 0, c.width, c.height);
      g.fillStyle = getComputedStyle(c).color;
      const mid = c.height / 2;
      peaks.forEach((p, x) => g.fillRect(x, mid - p.max * mid, 1, Math.max(1, (p.max - p.min) * mid)));
    });
    return () => {
      live = false;
    };
  }, [url, columns, fromSeconds, seconds]);
  return (
    <canvas
      ref={canvas}
      className="timeline-wave"
      width={columns}
      height={height}
      style={{ width: `${width}px`, height: `${height}px` }}
      aria-hidden="true"
    />
  );
}
