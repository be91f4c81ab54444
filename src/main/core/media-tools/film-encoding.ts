/**
 * The film's encoding, shared by the assembly and the deliveries: how ffmpeg is started (no banner,
 * no stdin, errors only, overwrite) and the MP4 it writes (H.264 yuv420p / AAC 48 kHz stereo,
 * +faststart), with its `-progress` on stdout for `ffmpeg-run.ts`; and the x264 speed preset of
 * every H.264 encode of this process (films, deliveries, cuts), an operator's setting.
 */
import { MediaSettingError } from './media-setting-error.js';

/** The setting that names x264's speed preset for the assembly, the deliveries and the cuts. */
export const ENCODER_PRESET_ENV = 'FRAMEWRIGHT_ENCODER_PRESET';
/**
 * The x264 presets an operator may choose, fastest first: a faster one spends less CPU per film
 * for a somewhat larger file at the same quality setting (CRF).
 */
export const ENCODER_PRESETS = ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'] as const;
export type EncoderPreset = (typeof ENCODER_PRESETS)[number];
/** The preset when the setting is unset or empty. */
export const DEFAULT_ENCODER_PRESET: EncoderPreset = 'veryfast';

/**
 * The x264 preset from `FRAMEWRIGHT_ENCODER_PRESET` (default `veryfast`); any other value than
 * {@link ENCODER_PRESETS} throws {@link MediaSettingError} rather than being ignored. The desktop
 * app, the core's opening and the CLI call it at start, so a wrong value stops them there.
 */
export function encoderPresetFromEnv(env: NodeJS.ProcessEnv = process.env): EncoderPreset {
  const raw = env[ENCODER_PRESET_ENV]?.trim();
  if (!raw) return DEFAULT_ENCODER_PRESET;
  const preset = ENCODER_PRESETS.find((known) => known === raw);
  if (!preset)
    throw new MediaSettingError(
      `${ENCODER_PRESET_ENV} must be one of ${ENCODER_PRESETS.join(', ')} (default ${DEFAULT_ENCODER_PRESET}).`,
    );
  return preset;
}

/** ffmpeg's first arguments: no banner, no stdin, errors only, overwrite the output. */
export const FFMPEG_QUIET = ['-hide_banner', '-nostdin', '-v', 'error', '-y'];

/**
 * The output half of ffmpeg's arguments: H.264 (the operator's preset, default veryfast; CRF 20,
 * yuv420p) and AAC (192k, stereo, 48 kHz), exactly `durationSeconds` long, +faststart MP4 at
 * `outPath`, progress on stdout.
 */
export function filmMp4Output(
  durationSeconds: number,
  outPath: string,
  preset: EncoderPreset = encoderPresetFromEnv(),
): string[] {
  return [
    '-c:v',
    'libx264',
    '-preset',
    preset,
    '-crf',
    '20',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-b:a',
    '192k',
    '-ac',
    '2',
    '-ar',
    '48000',
    '-t',
    durationSeconds.toFixed(3),
    '-movflags',
    '+faststart',
    '-progress',
    'pipe:1',
    '-nostats',
    '-f',
    'mp4',
    outPath,
  ];
}
