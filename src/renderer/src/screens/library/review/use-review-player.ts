import { useCallback, useEffect, useRef, useState } from 'react';
import { loopTarget, type LoopRange } from '../../../store/review-store';
import { stepFrame } from '../compare/frame-step';

export interface ReviewPlayback {
  /** Callback ref for the media element (video or audio; none for a still image). */
  ref(el: HTMLMediaElement | null): void;
  playing: boolean;
  time: number;
  duration: number;
  fps: number;
  toggle(): void;
  pause(): void;
  seek(seconds: number): void;
  step(delta: number): void;
}

const NO_LOOP: LoopRange = { a: null, b: null };

/**
 * One take's transport: play and pause, seek, a frame back or on at the take's rate, the speed
 * (0.25×–2×) and the loop between A and B (reaching B goes back to A). The element mounts inside a
 * dialog's portal, so it arrives through a callback ref.
 */
export function useReviewPlayer(fps: number, speed = 1, loop: LoopRange = NO_LOOP): ReviewPlayback {
  const el = useRef<HTMLMediaElement | null>(null);
  const [mounted, setMounted] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(0);
  const loopRef = useRef(loop);
  useEffect(() => {
    loopRef.current = loop;
  }, [loop]);

  const ref = useCallback((next: HTMLMediaElement | null) => {
    if (el.current === next) return;
    el.current = next;
    setMounted((n) => n + 1);
  }, []);

  useEffect(() => {
    if (el.current) el.current.playbackRate = speed;
  }, [speed, mounted]);

  useEffect(() => {
    const media = el.current;
    if (!media) {
      // a still image: no clock
      const reset = requestAnimationFrame(() => {
        setTime(0);
        setDuration(0);
        setPlaying(false);
      });
      return () => cancelAnimationFrame(reset);
    }
    let frame = 0;
    const keepInLoop = () => {
      const target = loopTarget(media.currentTime, loopRef.current);
      if (target !== null) media.currentTime = target;
    };
    const tick = () => {
      keepInLoop();
      setTime(media.currentTime);
      if (!media.paused) frame = requestAnimationFrame(tick);
    };
    const onPlay = () => {
      setPlaying(true);
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(tick);
    };
    const onPause = () => {
      setPlaying(false);
      setTime(media.currentTime);
    };
    const onEnded = () => {
      // a loop whose B is the very end plays on from A
      const { a, b } = loopRef.current;
      if (a !== null && b !== null && b > a) {
        media.currentTime = a;
        void media.play().catch(() => undefined);
      } else onPause();
    };
    const onSeeked = () => setTime(media.currentTime);
    const onDuration = () => {
      setDuration(Number.isFinite(media.duration) ? media.duration : 0);
      media.playbackRate = speed;
    };
    const first = requestAnimationFrame(() => {
      onDuration();
      setTime(media.currentTime);
      setPlaying(!media.paused);
    });
    const listeners: [string, () => void][] = [
      ['play', onPlay],
      ['pause', onPause],
      ['ended', onEnded],
      ['seeked', onSeeked],
      ['timeupdate', onSeeked],
      ['loadedmetadata', onDuration],
      ['durationchange', onDuration],
    ];
    for (const [event, listener] of listeners) media.addEventListener(event, listener);
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(frame);
      for (const [event, listener] of listeners) media.removeEventListener(event, listener);
    };
    // the speed is applied by its own effect; here only on a new element's metadata
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mounted]);

  const toggle = useCallback(() => {
    const media = el.current;
    if (!media) return;
    if (media.paused) void media.play().catch(() => undefined);
    else media.pause();
  }, []);

  const pause = useCallback(() => el.current?.pause(), []);

  const seek = useCallback((seconds: number) => {
    const media = el.current;
    if (!media) return;
    const end = Number.isFinite(media.duration) ? media.duration : seconds;
    media.currentTime = Math.max(0, Math.min(seconds, end));
    setTime(media.currentTime);
  }, []);

  const step = useCallback(
    (delta: number) => {
      const media = el.current;
      if (!media) return;
      media.pause();
      media.currentTime = stepFrame(media.currentTime, fps, delta, media.duration);
      setTime(media.currentTime);
    },
    [fps],
  );

  return { ref, playing, time, duration, fps, toggle, pause, seek, step };
}
