import { existsSync } from 'node:fs';
import path from 'node:path';
import type { JobWithOutputs } from '../journal/jobs-repository.js';
import { storedOutputOf } from '../journal/outputs-repository.js';

/**
 * Each result's `framewright.json` written again after a review change (marks, notes,
 * collections), one write after another per result: each reads the journal when its turn comes,
 * so the last one written holds the latest review. A result whose folder was removed by hand keeps
 * its review in the journal alone.
 */
export class SidecarWrites {
  private readonly pending = new Map<number, Promise<void>>();

  constructor(
    private readonly d: {
      requireJob: (jobRowId: number) => JobWithOutputs;
      /** Writes a result's sidecar again from the journal (jobs/download-outputs.ts). */
      rewriteSidecar: (job: JobWithOutputs, folder: string) => Promise<void>;
    },
  ) {}

  /** Writes the result's sidecar again, after the writes of it before this one. */
  rewrite(jobRowId: number): Promise<void> {
    const previous = this.pending.get(jobRowId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(async () => {
        let job: JobWithOutputs;
        try {
          job = this.d.requireJob(jobRowId);
        } catch {
          return; // deleted meanwhile: its folder went with it
        }
        const output = storedOutputOf(job);
        if (output && existsSync(path.dirname(output.localPath)))
          await this.d.rewriteSidecar(job, path.dirname(output.localPath));
      });
    this.pending.set(jobRowId, next);
    void next.finally(() => {
      if (this.pending.get(jobRowId) === next) this.pending.delete(jobRowId);
    });
    return next;
  }

  /** Every one of these results' sidecars (a collection's change touches each of its results). */
  async rewriteAll(jobRowIds: Iterable<number>): Promise<void> {
    await Promise.all([...new Set(jobRowIds)].map((id) => this.rewrite(id)));
  }
}
