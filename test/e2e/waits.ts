/**
 * How long an end-to-end test waits for work the core, the simulator or ffmpeg does: a generation,
 * a frame or a probe, an optimized prompt, an admission answer. A wait is always on a condition; this
 * is its limit, sized for the soak's loaded round (both cores busy with a CPU burner and the other
 * worker), where such work measured up to 20 s. A page's own state uses Playwright's default
 * (`expect.timeout` in playwright.config.ts).
 */
export const MEDIA_WAIT = 60_000;
