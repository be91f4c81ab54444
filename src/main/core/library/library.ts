import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import type { JobView } from '../../../shared/bridge/domains/studio.js';
import { AppError } from '../errors.js';
import { removeJobFolder } from '../jobs/download-outputs.js';
import type { Job, JobsRepository, ListedJob } from '../journal/jobs-repository.js';
import type { NotesRepository } from '../journal/notes-repository.js';
import type { CollectionsRepository } from '../journal/collections-repository.js';
import type { MarksRepository } from '../journal/marks-repository.js';
import {
  byRating,
  MAX_STARS,
  type LibrarySort,
  type JobMarks,
  type MarkFlag,
  type MarkFlagFilter,
  type MarkLabel,
} from '../../../shared/library-marks.js';
import type { JobViews } from './job-views.js';
import type { SidecarWrites } from './sidecar-writes.js';
import { REVIEW_PACKAGES_DIR } from './review-packages.js';
import type { StudioHost } from './studio-host.js';

export interface StudioLibraryDeps {
  jobs: Pick<JobsRepository, 'searchJobs' | 'listJobs' | 'deleteJob' | 'getJob'>;
  views: JobViews;
  /** Every library folder results were ever stored in (current first). */
  libraryDirs: () => string[];
  host: StudioHost;
  /** Opens a folder in the system's file manager (only the desktop app does). */
  openFolder?: (folder: string) => Promise<boolean>;
  /** The person's marks on results (issue 41). */
  marks: Pick<MarksRepository, 'get' | 'set'>;
  /** The results whose notes match a search (issue 41). */
  notes: Pick<NotesRepository, 'jobsWithText'>;
  /** A collection's results, for the Library filtered to it (issue 41). */
  collections: Pick<CollectionsRepository, 'get'>;
  /** Each result's sidecar, written again after a change of its marks. */
  sidecars: Pick<SidecarWrites, 'rewrite'>;
}

/** A change of a result's marks: each field given replaces that mark, the others stay. */
export interface MarksChange {
  jobRowId: number;
  flag?: MarkFlag | null;
  stars?: number;
  label?: MarkLabel | null;
}

/** The Library's filters by marks. */
export interface MarksFilter {
  flag?: MarkFlagFilter;
  minStars?: number;
  label?: MarkLabel;
}

/** The Library: verified results, searched, deleted (rows then files) and revealed. */
export class StudioLibrary {
  constructor(private readonly d: StudioLibraryDeps) {}

  list(
    filter: {
      profileId?: string;
      model?: string;
      mode?: string;
      status?: Job['status'];
      from?: number;
      to?: number;
      query?: string;
      collectionId?: string;
      sort?: LibrarySort;
    } & MarksFilter,
  ): { items: JobView[] } {
    const kept = this.candidates(filter)
      .filter((j) => (filter.status ? j.status === filter.status : j.status === 'succeeded'))
      .filter((j) => !filter.profileId || j.profileId === filter.profileId)
      .filter((j) => !filter.model || j.model === filter.model)
      .filter((j) => filter.from === undefined || j.acceptedAt >= filter.from)
      .filter((j) => filter.to === undefined || j.acceptedAt <= filter.to);
    const items = this.d.views
      .jobViews(kept)
      .filter((v) => !filter.mode || v.generationMode === filter.mode)
      .filter((v) => filter.status !== undefined || v.outputs.some((o) => o.verified))
      .filter((v) => marksMatch(v.marks, filter));
    return { items: filter.sort === 'rating' ? byRating(items) : items };
  }

  /**
   * The jobs a listing starts from: a collection's, in its order; those whose prompt or notes
   * match the search (prompts first, newest first); else the newest of the status asked.
   */
  private candidates(filter: {
    profileId?: string;
    status?: Job['status'];
    query?: string;
    collectionId?: string;
  }): ListedJob[] {
    const query = filter.query?.trim();
    if (filter.collectionId !== undefined) {
      const collection = this.d.collections.get(filter.collectionId);
      if (!collection) throw new AppError('collection.not_found', 'There is no such collection.');
      const inIt = collection.jobRowIds.flatMap((id) => this.d.jobs.getJob(id) ?? []);
      if (!query) return inIt;
      const matching = new Set(this.searched(query, filter.profileId).map((j) => j.id));
      return inIt.filter((j) => matching.has(j.id));
    }
    if (query) return this.searched(query, filter.profileId);
    return this.d.jobs.listJobs({
      profileId: filter.profileId,
      status: filter.status ?? 'succeeded',
      limit: 500,
    }).items;
  }

  /** The jobs whose prompt has the search's words (newest first), then those whose notes hold it. */
  private searched(query: string, profileId: string | undefined): ListedJob[] {
    const byPrompt = this.d.jobs.searchJobs(query, { profileId, limit: 500 });
    const seen = new Set(byPrompt.map((j) => j.id));
    const byNote = this.d.notes
      .jobsWithText(query)
      .filter((id) => !seen.has(id))
      .flatMap((id) => this.d.jobs.getJob(id) ?? []);
    return [...byPrompt, ...byNote];
  }

