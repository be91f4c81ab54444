import { useCallback, useEffect, useRef, useState } from 'react';
import { stepFrame } from './frame-step';

export interface SyncedPlayback {
  /** Callback refs for A's and B's media element. */
  refA(el: HTMLMediaElement | null): void;
  refB(el: HTMLMediaElement | null): void;
  playing: boolean;
  /** A's clock, in seconds. */
  time: number;
  /** A's duration (0 until known). */
  duration: number;
  toggle(): void;
  seek(seconds: number): void;
  step(delta: number): void;
}

/** Further apart than this while playing, B is put back on A's clock. */
const DRIFT_SECONDS = 0.08;

/**
 * One transport for two media elements: A is the clock, B follows it. Play, pause and seek act on
 * A; B starts, stops and seeks with it, and is pulled back whenever it drifts while playing. Only
 * the side in `audible` (0 = A, 1 = B) is heard. The elements mount inside the dialog's portal
 * after this hook runs, so they arrive through callback refs.
 */
export function useSyncedPlayback(fps: number, audible: 0 | 1): SyncedPlayback {
  const aRef = useRef<HTMLMediaElement | null>(null);
  const bRef = useRef<HTMLMediaElement | null>(null);
  const [mounted, setMounted] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);

  const refA = useCallback((el: HTMLMediaElement | null) => {
    if (aRef.current === el) return;
    aRef.current = el;
    setMounted((n) => n + 1);
  }, []);
  const refB = useCallback((el: HTMLMediaElement | null) => {
    if (bRef.current === el) return;
    bRef.current = el;
    setMounted((n) => n + 1);
  }, []);

  useEffect(() => {
    const a = aRef.current;
    const b = bRef.current;
    if (a) a.muted = audible !== 0;
    if (b) b.muted = audible !== 1;
  }, [audible, mounted]);

  useEffect(() => {
    const a = aRef.current;
    const b = bRef.current;
    if (!a) return;
    const follow = (force: boolean) => {
      if (!b) return;
      const target = Number.isFinite(b.duration) ? Math.min(a.currentTime, b.duration) : a.currentTime;
      if (force || Math.abs(b.currentTime - target) > DRIFT_SECONDS) b.currentTime = target;
    };
    let frame = 0;
    const tick = () => {
      setTime(a.currentTime);
      follow(false);
      if (!a.paused) frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      follow(true);
      if (b && a.currentTime < (b.duration || Infinity)) void b.play().catch(() => undefined);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onPause = () => {
      setPlaying(false);
      b?.pause();
      follow(true);
      setTime(a.currentTime);
    };
    const onSeeked = () => {
      setTime(a.currentTime);
      follow(true);
    };
    const onTimeUpdate = () => {
      setTime(a.currentTime);
      follow(false);
    };
    const onDuration = () => setDuration(Number.isFinite(a.duration) ? a.duration : 0);
    // the element may have loaded before it was bound: read where it stands once
    const first = requestAnimationFrame(() => {
      onDuration();
      setTime(a.currentTime);
      setPlaying(!a.paused);
    });
    const listeners: [string, () => void][] = [
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onPause],
      ['seeked', onSeeked],
      ['timeupdate', onTimeUpdate],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
    ];
    for (const [event, listener] of listeners) a.addEventListener(event, listener);
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(frame);
      for (const [event, listener] of listeners) a.removeEventListener(event, listener);
    };
  }, [mounted]);

  const toggle = useCallback(() => {
    const a = aRef.current;
    if (!a) return;
    if (a.paused) void a.play().catch(() => undefined);
    else a.pause();
  }, []);

  const seek = useCallback((seconds: number) => {
    const a = aRef.current;
    if (!a) return;
    a.currentTime = Math.max(0, Math.min(seconds, Number.isFinite(a.duration) ? a.duration : seconds));
    setTime(a.currentTime);
  }, []);

  const step = useCallback(
    (delta: number) => {
      const a = aRef.current;
      if (!a) return;
      a.pause();
      a.currentTime = stepFrame(a.currentTime, fps, delta, a.duration);
      setTime(a.currentTime);
    },
    [fps],
  );

  return { refA, refB, playing, time, duration, toggle, seek, step };
}
