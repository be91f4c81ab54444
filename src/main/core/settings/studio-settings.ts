import { randomUUID } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { refuseMissing } from '../backends/capabilities.js';
import { AppError } from '../errors.js';
import type { SettingsRepository } from '../journal/settings-repository.js';
import { mediaUrl } from '../library/media-resolver.js';
import { DEFAULT_JOB_WAIT_SECONDS } from '../../../shared/wait-defaults.js';
import type { StudioHost } from '../library/studio-host.js';

const WAIT_SETTING = 'studio.waitSeconds';

export interface StudioSettingsDeps {
  settings: Pick<SettingsRepository, 'get' | 'set'>;
  /** The current library folder (read each time: the engine downloads there). */
  libraryDir: () => string;
  /** Makes an already checked folder the library for new downloads (and records it in the history). */
  setLibraryDir: (folder: string) => void;
  host: StudioHost;
  /** Whether the backend offers this machine's folders (off: no library folder is shown or chosen). */
  localFolders: boolean;
}

/** The studio's settings: the wait limit of one generation and the library folder. */
export class StudioSettings {
  constructor(private readonly d: StudioSettingsDeps) {}

  waitSeconds(): number {
    return this.d.settings.get<number>(WAIT_SETTING) ?? DEFAULT_JOB_WAIT_SECONDS;
  }

  setWaitSeconds(seconds: number): void {
    this.d.settings.set(WAIT_SETTING, seconds);
  }

  get() {
    return {
      waitSeconds: this.waitSeconds(),
      // a server's folder is not the person's to see (the platform deployment)
      libraryDir: this.d.localFolders ? this.d.libraryDir() : '',
      mediaBase: mediaUrl(this.d.host, ''),
    };
  }

  /** Validates everything first: a refused folder changes nothing (not even the wait limit). */
  async update(change: { waitSeconds?: number; libraryDir?: string }) {
    if (change.libraryDir !== undefined && !this.d.localFolders) refuseMissing('localFolders');
    const folder =
      change.libraryDir === undefined ? undefined : await this.checkLibraryDir(change.libraryDir);
    if (change.waitSeconds !== undefined) this.setWaitSeconds(change.waitSeconds);
    if (folder !== undefined && folder !== this.d.libraryDir()) this.d.setLibraryDir(folder);
    return this.get();
  }

  /**
   * Checks a folder the creator wants as the library: absolute, a folder that exists or can be
   * created, and writable. Returns the normalized path; throws a clear error otherwise (a folder
   * this check created is removed again, so a refusal changes nothing).
   */
  async checkLibraryDir(folder: string): Promise<string> {
    const refuse = (why: string): never => {
      throw new AppError('settings.library_dir_invalid', `The library folder "${folder}" ${why}`);
    };
    if (folder.includes('\0')) refuse('contains a NUL character.');
    if (!path.isAbsolute(folder)) refuse('is not an absolute path.');
    const target = path.resolve(folder);
    let created: string | undefined;
    try {
      created = await mkdir(target, { recursive: true });
    } catch (error) {
      refuse(`cannot be created (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
    try {
      if (!(await stat(target)).isDirectory()) refuse('is not a folder.');
      const probe = path.join(target, `.framewright-write-check-${randomUUID()}`);
      try {
        await writeFile(probe, '');
      } catch (error) {
        refuse(`is not writable (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
      }
      await rm(probe, { force: true });
    } catch (error) {
      if (created) await rm(created, { recursive: true, force: true });
      throw error;
    }
    return target;
  }
}
