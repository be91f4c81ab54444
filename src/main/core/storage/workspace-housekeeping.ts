import type { Journal } from '../journal/open-journal.js';
import type { StagedFiles } from './staged-files.js';
import type { ObjectStorage } from './object-storage.js';
import { collectObjects, namedObjects, OBJECT_GRACE_MS } from './object-collector.js';
import type { StorageUsage } from './storage-usage.js';

/** A staged file's id (as a draft's form names it). */
const STAGED_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

export interface HousekeepingCounts {
  staged: number;
  playground: number;
  objects: number;
}

/**
 * A person's workspace housekeeping on the platform: staged files no draft names and Playground
 * files older than a day are removed, then objects no open draft, unfinished job or export in
 * flight names, older than the grace period. One pass at a time (the timer and a test may meet).
 */
export class WorkspaceHousekeeping {
  private run: Promise<HousekeepingCounts> | undefined;

  constructor(
    private readonly d: {
      journal: Pick<Journal, 'drafts' | 'jobs' | 'localFiles'>;
      staged: Pick<StagedFiles, 'removeUnnamed' | 'removeOldChunked' | 'pathOf'>;
      storage: ObjectStorage;
      usage: Pick<StorageUsage, 'ready'>;
      /** The content addresses of exports in flight. */
      exportingSha256(): Iterable<string>;
    },
  ) {}

  /** The objects a live draft (not submitted), an unfinished job or an export in flight names. */
  private liveObjects() {
    const { journal, staged } = this.d;
    return namedObjects({
      *openDraftFileIds() {
        for (const draft of journal.drafts.list<{ submittedAt?: unknown; variations?: unknown }>(
          Number.MAX_SAFE_INTEGER,
        )) {
          if (draft.body.submittedAt || draft.body.variations) continue;
          yield* JSON.stringify(draft.body).match(STAGED_ID) ?? [];
        }
      },
      stagedSha256: (fileId) => journal.localFiles.get(staged.pathOf(fileId))?.sha256,
      *unfinishedBodies() {
        const work = journal.jobs.listUnfinished();
        for (const intent of work.intents) yield intent.canonicalBodyJson;
        for (const job of work.jobsToPoll) {
          const intent = journal.jobs.getIntentById(job.intentId);
          if (intent) yield intent.canonicalBodyJson;
        }
      },
      exportingSha256: () => this.d.exportingSha256(),
    });
  }

  private async once(now: number): Promise<HousekeepingCounts> {
    await this.d.usage.ready;
    const staged = await this.d.staged.removeUnnamed(undefined, now);
    const playground = await this.d.staged.removeOldChunked(undefined, now);
    const objects = await collectObjects(this.d.storage, () => this.liveObjects(), {
      graceMs: OBJECT_GRACE_MS,
      now,
    });
    return { staged, playground, objects: objects.removed };
  }

  pass(now = Date.now()): Promise<HousekeepingCounts> {
    this.run ??= this.once(now).finally(() => (this.run = undefined));
    return this.run;
  }

  /** Waits for a pass in flight (closing the workspace). */
  async settled(): Promise<void> {
    await this.run?.catch(() => undefined);
  }
}
