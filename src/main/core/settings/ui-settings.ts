import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UiSettings } from '../../../shared/bridge/contract.js';

export const DEFAULT_UI_SETTINGS: UiSettings = { theme: 'system', locale: 'system' };

export interface SettingsStore {
  get(): UiSettings;
  update(patch: Partial<UiSettings>): UiSettings;
}

/**
 * UI settings kept in `<dataDir>/settings.json`, written atomically (temp file + rename).
 * A corrupt or foreign file is ignored in favour of the defaults, never fatal.
 *
 * The one settings home: the look of the app (theme, language) lives here; everything the core's
 * work depends on is a journal setting read through the feature that owns it (the library folder:
 * `features/library/library-folders.ts`; the active profile: `profiles/profile-directory.ts`; the
 * studio's wait). The UI settings are a file beside the journal, not rows in it, so that they are
 * independent of it: a damaged journal moved aside (a fresh one starts empty) or one written by a
 * newer Framewright leaves the language and theme as the user chose, and they need no migration.
 * Nothing is read before the journal opens: the host opens the journal first and this file after.
 */
export function createFileSettingsStore(dataDir: string): SettingsStore {
  const file = path.join(dataDir, 'settings.json');
  const read = (): UiSettings => {
    if (!existsSync(file)) return { ...DEFAULT_UI_SETTINGS };
    try {
      const parsed = UiSettings.partial().safeParse(JSON.parse(readFileSync(file, 'utf8')));
      return { ...DEFAULT_UI_SETTINGS, ...(parsed.success ? parsed.data : {}) };
    } catch {
      return { ...DEFAULT_UI_SETTINGS };
    }
  };
  let current = read();
  return {
    get: () => ({ ...current }),
    update(patch) {
      current = UiSettings.parse({ ...current, ...patch });
      mkdirSync(dataDir, { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(current, null, 2));
      renameSync(tmp, file);
      return { ...current };
    },
  };
}
