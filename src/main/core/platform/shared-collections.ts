import type { SharedCollectionSummary, SharedTakeView } from '../../../shared/bridge/domains/review.js';
import { AppError } from '../errors.js';
import type { Collection } from '../journal/collections-repository.js';
import type { Journal } from '../journal/open-journal.js';
import { storedOutputOf } from '../journal/outputs-repository.js';
import type { JobViews } from '../library/job-views.js';
import { reviewedTakeFacts } from '../library/review-features.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import type { TeamFeature } from '../team/team-feature.js';

/** How long a shared take's link to its file is valid (the manager's page reads it at once). */
const TAKE_LINK_SECONDS = 3600;

/** A member's collection as their workspace tells a manager: never a path, an id of theirs or a key. */
export type MemberCollection = Omit<SharedCollectionSummary, 'ref' | 'ownerName'>;

/**
 * What one member's workspace shows of their own review to the organization's managers: only the
 * collections they shared with one of their projects, read-only. A take's file is stored among
 * the member's objects (content-addressed: once) and sent as a readUrl signed with the backend's
 * key for them, valid an hour.
 */
export class MemberSharedReview {
  constructor(
    private readonly d: {
      journal: Pick<Journal, 'collections' | 'projects' | 'jobs' | 'notes'>;
      views: Pick<JobViews, 'jobDetail'>;
      storage: Pick<ObjectStorage, 'putFile'>;
      readUrlFor: (sha256: string, expiresAt: Date) => string;
      now?: () => number;
    },
  ) {}

  /** The member's shared collections, each with its id (the second part of a `ref`). */
  summaries(): (MemberCollection & { id: string })[] {
    return this.d.journal.collections.shared().map((c) => ({ id: c.id, ...this.summary(c) }));
  }

  /** One shared collection with its takes (undefined: no such collection, or not shared). */
  async collection(
    collectionId: string,
  ): Promise<(MemberCollection & { takes: SharedTakeView[] }) | undefined> {
    const collection = this.d.journal.collections.get(collectionId);
    if (!collection?.sharedProjectId) return undefined;
    const expiresAt = new Date((this.d.now ?? Date.now)() + TAKE_LINK_SECONDS * 1000);
    const takes: SharedTakeView[] = [];
    for (const jobRowId of collection.jobRowIds) takes.push(await this.take(jobRowId, expiresAt));
    return { ...this.summary(collection), takes };
  }

  /** The sha256 of every take in a shared collection (the housekeeping keeps their objects). */
  sharedSha256(): string[] {
    return this.d.journal.collections
      .shared()
      .flatMap((c) => c.jobRowIds)
      .flatMap((id) => this.d.journal.jobs.getJob(id)?.outputs ?? [])
      .filter((o) => o.downloadState === 'verified' && o.sha256)
      .map((o) => o.sha256!);
  }

  private summary(c: Collection): MemberCollection {
    return {
      name: c.name,
      projectId: c.sharedProjectId!,
      projectName: this.d.journal.projects.get(c.sharedProjectId!)?.name ?? null,
      takeCount: c.jobRowIds.length,
      updatedAt: c.updatedAt,
    };
  }

  private async take(jobRowId: number, expiresAt: Date): Promise<SharedTakeView> {
    const detail = this.d.views.jobDetail(jobRowId);
    const job = this.d.journal.jobs.getJob(jobRowId);
    const output = job && storedOutputOf(job);
    let mediaUrl: string | null = null;
    if (output) {
      const stored = await this.d.storage.putFile(output.localPath).catch(() => undefined);
      if (stored) mediaUrl = this.d.readUrlFor(stored.sha256, expiresAt);
    }
    return {
      ...reviewedTakeFacts(detail, this.d.journal),
      mimeType: output?.mimeType ?? null,
      mediaUrl,
    };
  }
}

/** A member of the manager's organization, as the backend finds their workspace. */
export interface OrganizationMember {
  /** The workspace's key (a hash of the member's identity), the first part of a `ref`. */
  subjectKey: string;
  accountId: string;
  review: MemberSharedReview;
}

const REF = /^([0-9a-f]{32})\.(.{1,200})$/;

/**
 * The collections an organization's members shared with their projects, for its managers
 * (issue 41): the directory decides who is a manager (`team.not_manager` otherwise); only the
 * members of the manager's own organization are read, and of them only what they shared.
 */
export class SharedCollectionsReader {
  constructor(
    private readonly d: {
      team: () => Promise<TeamFeature | undefined>;
      members: () => Promise<readonly OrganizationMember[]>;
    },
  ) {}

  async list(): Promise<{ items: SharedCollectionSummary[] }> {
    const names = await this.managerNames();
    const items: SharedCollectionSummary[] = [];
    for (const member of await this.d.members())
      for (const { id, ...c } of member.review.summaries())
        items.push({
          ...c,
          ref: `${member.subjectKey}.${id}`,
          ownerName: names.get(member.accountId) ?? null,
        });
    return { items: items.sort((a, b) => b.updatedAt - a.updatedAt) };
  }

  async get(ref: string): Promise<SharedCollectionSummary & { takes: SharedTakeView[] }> {
    const names = await this.managerNames();
    const match = REF.exec(ref);
    const member = match && (await this.d.members()).find((m) => m.subjectKey === match[1]);
    const found = member && (await member.review.collection(match[2]!));
    if (!member || !found)
      throw new AppError(
        'collection.not_found',
        'There is no such shared collection (it may no longer be shared).',
      );
    return { ...found, ref, ownerName: names.get(member.accountId) ?? null };
  }

  private async managerNames(): Promise<Map<string, string>> {
    const team = await this.d.team();
    if (!team)
      throw new AppError('team.not_manager', 'Shared collections are read by an organization’s managers.');
    await team.requireManager();
    return team.memberNames().catch(() => new Map<string, string>());
  }
}
