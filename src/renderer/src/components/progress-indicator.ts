import type { CSSProperties } from 'react';

/**
 * The classes and style of a progress bar's indicator: a known fraction slides the bar to it; an
 * unknown one (null) is the stylesheet's sweeping bar (`.progress-indeterminate`), never a made-up
 * fraction.
 */
export function progressIndicator(value: number | null): { className: string; style?: CSSProperties } {
  if (value === null) return { className: 'progress-indicator progress-indeterminate' };
  return { className: 'progress-indicator', style: { transform: `translateX(-${100 - value}%)` } };
}
