/**
 * Delivery formats (issue 31), import-free so the renderer's safe-area preview and the core's
 * render read the same frames: each preset is a frame the assembled film is fitted into,
 * letterboxed (`pad`) or filled and cut to size (`crop`).
 */
export const DELIVERY_PRESETS = {
  '16x9': { label: '16:9', width: 1920, height: 1080 },
  '9x16': { label: '9:16', width: 1080, height: 1920 },
  '1x1': { label: '1:1', width: 1080, height: 1080 },
} as const;
export type DeliveryPresetName = keyof typeof DELIVERY_PRESETS;
export const DELIVERY_PRESET_NAMES = Object.keys(DELIVERY_PRESETS) as DeliveryPresetName[];

export const DELIVERY_FITS = ['pad', 'crop'] as const;
export type DeliveryFitName = (typeof DELIVERY_FITS)[number];

/** The loudness a delivery is normalized to (LUFS): −14 for the web, −23 for broadcast (EBU R128). */
export const WEB_LOUDNESS_LUFS = -14;
export const BROADCAST_LOUDNESS_LUFS = -23;
export const LOUDNESS_MIN_LUFS = -31;
export const LOUDNESS_MAX_LUFS = -9;

/**
 * The safe areas drawn over the preview, as fractions of the frame (SMPTE ST 2046-1): action
 * within the middle 93 %, titles within the middle 90 %.
 */
export const SAFE_AREAS = { action: 0.93, title: 0.9 } as const;

/**
 * Where a source picture of `source` size lands in a preset's frame: `pad` scales it to fit
 * inside (bars fill the rest), `crop` scales it to cover the frame (the overflow is cut), both
 * centred. In frame pixels.
 */
export function fittedPicture(
  source: { width: number; height: number },
  frame: { width: number; height: number },
  fit: DeliveryFitName,
): { x: number; y: number; width: number; height: number } {
  const scaleX = frame.width / source.width;
  const scaleY = frame.height / source.height;
  const scale = fit === 'pad' ? Math.min(scaleX, scaleY) : Math.max(scaleX, scaleY);
  const width = source.width * scale;
  const height = source.height * scale;
  return { x: (frame.width - width) / 2, y: (frame.height - height) / 2, width, height };
}
