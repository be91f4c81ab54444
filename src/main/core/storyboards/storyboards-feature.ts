import { createHash } from 'node:crypto';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { SequenceView } from '../../../shared/bridge/domains/sequences.js';
import type { DraftMedia } from '../../../shared/bridge/domains/studio.js';
import type {
  SentToBoard,
  SequenceBoardLink,
  StoryboardSummary,
} from '../../../shared/bridge/domains/storyboards.js';
import type { StudioDrafts } from '../creating/drafts.js';
import { AppError } from '../errors.js';
import type { Journal } from '../journal/open-journal.js';
import type { StoryboardLink } from '../journal/storyboard-links-repository.js';
import { jobOfDraft, verifiedVideoOf } from '../sequences/shot-results.js';
import type { SequencesFeature } from '../sequences/sequences-feature.js';
import type { ObjectStorage } from '../storage/object-storage.js';
import type { StagedFiles } from '../storage/staged-files.js';
import { importedShotForm, importService } from './imported-shot-form.js';
import { downloadPanelImage, stageImage, type PanelImageSource } from './panel-image.js';
import type { StoryboardHelperClient } from './storyboard-helper-client.js';
import type { Board, Panel } from './storyboard-schemas.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * How long a sent `mediaUrl` stays readable: to the end of the 8th day from the day it is signed.
 * Signed per day (not per press), so the same send on the same day has the same body and key.
 */
export function mediaUrlExpiry(nowMs: number): Date {
  return new Date((Math.floor(nowMs / DAY_MS) + 8) * DAY_MS);
}

export interface StoryboardsFeatureDeps {
  client: Pick<StoryboardHelperClient, 'listBoards' | 'getBoard' | 'writePanelResult'>;
  journal: Pick<Journal, 'sequences' | 'storyboardLinks' | 'jobs'>;
  sequences: Pick<SequencesFeature, 'create' | 'addShot' | 'get' | 'delete'>;
  drafts: Pick<StudioDrafts, 'stored'>;
  staged: Pick<StagedFiles, 'stageCopy'>;
  /** The video services of the person's backend (the default i2v model is the first that takes it). */
  videoServices(): Promise<ServiceEntry[]>;
  profileId: string;
  /**
   * Where a sent film is stored and the signer of its readUrls: the person's object storage on the
   * platform; on this machine, the local share (`storage/local-object-share.ts`).
   */
  storage: Pick<ObjectStorage, 'putFile'>;
  readUrlFor(sha256: string, expiresAt: Date): string | Promise<string>;
  /** The person (their workspace's subject key): part of every write's idempotency key. */
  subjectKey: string;
  /**
   * Where panel images are read from (`PanelImageSource`). Only the platform backend is a callee:
   * a board sent to it must name images at Storyboard Helper's origin; absent (this machine), a
   * sent board is refused.
   */
  panelImages: PanelImageSource & { acceptsSentBoards: boolean };
  /** Where panel images are written before they are staged. */
  workDir: string;
  now?: () => number;
}

/**
 * Storyboards in, films out (issue 29): the person's boards of Storyboard Helper become sequences
 * (one image-to-video shot per panel, nothing generated), and a sequence's film or a shot's
 * verified result goes back to its board as a panel result.
 */
export class StoryboardsFeature {
  /** Imports run one at a time: the same board twice at once still makes one sequence. */
  private importing: Promise<unknown> = Promise.resolve();

  constructor(private readonly d: StoryboardsFeatureDeps) {}

  async list(): Promise<{ boards: StoryboardSummary[] }> {
    const boards = await this.d.client.listBoards();
    const imported = this.d.journal.storyboardLinks.sequencesByBoard();
    return {
      boards: boards.map((b) => ({
        boardId: b.boardId,
        title: b.title,
        panelCount: b.panelCount,
        updatedAt: b.updatedAt,
        importedSequenceId: imported.get(b.boardId) ?? null,
      })),
    };
  }

  import(boardId: string): Promise<{ sequence: SequenceView; link: SequenceBoardLink; reused: boolean }> {
    const run = this.importing.then(() => this.importOnce(boardId));
    this.importing = run.catch(() => undefined);
    return run;
  }

  /**
   * A board another application sent (Framewright as the callee of `sequence.create`): the same
   * sequence an import makes, from the board as sent. Its panel images are read only from
   * Storyboard Helper's own address (`panelImages.helperOrigin`): a body never makes this
   * backend fetch anywhere else.
   */
  importSent(board: Board): Promise<{ sequence: SequenceView; link: SequenceBoardLink; reused: boolean }> {
    for (const panel of board.panels)
      if (
        !this.d.panelImages.acceptsSentBoards ||
        !sameOrigin(panel.image.url, this.d.panelImages.helperOrigin)
      )
        throw new AppError(
          'inter_app.not_found',
          "A panel image of the board is not at Storyboard Helper's address: nothing was created.",
        );
    const run = this.importing.then(() => this.importOnce(board.boardId, board));
    this.importing = run.catch(() => undefined);
    return run;
  }

  linkOf(sequenceId: string): { link: SequenceBoardLink | null } {
    const link = this.d.journal.storyboardLinks.linkOf(sequenceId);
    return { link: link ? viewOf(link) : null };
  }

