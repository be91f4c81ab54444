import type { SettingsRepository } from '../journal/settings-repository.js';

/** Journal settings: the library folder chosen in Settings and every folder used before. */
export const LIBRARY_SETTING = 'studio.libraryDir';
export const LIBRARY_HISTORY_SETTING = 'studio.libraryDirHistory';

/**
 * Where verified results go: the folder chosen in Settings, else `<dataDir>/library`. Every folder
 * used before stays known, because finished jobs keep absolute paths into it (the media route
 * serves them, `library reindex` reads them).
 */
export class LibraryFolders {
  constructor(
    private readonly settings: Pick<SettingsRepository, 'get' | 'set'>,
    private readonly defaultDir: string,
  ) {}

  /** The current library folder (read at each download, so a change applies to the next one). */
  current(): string {
    return this.settings.get<string>(LIBRARY_SETTING) ?? this.defaultDir;
  }

  /** Every library folder results were ever stored in, current first. */
  all(): string[] {
    const history = this.settings.get<string[]>(LIBRARY_HISTORY_SETTING) ?? [];
    return [...new Set([this.current(), this.defaultDir, ...history])];
  }

  /** Makes `folder` the library for new downloads (already checked by the caller). */
  use(folder: string): void {
    const history = this.settings.get<string[]>(LIBRARY_HISTORY_SETTING) ?? [];
    const previous = this.current();
    // the folders results were written to stay servable (their rows keep absolute paths)
    this.settings.set(LIBRARY_HISTORY_SETTING, [...new Set([...history, previous, folder])]);
    this.settings.set(LIBRARY_SETTING, folder);
  }
}
