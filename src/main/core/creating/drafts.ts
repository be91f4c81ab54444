import { randomUUID } from 'node:crypto';
import { DraftForm, type StudioDraft } from '../../../shared/bridge/domains/studio.js';
import { AppError } from '../errors.js';
import type { Draft, DraftsRepository } from '../journal/drafts-repository.js';
import type { JobsRepository } from '../journal/jobs-repository.js';
import { toJson } from '../journal/json.js';
import type { StorageQuota } from '../storage/storage-usage.js';

/** The largest draft form kept (its JSON): room for a 200 000-character prompt in any script. */
export const MAX_DRAFT_FORM_BYTES = 1024 * 1024;
/** The most drafts one journal keeps (Create's and the sequences' shots). */
export const MAX_DRAFTS = 10_000;

/** What a studio draft is in the journal's `drafts` table. */
export interface StoredDraft {
  kind: 'studio-video';
  idempotencyKey: string;
  form: DraftForm;
  submittedAt: number | null;
  jobRowId: number | null;
  /** "Generate ×N" committed N variations of this draft (it is then read-only, like a submitted one). */
  variations?: { count: number };
}

export interface StudioDraftsDeps {
  drafts: DraftsRepository;
  jobs: Pick<JobsRepository, 'getJob' | 'getIntentById'>;
  /** A draft that is a shot of a sequence (issue 15): Create's own list leaves it out. */
  isShot?: (draftId: string) => boolean;
  /** The person's storage quota (the platform): a draft's bytes in the journal count in it. */
  quota?: StorageQuota;
}

/**
 * Create's drafts: each owns its idempotency key (generated once, kept for every submit of it),
 * is read-only once submitted, and becomes editable again (with a fresh key when the old one was
 * spent) after a refused creation.
 */
export class StudioDrafts {
  constructor(private readonly d: StudioDraftsDeps) {}

  /** The stored body of a studio draft; a missing or foreign draft is `draft.not_found`. */
  stored(draftId: string): StoredDraft {
    const draft = this.d.drafts.get<StoredDraft>(draftId);
    if (!draft || draft.body.kind !== 'studio-video')
      throw new AppError('draft.not_found', 'This draft no longer exists.');
    return draft.body;
  }

  /** The stored body of a studio draft, or undefined (another kind, or gone). */
  find(draftId: string): StoredDraft | undefined {
    const draft = this.d.drafts.get<StoredDraft>(draftId);
    return draft?.body.kind === 'studio-video' ? draft.body : undefined;
  }

  draft(draftId: string): StudioDraft {
    const row = this.d.drafts.get<StoredDraft>(draftId);
    if (!row || row.body.kind !== 'studio-video')
      throw new AppError('draft.not_found', 'This draft no longer exists.');
    return draftView(row);
  }

  /** Create's drafts, newest first (a sequence's shots are the Sequences screen's); each read once. */
  listDrafts(): StudioDraft[] {
    return this.d.drafts
      .list<StoredDraft>(50)
      .filter((d) => d.body.kind === 'studio-video' && !this.d.isShot?.(d.id))
      .map(draftView);
  }

  /**
   * Stores a draft's body, its growth counted in the person's quota first: a form past
   * {@link MAX_DRAFT_FORM_BYTES}, or past the quota, is refused and the stored draft stays as it was.
   */
  private write(id: string, body: StoredDraft): Draft<StoredDraft> {
    const formBytes = Buffer.byteLength(toJson(body.form));
    if (formBytes > MAX_DRAFT_FORM_BYTES)
      throw new AppError(
        'draft.too_large',
        `This draft is ${Math.ceil(formBytes / 1024)} KiB; a draft keeps at most ` +
          `${MAX_DRAFT_FORM_BYTES / 1024} KiB (its prompt, settings and the names of its files). ` +
          `Shorten the prompt or the extra settings; the files themselves are not kept in the draft.`,
      );
    const before = this.d.drafts.bytesOf(id);
    const json = toJson(body);
    const after = Buffer.byteLength(json);
    if (after > before) this.d.quota?.admit(after - before, 0);
    let saved: Draft<StoredDraft>;
    try {
      saved = this.d.drafts.save<StoredDraft>(id, body, json);
    } catch (error) {
      if (after > before) this.d.quota?.release(after - before, 0);
      throw error;
    }
    if (after < before) this.d.quota?.release(before - after, 0);
    return saved;
  }

