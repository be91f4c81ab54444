import { toVideoDraft } from '../../../shared/bridge/draft-form.js';
import type { DraftForm, DraftMedia } from '../../../shared/bridge/domains/studio.js';
import type { EffectiveLimits } from '../../../shared/h3/effective-limits.js';
import type { EventHub } from '../events/event-hub.js';
import type { Journal } from '../journal/open-journal.js';
import type { Logger } from '../logging/logger.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import {
  assertDraftValid,
  limitsFor,
  uploadDraftInputs,
  type LocalVideoDraft,
  type UploadState,
} from './submit-video.js';
import type { ClientFor, StudioDiscovery } from '../discovery/studio-discovery.js';
import type { StudioDrafts } from './drafts.js';
import type { StagedFiles } from '../storage/staged-files.js';

/** A draft form with main-side facts for every file: each re-read from staging, never the renderer's copy. */
export async function localDraftOf(
  staged: Pick<StagedFiles, 'resolve'>,
  form: DraftForm,
): Promise<LocalVideoDraft> {
  const resolve = (m: DraftMedia | undefined) => (m ? staged.resolve(m.id) : Promise.resolve(undefined));
  const [firstFrame, lastFrame, references] = await Promise.all([
    resolve(form.firstFrame),
    resolve(form.lastFrame),
    // a trimmed reference resolves to the cut of its kept range: both backends send only that
    Promise.all(form.references.map((r) => staged.resolve(r.id, r.trim))),
  ]);
  return toVideoDraft(form, { firstFrame, lastFrame, references });
}

export interface DraftInputsDeps {
  /** The upload cache (asset ids per file and model) lives in the journal. */
  journal: Journal;
  clientFor: ClientFor;
  discovery: StudioDiscovery;
  drafts: StudioDrafts;
  staged: StagedFiles;
  events: EventHub;
  logger: Logger;
}

/**
 * A draft's inputs as main knows them: every file re-read from staging (never the renderer's copy
 * of its facts), the H3 rules run again against the live contract, and the uploads (journal-cached)
 * with their progress sent as `uploads.progress`.
 */
export class DraftInputs {
  constructor(private readonly d: DraftInputsDeps) {}

  /** The form with main-side facts for every file (re-read from staging, never from the renderer). */
  localDraft(form: DraftForm): Promise<LocalVideoDraft> {
    return localDraftOf(this.d.staged, form);
  }

  /**
   * Uploads what the draft's mode sends (journal-cached: a later submit reuses the assets); the
   * ids taken from the journal rather than uploaded now are listed in `fromJournal`.
   */
  async upload(
    draftId: string,
    client: PublicApiClient,
    draft: LocalVideoDraft,
    limits: EffectiveLimits,
  ): Promise<{ uploaded: Map<string, string>; fromJournal: string[] }> {
    const { uploaded, uploads } = await uploadDraftInputs(this.d.journal, client, draft, limits, {
      onUpload: (progress) => this.emitUpload(draftId, progress),
    });
    return { uploaded, fromJournal: uploads.filter((u) => u.fromJournal).map((u) => u.assetId) };
  }

  emitUpload(draftId: string, progress: UploadState): void {
    try {
      this.d.events.emit('uploads.progress', { draftId, ...progress });
    } catch (error) {
      this.d.logger.warn('studio event not sent', { error });
    }
  }

  /** The draft, its profile's client and the live limits, checked in main before anything is sent. */
  async prepared(draftId: string) {
    const stored = this.d.drafts.stored(draftId);
    const client = await this.d.clientFor(stored.form.profileId);
    const service = await this.d.discovery.videoService(client, stored.form.model);
    const limits = limitsFor(service);
    const draft = await this.localDraft(stored.form);
    assertDraftValid(draft, limits);
    return { stored, client, limits, draft };
  }
}
