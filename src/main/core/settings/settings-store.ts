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
