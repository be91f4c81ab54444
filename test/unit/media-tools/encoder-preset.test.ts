import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { ExitCode } from '../../../src/cli/exit-codes.js';
import {
  DEFAULT_ENCODER_PRESET,
  ENCODER_PRESETS,
  ENCODER_PRESET_ENV,
  encoderPresetFromEnv,
  filmMp4Output,
} from '../../../src/main/core/media-tools/film-encoding.js';
import { MediaSettingError } from '../../../src/main/core/media-tools/media-setting-error.js';

/** The value that follows `-preset` in ffmpeg's arguments. */
const presetIn = (args: string[]) => args[args.indexOf('-preset') + 1];

describe('FRAMEWRIGHT_ENCODER_PRESET: the x264 speed of the films, deliveries and cuts', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is veryfast when unset or empty: the product default does not change', () => {
    expect(DEFAULT_ENCODER_PRESET).toBe('veryfast');
    expect(encoderPresetFromEnv({})).toBe('veryfast');
    expect(encoderPresetFromEnv({ [ENCODER_PRESET_ENV]: '' })).toBe('veryfast');
    expect(encoderPresetFromEnv({ [ENCODER_PRESET_ENV]: '  ' })).toBe('veryfast');
    vi.stubEnv(ENCODER_PRESET_ENV, '');
    expect(presetIn(filmMp4Output(4, '/tmp/film.mp4'))).toBe('veryfast');
  });

  it('takes each of the six presets, from ultrafast to medium', () => {
    expect(ENCODER_PRESETS).toEqual(['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium']);
    for (const preset of ENCODER_PRESETS)
      expect(encoderPresetFromEnv({ [ENCODER_PRESET_ENV]: ` ${preset} ` })).toBe(preset);
  });

  it('is what the film encoder passes to x264', () => {
    vi.stubEnv(ENCODER_PRESET_ENV, 'ultrafast');
    const args = filmMp4Output(4, '/tmp/film.mp4');
    expect(presetIn(args)).toBe('ultrafast');
    // the rest of the encoding is the operator's choice of nothing else
    expect(args.slice(0, 8)).toEqual([
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-crf',
      '20',
      '-pix_fmt',
      'yuv420p',
    ]);
    expect(presetIn(filmMp4Output(4, '/tmp/film.mp4', 'medium'))).toBe('medium');
  });

  it('refuses any other value, naming the setting and the values it takes', () => {
    for (const wrong of ['placebo', 'slow', 'Ultrafast', 'veryfast,ultrafast', '1'])
      expect(() => encoderPresetFromEnv({ [ENCODER_PRESET_ENV]: wrong })).toThrow(
        new MediaSettingError(
          'FRAMEWRIGHT_ENCODER_PRESET must be one of ultrafast, superfast, veryfast, faster, fast, medium (default veryfast).',
        ),
      );
  });

  it('stops the CLI at start with exit code 2 and one line on stderr', async () => {
    vi.stubEnv(ENCODER_PRESET_ENV, 'placebo');
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(await runCli(['node', 'framewright', '--version'])).toBe(ExitCode.invalidInput);
      expect(stderr).toHaveBeenCalledWith(
        expect.stringMatching(/^framewright: FRAMEWRIGHT_ENCODER_PRESET must be one of ultrafast, /),
      );
    } finally {
      stderr.mockRestore();
    }
  });
});
