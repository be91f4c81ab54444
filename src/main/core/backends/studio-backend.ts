import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { Capabilities } from '../../../shared/bridge/domains/app.js';
import type { z } from 'zod';
import type { ServiceEntryView, studioMethods } from '../../../shared/bridge/domains/studio.js';
import type { RunResult } from '../jobs/job-engine.js';
import type { CatalogVoice } from '../../../shared/api/discovery.js';
import type { JobWithInputs } from '../operations/job-with-inputs.js';
import type { StagedFiles } from '../storage/staged-files.js';
import type { StudioDrafts } from '../creating/drafts.js';
import type { UploadState, VideoSubmission } from '../creating/submit-video.js';
import type { PlaygroundCalls } from './playground-calls.js';

/** A backend's services as Create and the Playground list them. */
export interface ServicesView {
  profileId: string;
  services: ServiceEntryView[];
  fetchedAt: number;
  fromCache: boolean;
}

/** The backend's verdict on what Generate would send (the public preview, or the runtime's dry-run). */
export type AdmissionVerdict = z.output<(typeof studioMethods)['video.admission']['result']>;

/** A draft's prompt optimized (a separate, billed call: the creator accepts it or not). */
export interface OptimizedPrompt {
  clientRequestId: string;
  originalPrompt: string;
  optimizedPrompt: string;
}

/** What a backend is built from: the studio's own drafts, staged files and upload progress. */
export interface StudioBackendParts {
  readonly drafts: StudioDrafts;
  readonly staged: StagedFiles;
  /** Reports an input's upload for a draft (`uploads.progress`). */
  emitUpload(draftId: string, progress: UploadState): void;
}

/**
 * What the studio needs from a backend — the one port both composition roots fill. Every feature
 * of the studio (drafts, Generate, variations, batch import, Sequences, the Playground, the queue
 * and the library) is written once over it; a backend is one implementation:
 *
 * - `public-api/`: the personal-key public interface (the desktop app, the browser host, the CLI);
 * - `platform-runtime/`: the platform's deployed runtime, as the signed-in person (`serve --platform`).
 *
 * What a backend cannot do is not a missing method but a capability it declares off
 * (`capabilities`), refused in one place (`app/capabilities.ts`).
 */
export interface StudioBackend {
  /** What this backend offers (reported by `app.info`; the renderer reads only this). */
  readonly capabilities: Capabilities;
  /** The profile new work runs under: the active profile, or the platform runtime's one. */
  activeProfileId(): string;
  /**
   * The profile a draft runs under: the one its form names on the public API (any of the person's
   * profiles), else the active one; on the platform always the runtime's (a page never picks it).
   */
  draftProfileId(requested: string | undefined): string;
  /** The services the backend lists now (of one kind when asked), for Create, the Playground and batch. */
  services(profileId: string | undefined, serviceKind?: string): Promise<ServicesView>;
  /** The video services a profile may call, with their live contracts (batch import checks its rows against them). */
  videoServices(profileId: string): Promise<ServiceEntry[]>;
  /** One service of `kinds` (the named model, else the first callable one), with its live contract. */
  service(kinds: readonly string[], model?: string): Promise<ServiceEntry>;
  /** What Generate would send for a draft, judged by the service; nothing is created. */
  admission(draftId: string): Promise<AdmissionVerdict>;
  /** Optimizes a draft's prompt (replayed under the same key; never billed twice for one press). */
  optimize(draftId: string, style: string | undefined): Promise<OptimizedPrompt>;
  /**
   * Creates (or continues, under a known key) the video of a submission: Generate, a variation,
   * a Sequence's shot, a batch row. Answers with what the engine did.
   */
  createVideo(submission: VideoSubmission): Promise<RunResult>;
  /** Creates (or continues) an image, audio or document job whose inputs are local files. */
  createMediaJob(job: JobWithInputs): Promise<RunResult>;
  /** The speech voices the backend lists (the runtime lists none: its speech services name their own). */
  voices(): Promise<CatalogVoice[]>;
  /** A voice's preview as a data URL (only for a listed voice that has one). */
  voicePreview(voiceId: string, model: string): Promise<{ dataUrl: string }>;
  /** The synchronous calls (chat, embeddings, rerank, OCR, transcription, document parse) as this backend makes them. */
  playgroundCalls(): Promise<PlaygroundCalls>;
}
