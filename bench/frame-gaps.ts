import type { Page } from '@playwright/test';

/** Browser globals used inside page functions (this file is type-checked without the DOM library). */
interface FramePage {
  __gaps: number[];
}

/**
 * Records the gap before every animation frame. Passed as source text: tsx (esbuild's keepNames)
 * would wrap a named inner function in a `__name` helper the page does not have.
 */
const FRAME_CLOCK = `(() => {
  window.__gaps = [];
  window.__last = performance.now();
  const tick = (now) => {
    window.__gaps.push(now - window.__last);
    window.__last = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})()`;

/** Starts recording the page's frame gaps (the queue's scroll, the timeline's drags). */
export async function startFrameClock(page: Page): Promise<void> {
  await page.evaluate(FRAME_CLOCK);
}

/** The gaps recorded since the last take (the first one, which spans the evaluate call, left out). */
export function takeFrameGaps(page: Page): Promise<number[]> {
  return page.evaluate(() => {
    const w = globalThis as unknown as FramePage;
    const gaps = w.__gaps.slice(1);
    w.__gaps = [];
    return gaps;
  });
}