  async send(sequenceId: string, shotId?: string): Promise<SentToBoard> {
    const link = this.d.journal.storyboardLinks.linkOf(sequenceId);
    if (!link)
      throw new AppError(
        'storyboards.not_imported',
        'This sequence was not imported from a board: there is no board to send to.',
      );
    const { panelId, title, file } = shotId ? this.shotToSend(link, shotId) : await this.filmToSend(link);
    const stored = await this.d.storage.putFile(file.localPath);
    if (file.sha256 && stored.sha256 !== file.sha256)
      throw new AppError(
        'download.verification_failed',
        'The file to send is not the verified result any more.',
      );
    const expiresAt = mediaUrlExpiry((this.d.now ?? Date.now)());
    const mimeType = file.mimeType ?? stored.mimeType;
    const result = {
      title,
      mediaUrl: await this.d.readUrlFor(stored.sha256, expiresAt),
      mimeType,
      sha256: stored.sha256,
      byteSize: stored.byteSize,
    };
    const actionKey = `fw-sb-${createHash('sha256')
      .update([this.d.subjectKey, sequenceId, panelId, stored.sha256, String(expiresAt.getTime())].join('\n'))
      .digest('hex')
      .slice(0, 48)}`;
    const written = await this.d.client.writePanelResult(
      { boardId: link.boardId, panelId, result },
      actionKey,
    );
    // the board points at this object until its readUrl expires: it is not collected before
    this.d.journal.storyboardLinks.recordSend({
      ...{ idempotencyKey: actionKey, boardId: link.boardId, panelId, writeId: written.writeId },
      ...{ sha256: stored.sha256, expiresAt: expiresAt.getTime() },
    });
    return { boardId: link.boardId, panelId, writeId: written.writeId, replayed: written.replayed };
  }

  private async importOnce(
    boardId: string,
    sent?: Board,
  ): Promise<{ sequence: SequenceView; link: SequenceBoardLink; reused: boolean }> {
    const links = this.d.journal.storyboardLinks;
    const existing = links.sequenceOfBoard(boardId);
    if (existing) {
      const link = links.linkOf(existing)!;
      return { sequence: await this.d.sequences.get(existing), link: viewOf(link), reused: true };
    }
    const board = sent ?? (await this.d.client.getBoard(boardId));
    const panels = [...board.panels].sort((a, b) => a.position - b.position);
    const service = importService(await this.d.videoServices());
    // every image is downloaded, verified and staged before anything is made
    const frames: { panel: Panel; frame: DraftMedia }[] = [];
    for (const [index, panel] of panels.entries()) {
      const label = `panel ${index + 1}`;
      const bytes = await downloadPanelImage(panel.image, label, this.d.panelImages);
      const ext = panel.image.mimeType === 'image/jpeg' ? 'jpg' : 'png';
      frames.push({
        panel,
        frame: await stageImage(this.d.staged, this.d.workDir, bytes, `panel-${index + 1}.${ext}`),
      });
    }
    const created = await this.d.sequences.create(sequenceName(board.title));
    const sequenceId = created.sequenceId;
    try {
      const shots: StoryboardLink['panels'][number][] = [];
      for (const [position, { panel, frame }] of frames.entries()) {
        await this.d.sequences.addShot(
          sequenceId,
          importedShotForm(service, this.d.profileId, panel.prompt, frame),
        );
        const shot = this.d.journal.sequences.shots(sequenceId).at(-1)!;
        shots.push({ shotId: shot.id, panelId: panel.panelId, position });
      }
      const link: StoryboardLink = { sequenceId, boardId: board.boardId, title: board.title, panels: shots };
      links.record(link);
      return { sequence: await this.d.sequences.get(sequenceId), link: viewOf(link), reused: false };
    } catch (error) {
      await this.d.sequences.delete(sequenceId).catch(() => undefined);
      throw error;
    }
  }

  private shotToSend(link: StoryboardLink, shotId: string) {
    const panel = link.panels.find((p) => p.shotId === shotId);
    if (!panel)
      throw new AppError('storyboards.nothing_to_send', 'This shot was not made from a panel of the board.');
    const shot = this.d.journal.sequences.shots(link.sequenceId).find((s) => s.id === shotId);
    const video = shot
      ? verifiedVideoOf(jobOfDraft(this.d.journal.jobs, this.d.drafts.stored(shot.draftId)))
      : undefined;
    if (!shot || !video)
      throw new AppError(
        'storyboards.nothing_to_send',
        'This shot has no verified result yet: generate it first.',
      );
    return {
      panelId: panel.panelId,
      title: `${link.title} — shot ${shot.position + 1}`.slice(0, 200),
      file: { localPath: video.localPath, sha256: video.sha256, mimeType: video.mimeType },
    };
  }

  private async filmToSend(link: StoryboardLink) {
    const ready = this.d.journal.sequences
      .assembliesOf(link.sequenceId)
      .filter((a) => a.state === 'ready' && a.localPath)
      .sort((a, b) => b.createdAt - a.createdAt)[0];
    if (!ready?.localPath)
      throw new AppError(
        'storyboards.nothing_to_send',
        'This sequence has no assembled film yet: assemble it first, then send it.',
      );
    const firstPanelId =
      link.panels[0]?.panelId ??
      [...(await this.d.client.getBoard(link.boardId)).panels].sort((a, b) => a.position - b.position)[0]
        ?.panelId;
    if (!firstPanelId)
      throw new AppError('storyboards.nothing_to_send', 'The board has no panel to send the film to.');
    return {
      panelId: firstPanelId,
      title: link.title.slice(0, 200) || 'Film',
      file: { localPath: ready.localPath, sha256: ready.sha256, mimeType: 'video/mp4' },
    };
  }
}

function viewOf(link: StoryboardLink): SequenceBoardLink {
  return {
    boardId: link.boardId,
    title: link.title,
    panels: Object.fromEntries(link.panels.map((p) => [p.shotId, p.panelId])),
  };
}

function sequenceName(title: string): string {
  const trimmed = title.trim().slice(0, 120).trim();
  return trimmed || 'Storyboard';
}

function sameOrigin(address: string, origin: string): boolean {
  try {
    return new URL(address).origin === origin;
  } catch {
    return false;
  }
}
