import { encoderPresetFromEnv } from './film-encoding.js';
import { mediaPriorityFromEnv } from './tool-priority.js';

export { MediaSettingError } from './media-setting-error.js';

/**
 * Checks the media tools' settings (`FRAMEWRIGHT_ENCODER_PRESET`, `FRAMEWRIGHT_MEDIA_PRIORITY`) at
 * start: the CLI (and so `serve --platform`) and the core's opening call it, so a wrong value stops
 * them there, naming the setting, rather than failing a first film later.
 */
export function checkMediaSettings(env: NodeJS.ProcessEnv = process.env): void {
  encoderPresetFromEnv(env);
  mediaPriorityFromEnv(env);
}
