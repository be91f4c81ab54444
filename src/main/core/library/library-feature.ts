import { statSync } from 'node:fs';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { Profile } from '../journal/profiles-repository.js';
import type { LibraryFolders } from './library-folders.js';
import { reindexLibrary, type ReindexResult } from './reindex-library.js';

export interface LibraryFeatureDeps {
  readonly journal: Journal;
  readonly folders: LibraryFolders;
  /** The profile of that id or name (a clear error names the profiles there are). */
  findProfile(idOrName: string): Profile;
}

/** The library's folders and the rebuild of a lost journal from the sidecars beside the results. */
export class LibraryFeature {
  constructor(private readonly deps: LibraryFeatureDeps) {}

  get folders(): LibraryFolders {
    return this.deps.folders;
  }

  /**
   * Rebuilds jobs from every library folder this data folder used (or `library` alone); jobs of
   * a personal profile lost with the old journal go to `assignTo` when it is named.
   */
  reindex(options: { library?: string; assignTo?: string } = {}): Promise<ReindexResult> {
    if (options.library !== undefined && !statSync(options.library, { throwIfNoEntry: false })?.isDirectory())
      throw new AppError('usage', `--library ${options.library} is not a folder.`);
    return reindexLibrary(this.deps.journal, {
      libraryDirs: options.library !== undefined ? [options.library] : this.deps.folders.all(),
      assignToProfileId:
        options.assignTo !== undefined ? this.deps.findProfile(options.assignTo).id : undefined,
    });
  }
}
