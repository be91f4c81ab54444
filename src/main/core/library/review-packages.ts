import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ReviewPackageView } from '../../../shared/bridge/domains/review.js';
import { holdQuota, type RecordingQuota } from '../storage/storage-usage.js';
import { writeReviewPackage, zipReviewPackage, type ReviewPackageTake } from './review-package.js';

/** Where a collection's review package goes: a folder of this machine, or a download. */
export interface ReviewPackages {
  write(collectionName: string, takes: ReviewPackageTake[]): Promise<ReviewPackageView>;
}

/** The folder review packages are written in, inside the library (`<library>/review-packages/`). */
export const REVIEW_PACKAGES_DIR = 'review-packages';

/** On this machine: a folder beside the results, in `<library>/review-packages/`. */
export function localReviewPackages(libraryDir: () => string): ReviewPackages {
  return {
    async write(collectionName, takes) {
      const parentDir = path.join(libraryDir(), REVIEW_PACKAGES_DIR);
      await mkdir(parentDir, { recursive: true });
      const written = await writeReviewPackage({ collectionName, takes, parentDir });
      return { fileName: written.fileName, takes: written.takes, folder: written.folder, downloadPath: null };
    },
  };
}

/** A package's download name in the person's exports: never a name the person typed. */
export const PACKAGE_ZIP_NAME = /^review-package-[0-9a-f]{16}\.zip$/;

/**
 * On the platform: the package is made in the person's work folder, zipped into their exports
 * (counted in their storage quota: held before, settled with the zip's size) and downloaded from
 * `/exports/<name>`; the folder is removed once zipped.
 */
export function zippedReviewPackages(d: {
  workDir: string;
  exportsDir: string;
  quota?: RecordingQuota;
}): ReviewPackages {
  return {
    async write(collectionName, takes) {
      const sizes = await Promise.all(
        takes.map((t) =>
          t.file
            ? stat(t.file.path).then(
                (s) => s.size,
                () => 0,
              )
            : 0,
        ),
      );
      // the takes' bytes and a margin for the stills, the page and the sheet
      const hold = await holdQuota(d.quota, sizes.reduce((a, b) => a + b, 0) + 4 * 1024 * 1024, 1);
      const parentDir = path.join(d.workDir, `packages-${randomBytes(6).toString('hex')}`);
      try {
        await mkdir(parentDir, { recursive: true });
        await mkdir(d.exportsDir, { recursive: true, mode: 0o700 });
        const written = await writeReviewPackage({ collectionName, takes, parentDir });
        const zipName = `review-package-${randomBytes(8).toString('hex')}.zip`;
        const zipped = await zipReviewPackage(written.folder, path.join(d.exportsDir, zipName));
        hold.settle(zipped.bytes, 1);
        return {
          fileName: `${written.fileName}.zip`,
          takes: written.takes,
          folder: null,
          downloadPath: `/exports/${zipName}`,
        };
      } catch (error) {
        hold.cancel();
        throw error;
      } finally {
        await rm(parentDir, { recursive: true, force: true });
      }
    },
  };
}
