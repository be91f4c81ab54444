import os from 'node:os';
import path from 'node:path';

/**
 * The app's data folder (journal, library, logs), the same folder Electron's `userData` points to
 * for product name "Framewright", so the desktop app, the browser host and the CLI share one journal.
 * `FRAMEWRIGHT_DATA_DIR` overrides it (tests, portable installs).
 */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  if (env.FRAMEWRIGHT_DATA_DIR) return path.resolve(env.FRAMEWRIGHT_DATA_DIR);
  const home = os.homedir();
  if (platform === 'win32')
    return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Framewright');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Framewright');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Framewright');
}