  /**
   * Marks a result: the journal first (the Library shows it at once), then its sidecar, so
   * `library reindex` restores the marks. Only a result the library holds (succeeded) is marked.
   */
  async mark(change: MarksChange): Promise<JobView> {
    const job = this.d.views.requireJob(change.jobRowId);
    if (job.status !== 'succeeded')
      throw new AppError('library.not_a_result', 'Only a finished result of the library can be marked.');
    if (
      change.stars !== undefined &&
      !(Number.isInteger(change.stars) && change.stars >= 0 && change.stars <= MAX_STARS)
    )
      throw new AppError('usage', `Stars are a whole number from 0 to ${MAX_STARS}.`);
    const before = this.d.marks.get(job.id);
    this.d.marks.set(job.id, {
      flag: change.flag === undefined ? before.flag : change.flag,
      stars: change.stars ?? before.stars,
      label: change.label === undefined ? before.label : change.label,
    });
    await this.d.sidecars.rewrite(job.id);
    // the job's row is as read above: its view reads the marks just set
    return this.d.views.jobView(job);
  }

  /** Deletes a finished result: its journal rows first (so it leaves the library at once), then its files. */
  async deleteResult(jobRowId: number): Promise<{ deleted: boolean; filesRemoved: number }> {
    const job = this.d.views.requireJob(jobRowId);
    const libraries = await Promise.all(this.d.libraryDirs().map((dir) => realpath(dir).catch(() => dir)));
    const folders = new Set<string>();
    const files: string[] = [];
    for (const output of job.outputs) {
      for (const root of libraries) files.push(path.join(root, '.posters', `output-${output.id}.png`));
      if (!output.localPath) continue;
      const real = await realpath(output.localPath).catch(() => undefined);
      const library = real && libraries.find((root) => real.startsWith(root + path.sep));
      if (!real || !library) continue;
      files.push(real);
      const folder = path.dirname(real);
      if (folder !== library && folder.startsWith(library + path.sep)) folders.add(folder);
    }
    let deleted: boolean;
    try {
      deleted = this.d.jobs.deleteJob(jobRowId);
    } catch (error) {
      throw new AppError('library.busy', error instanceof Error ? error.message : String(error));
    }
    let filesRemoved = 0;
    for (const file of files) {
      if (existsSync(file)) {
        await rm(file, { force: true });
        filesRemoved += 1;
      }
    }
    for (const folder of folders) await removeJobFolder(folder, job);
    return { deleted, filesRemoved };
  }

  libraryFolder(jobRowId: number): string {
    const job = this.d.views.requireJob(jobRowId);
    const output = job.outputs.find((o) => o.localPath);
    if (!output?.localPath) throw new AppError('library.no_file', 'This job has no file in the library yet.');
    return output.localPath.slice(
      0,
      Math.max(output.localPath.lastIndexOf('/'), output.localPath.lastIndexOf('\\')),
    );
  }

  /**
   * A review package's folder (`<library>/review-packages/<name>`, issue 41), opened in the file
   * manager where the host can: the name is a package's folder name, never a path.
   */
  async revealPackage(fileName: string): Promise<{ folder: string; opened: boolean }> {
    const found =
      /^review-[^/\\]+$/.test(fileName) && !fileName.includes('..')
        ? this.d
            .libraryDirs()
            .map((dir) => path.join(dir, REVIEW_PACKAGES_DIR, fileName))
            .find((folder) => existsSync(folder))
        : undefined;
    if (!found)
      throw new AppError('library.no_file', 'This review package is no longer in the library folder.');
    const open = this.d.openFolder ?? openFolder;
    return { folder: found, opened: this.d.host.opensFolders ? await open(found) : false };
  }

  /** The result's folder; the desktop app also opens it in the file manager (a browser tab cannot). */
  async reveal(jobRowId: number): Promise<{ folder: string; opened: boolean }> {
    const folder = this.libraryFolder(jobRowId);
    const open = this.d.openFolder ?? openFolder;
    return { folder, opened: this.d.host.opensFolders ? await open(folder) : false };
  }
}

/** Whether a result's marks pass the Library's filters by marks. */
export function marksMatch(marks: JobMarks, filter: MarksFilter): boolean {
  if (filter.flag === 'unmarked' ? marks.flag !== null : filter.flag && marks.flag !== filter.flag)
    return false;
  if (filter.minStars !== undefined && marks.stars < filter.minStars) return false;
  return filter.label === undefined || marks.label === filter.label;
}

function openFolder(folder: string): Promise<boolean> {
  const command =
    process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  return new Promise((resolve) => {
    try {
      const child = execFile(command, [folder], { timeout: 10_000 }, (error) => resolve(!error));
      child.on('error', () => resolve(false));
    } catch {
      resolve(false);
    }
  });
}