  /** A new draft with its own idempotency key (generated once, kept for every submit of it). */
  createDraft(form: DraftForm): StudioDraft {
    const { drafts } = this.d.drafts.totals();
    if (drafts >= MAX_DRAFTS)
      throw new AppError(
        'draft.too_many',
        `You have ${drafts} drafts, the most one studio keeps (${MAX_DRAFTS}); nothing was created.`,
      );
    const id = randomUUID();
    return draftView(
      this.write(id, {
        kind: 'studio-video',
        idempotencyKey: `draft-${id}-${randomUUID()}`,
        form,
        submittedAt: null,
        jobRowId: null,
      }),
    );
  }

  /** "Copy to Create": the settings, prompt and references of a job in a new draft (new key). */
  copyJob(jobRowId: number, fallback: DraftForm): StudioDraft {
    const job = this.d.jobs.getJob(jobRowId);
    if (!job) throw new AppError('job.not_found', 'This job is not in the journal.');
    const intent = this.d.jobs.getIntentById(job.intentId)!;
    const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
    const source = intent.draftId ? this.find(intent.draftId) : undefined;
    const form: DraftForm = source ? { ...source.form } : { ...fallback };
    form.profileId = job.profileId;
    form.model = job.model;
    if (typeof body.generationMode === 'string') form.generationMode = body.generationMode;
    if (typeof body.prompt === 'string') form.prompt = body.prompt;
    if (typeof body.orientation === 'string') form.orientation = body.orientation;
    if (typeof body.resolutionTier === 'string') form.resolutionTier = body.resolutionTier;
    if (typeof body.seconds === 'number') form.seconds = body.seconds;
    form.seed = typeof body.seed === 'number' ? body.seed : null;
    return this.createDraft(DraftForm.parse(form));
  }

  saveDraft(draftId: string, form: DraftForm): StudioDraft {
    const stored = this.stored(draftId);
    if (stored.submittedAt !== null)
      throw new AppError('draft.submitted', 'This draft was submitted; use "Copy to Create" to change it.');
    // answered from what was written: a large draft is not read back and parsed again
    return draftView(this.write(draftId, { ...stored, form }));
  }

  /** The draft's intent was committed: read-only from now on. */
  markSubmitted(draftId: string): void {
    const stored = this.stored(draftId);
    if (stored.submittedAt === null) this.write(draftId, { ...stored, submittedAt: Date.now() });
  }

  /** Its variations were committed: read-only from now on, and only ×`count` may be pressed again. */
  markVaried(draftId: string, count: number): void {
    const stored = this.stored(draftId);
    this.write(draftId, {
      ...stored,
      submittedAt: stored.submittedAt ?? Date.now(),
      variations: { count },
    });
  }

  setDraftJob(draftId: string, jobRowId: number): void {
    const stored = this.stored(draftId);
    this.write(draftId, { ...stored, jobRowId });
  }

  /** After a refused creation: editable again; a new key when the old one is spent. */
  reopen(draftId: string, newKey: boolean): void {
    const { variations: _none, ...stored } = this.stored(draftId);
    this.write(draftId, {
      ...stored,
      submittedAt: null,
      idempotencyKey: newKey ? `draft-${draftId}-${randomUUID()}` : stored.idempotencyKey,
    });
  }
}

/** A stored studio draft as the bridge answers it (`drafts.get`, `drafts.list`). */
function draftView(row: Draft<StoredDraft>): StudioDraft {
  return {
    id: row.id,
    idempotencyKey: row.body.idempotencyKey,
    form: row.body.form,
    submittedAt: row.body.submittedAt,
    jobRowId: row.body.jobRowId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
