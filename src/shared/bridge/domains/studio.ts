import { z } from 'zod';
import { INTENT_STATES, JOB_STATUSES } from '../../api/job-statuses.js';
import { BATCH_MAX_JOBS, SIMULATOR_SCENARIOS, VARIATION_COUNT_MAX, VARIATION_COUNT_MIN } from '../names.js';
import { ProfileSummary } from './app.js';
import { BATCH_FILE_MAX_CHARS } from '../browser-host-protocol.js';
import { LIBRARY_SORTS, MARK_FLAG_FILTERS, MARK_FLAGS, MARK_LABELS, MAX_STARS } from '../../library-marks.js';

/**
 * The studio: services from discovery, profiles, staged files, drafts, video submission, the
 * queue and the library. No path, key or token ever crosses this contract: files are named by
 * opaque staging ids, media by URLs the core builds (`/media/...` or `framewright-media://...`),
 * and profiles carry only `hasSecret`.
 */

const Id = z.string().min(1).max(200);
/** A staged file id: a UUID the core issued (never a path). */
export const StagedFileId = z.uuid();

export const ServiceEntryView = z.object({
  modelAlias: z.string(),
  serviceKind: z.string(),
  /** Callable: only a service that says `available: true`. */
  available: z.boolean(),
  /** Why a service is not callable: it says `available: false`, or does not say. */
  availability: z.enum(['available', 'not_available', 'not_stated']),
  displayName: z.string(),
  /** The live contracts, passed through as published (the renderer builds the form from them). */
  mediaSpecContract: z.record(z.string(), z.unknown()).nullable(),
  apiUsageContract: z.record(z.string(), z.unknown()).nullable(),
  promptOptimization: z.record(z.string(), z.unknown()).nullable(),
});
export type ServiceEntryView = z.infer<typeof ServiceEntryView>;

export const ServicesList = z.object({
  profileId: z.string(),
  services: z.array(ServiceEntryView),
  fetchedAt: z.number(),
  /** The profile could not be reached: this is the journal's last copy. */
  fromCache: z.boolean(),
});
export type ServicesList = z.infer<typeof ServicesList>;

/** A probed local file as the renderer may see it (the facts, never the path). */
export const DraftMedia = z.object({
  id: StagedFileId,
  fileName: z.string().max(500),
  mimeType: z.string().max(200),
  byteSize: z.number().int().nonnegative(),
  kind: z.enum(['image', 'video', 'audio']),
  width: z.number().optional(),
  height: z.number().optional(),
  durationSeconds: z.number().optional(),
  hasAudioTrack: z.boolean().optional(),
  sha256: z.string().optional(),
  /** A reference video or audio trimmed in Create: only this range of the file is sent. */
  trim: z.object({ startSeconds: z.number().nonnegative(), endSeconds: z.number().positive() }).optional(),
});
export type DraftMedia = z.infer<typeof DraftMedia>;

/** The Create form, as saved while typing. */
export const DraftForm = z.object({
  profileId: Id,
  model: z.string().max(200),
  generationMode: z.string().max(200),
  prompt: z.string().max(200_000),
  orientation: z.string().max(200),
  seconds: z.number(),
  resolutionTier: z.string().max(200),
  seed: z.number().nullable().optional(),
  extra: z.record(z.string(), z.unknown()).optional(),
  firstFrame: DraftMedia.optional(),
  lastFrame: DraftMedia.optional(),
  references: z.array(DraftMedia).max(100),
  /** Optimizer style (only sent when the profile allows it). */
  style: z.string().max(2000).optional(),
});
export type DraftForm = z.infer<typeof DraftForm>;

export const StudioDraft = z.object({
  id: z.string(),
  /** Owned by the draft from its creation: every submit of this draft uses it. */
  idempotencyKey: z.string(),
  form: DraftForm,
  /** Set once the draft was submitted; a submitted draft is read-only ("Copy to Create" makes a new one). */
  submittedAt: z.number().nullable(),
  jobRowId: z.number().nullable(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type StudioDraft = z.infer<typeof StudioDraft>;

export const OutputView = z.object({
  id: z.number(),
  position: z.number(),
  state: z.enum(['pending', 'downloading', 'verified', 'failed']),
  kind: z.string().nullable(),
  mimeType: z.string().nullable(),
  byteSize: z.number().nullable(),
  sha256: z.string().nullable(),
  verified: z.boolean(),
  /**
   * `verified`: the announced sha256 and byteSize matched; `not_verifiable`: stored, but the job
   * announced no sha256 or byteSize to check; null until stored.
   */
  verification: z.enum(['verified', 'not_verifiable']).nullable(),
  /** Served only for verified outputs, through the library-only media route. */
  mediaUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /**
   * A verified video's scrub frames (the Library card's hover preview): signed URLs of evenly
   * spaced frames, made by the core on the first request and cached beside the poster (a frame
   * that cannot be made is served as the poster). Empty for anything else.
   */
  frameUrls: z.array(z.string()),
});
export type OutputView = z.infer<typeof OutputView>;

export { VARIATION_COUNT_MIN, VARIATION_COUNT_MAX };

/** A job's place in its variation group: one of `count` jobs of one draft that differ only in seed. */
export const JobVariationView = z.object({
  groupId: z.string(),
  /** 0-based; the draft's own seed (when it had one) is index 0. */
  index: z.number().int(),
  count: z.number().int(),
});
export type JobVariationView = z.infer<typeof JobVariationView>;

/** What the person decided about a result (issue 41): pick or reject, 0–5 stars, a colour label. */
export const JobMarksView = z.object({
  flag: z.enum(MARK_FLAGS).nullable(),
  stars: z.number().int().min(0).max(MAX_STARS),
  label: z.enum(MARK_LABELS).nullable(),
});
export type JobMarksView = z.infer<typeof JobMarksView>;

export const JobView = z.object({
  rowId: z.number(),
  profileId: z.string(),
  model: z.string(),
  serviceKind: z.string(),
  jobId: z.string(),
  requestId: z.string(),
  status: z.enum(JOB_STATUSES),
  stage: z.string().nullable(),
  stageMessage: z.string().nullable(),
  elapsedSeconds: z.number().nullable(),
  queuedSeconds: z.number().nullable(),
  runningSeconds: z.number().nullable(),
  nextPollAt: z.number().nullable(),
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  retryable: z.boolean().nullable(),
  acceptedAt: z.number(),
  completedAt: z.number().nullable(),
  updatedAt: z.number(),
  prompt: z.string(),
  /**
   * What the job is, for a person: its prompt, else the text it speaks (speech), else its
   * instruction (voice design); '' when the request names none (the Queue then names its kind,
   * never its raw id).
   */
  title: z.string(),
  generationMode: z.string().nullable(),
  /** The length the request asked for, in seconds (video, music); null when it names none (image). */
  seconds: z.number().nullable(),
  draftId: z.string().nullable(),
  /** Made by "Generate ×N": its group, else null. */
  variation: JobVariationView.nullable(),
  /** The person's marks on it (the defaults when none). */
  marks: JobMarksView,
  outputs: z.array(OutputView),
  /** When the current (status, stage) began, as the journal recorded it (epoch ms); null without history. */
  stageStartedAt: z.number().nullable(),
  /**
   * For a job in progress, once this profile has succeeded jobs with the same model and requested
   * seconds: the median of their accept → succeeded durations (`expectedTotalSeconds`), and what
   * remains of it since `acceptedAt` when the view was made (0: any moment now). Null otherwise.
   */
  expectedTotalSeconds: z.number().nullable(),
  expectedRemainingSeconds: z.number().nullable(),
  /** What the estimate was read from: how many earlier jobs, of which model and requested seconds. */
  estimateBasis: z
    .object({ samples: z.number(), model: z.string(), seconds: z.number().nullable() })
    .nullable(),
});
export type JobView = z.infer<typeof JobView>;

export const JobDetail = JobView.extend({
  /** The request as sent (the canonical body; asset ids, never local paths). */
  requested: z.record(z.string(), z.unknown()),
  effectiveSpec: z.unknown().nullable(),
  seed: z.number().nullable(),
  originalPrompt: z.string().nullable(),
  optimizedPrompt: z.string().nullable(),
  /** The references of the draft that made the job, when it is still known. */
  references: z.array(
    DraftMedia.extend({
      role: z.string(),
      posterUrl: z.string().nullable(),
      /** How the request numbers it: "First frame", "Last frame", "Image 1", "Video 1", "Audio 1". */
      label: z.string().optional(),
    }),
  ),
  /** Every (status, stage) the journal saw, oldest first, with how long it lasted (null: still on). */
  stages: z.array(
    z.object({
      status: z.string(),
      stage: z.string().nullable(),
      startedAt: z.number(),
      seconds: z.number().nullable(),
    }),
  ),
});
export type JobDetail = z.infer<typeof JobDetail>;

export const JobStatusFilter = JobView.shape.status;

export const SubmitResult = z.object({
  /** accepted: the service created the job; pending: committed, the core keeps trying in the background. */
  state: z.enum(['accepted', 'pending']),
  idempotencyKey: z.string(),
  jobRowId: z.number().nullable(),
  reason: z.string().nullable(),
  draft: StudioDraft,
});

const VariationCount = z
  .number()
  .int()
  .min(VARIATION_COUNT_MIN, `Variations: choose ${VARIATION_COUNT_MIN} to ${VARIATION_COUNT_MAX}.`)
  .max(VARIATION_COUNT_MAX, `Variations: choose ${VARIATION_COUNT_MIN} to ${VARIATION_COUNT_MAX}.`);

export const VariationsResult = z.object({
  groupId: z.string(),
  count: z.number().int(),
  variations: z.array(
    z.object({
      index: z.number().int(),
      seed: z.number().int(),
      idempotencyKey: z.string(),
      /** accepted: created; pending: committed, the core keeps trying; refused: nothing was created. */
      state: z.enum(['accepted', 'pending', 'refused']),
      jobRowId: z.number().nullable(),
      reason: z.string().nullable(),
    }),
  ),
  draft: StudioDraft,
});
export type VariationsResult = z.infer<typeof VariationsResult>;

export const StudioSettings = z.object({
  /** Total wait limit for one generation, in seconds. */
  waitSeconds: z
    .number()
    .int()
    .min(60)
    .max(24 * 3600),
  /** The library folder new results are downloaded to (already stored results keep their paths). */
  libraryDir: z.string(),
  /** Where media are served from in this host: "/media/" or "framewright-media://media/". */
  mediaBase: z.string(),
});

/** The file of an "Import prompts": its name (for the extension) and its text, never a path. */
export const BatchFile = z
  .object({
    name: z.string().trim().min(1).max(500),
    /** A TXT or CSV file's text, at most 2,000,000 characters (the browser host's body limit derives from it). */
    text: z.string().max(BATCH_FILE_MAX_CHARS),
  })
  .strict();

/** The Create form's settings every imported row falls back to (the studio imports t2v only). */
export const BatchDefaults = z
  .object({
    model: z.string().min(1).max(200),
    generationMode: z.literal('t2v'),
    seconds: z.number().int(),
    orientation: z.string().min(1).max(200),
    resolutionTier: z.string().min(1).max(200),
    seed: z.number().int().nullable().optional(),
  })
  .strict();

export { BATCH_MAX_JOBS };

const BatchParams = z
  .object({
    profileId: Id.optional(),
    file: BatchFile,
    defaults: BatchDefaults,
    /** A deliberate new generation of the same rows (new idempotency keys). */
    runLabel: z.string().trim().min(1).max(200).optional(),
    /** At most this many new jobs are created; the rest of the new rows wait for a later import. */
    maxJobs: z.number().int().min(1).max(BATCH_MAX_JOBS).optional(),
  })
  .strict();

export const BatchIssue = z.object({
  code: z.string(),
  message: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});

export const BatchPreviewRow = z.object({
  /** The line of the file on which the row starts. */
  row: z.number().int(),
  prompt: z.string(),
  issues: z.array(BatchIssue),
  /** Identical to an earlier row: sent once, as that row. */
  duplicateOf: z.number().int().nullable(),
  /**
   * new: nothing sent yet; capped: new, past the run's job limit (not sent now); already_sent: the
   * journal has its key (nothing new is created); refused: refused earlier for its content.
   */
  state: z.enum(['new', 'capped', 'already_sent', 'refused', 'invalid']),
  model: z.string(),
  seconds: z.number().nullable(),
  orientation: z.string(),
});

export const BatchPreview = z.object({
  fileName: z.string(),
  rows: z.array(BatchPreviewRow),
  invalidRows: z.number().int(),
  /** Rows that would create a new job. */
  newRows: z.number().int(),
});
export type BatchPreview = z.infer<typeof BatchPreview>;

export const BatchSubmitRow = z.object({
  row: z.number().int(),
  state: z.enum(['accepted', 'pending', 'already_sent', 'duplicate', 'capped', 'refused', 'not_submitted']),
  idempotencyKey: z.string(),
  jobRowId: z.number().nullable(),
  duplicateOf: z.number().int().nullable(),
  error: z.object({ code: z.string(), message: z.string(), status: z.number().optional() }).nullable(),
});

export const BatchSubmitResult = z.object({
  rows: z.array(BatchSubmitRow),
  accepted: z.number().int(),
  alreadySent: z.number().int(),
  stoppedBy: z.string().nullable(),
});
export type BatchSubmitResult = z.infer<typeof BatchSubmitResult>;

/** The built-in simulator's fault scenarios (for demos and tests); null is normal operation. */
export { SIMULATOR_SCENARIOS };

const VideoDraftRef = z.object({ draftId: Id }).strict();

export const studioMethods = {
  'services.list': {
    params: z.object({ profileId: Id.optional(), serviceKind: z.string().max(100).optional() }).strict(),
    result: ServicesList,
  },
  'profiles.add': {
    params: z
      .object({
        kind: z.enum(['personal', 'debug']),
        name: z.string().trim().min(1).max(100),
        baseUrl: z.url().max(2000),
        secret: z.string().min(1).max(10_000),
        debugTokenExpiresAt: z.number().int().positive().optional(),
      })
      .strict(),
    result: ProfileSummary,
  },
  'profiles.remove': {
    params: z.object({ profileId: Id }).strict(),
    result: z.object({ removed: z.boolean() }),
  },
  'profiles.setActive': { params: z.object({ profileId: Id }).strict(), result: ProfileSummary },
  'profiles.test': {
    params: z.object({ profileId: Id }).strict(),
    result: z.object({ ok: z.boolean(), serviceCount: z.number(), message: z.string().nullable() }),
  },
  'simulator.getScenario': {
    params: z.object({}).strict(),
    result: z.object({ scenario: z.string().nullable() }),
  },
  'simulator.setScenario': {
    params: z.object({ name: z.enum(SIMULATOR_SCENARIOS).nullable() }).strict(),
    result: z.object({ scenario: z.string().nullable() }),
  },
  'files.get': { params: z.object({ fileId: StagedFileId }).strict(), result: DraftMedia },
  'drafts.create': {
    params: z.object({ form: DraftForm.optional(), fromJobRowId: z.number().int().optional() }).strict(),
    result: StudioDraft,
  },
  'drafts.get': { params: z.object({ draftId: Id }).strict(), result: StudioDraft },
  'drafts.save': { params: z.object({ draftId: Id, form: DraftForm }).strict(), result: StudioDraft },
  'drafts.list': { params: z.object({}).strict(), result: z.array(StudioDraft) },
  'video.optimize': {
    params: z.object({ draftId: Id, style: z.string().max(2000).optional() }).strict(),
    result: z.object({
      clientRequestId: z.string(),
      originalPrompt: z.string(),
      optimizedPrompt: z.string(),
    }),
  },
  'video.admission': {
    params: VideoDraftRef,
    result: z.object({
      admitted: z.boolean().nullable(),
      admission: z.record(z.string(), z.unknown()),
      generatedAt: z.string(),
    }),
  },
  'video.submit': { params: VideoDraftRef, result: SubmitResult },
  /**
   * "Generate ×N": N jobs of the draft that differ only in seed, each under its own key derived
   * from the draft's key and its index; pressing it again (or twice at once) creates nothing new.
   */
  'video.variations': {
    params: z.object({ draftId: Id, count: VariationCount }).strict(),
    result: VariationsResult,
  },
  'jobs.list': {
    params: z
      .object({
        status: JobStatusFilter.optional(),
        profileId: Id.optional(),
        cursor: z.string().max(100).optional(),
        limit: z.number().int().min(1).max(500).optional(),
      })
      .strict(),
    result: z.object({ items: z.array(JobView), nextCursor: z.string().nullable() }),
  },
  'jobs.get': { params: z.object({ jobRowId: z.number().int() }).strict(), result: JobDetail },
  'library.list': {
    params: z
      .object({
        profileId: Id.optional(),
        model: z.string().max(200).optional(),
        mode: z.string().max(200).optional(),
        status: JobStatusFilter.optional(),
        from: z.number().optional(),
        to: z.number().optional(),
        query: z.string().max(500).optional(),
        /** Picks, rejects, or the results with neither. */
        flag: z.enum(MARK_FLAG_FILTERS).optional(),
        /** At least this many stars. */
        minStars: z.number().int().min(0).max(MAX_STARS).optional(),
        label: z.enum(MARK_LABELS).optional(),
        /** Only the results of this collection, in its order (issue 41). */
        collectionId: Id.optional(),
        /** Newest first (a collection: its order), or by rating (stars, then picks before rejects). */
        sort: z.enum(LIBRARY_SORTS).optional(),
      })
      .strict(),
    result: z.object({ items: z.array(JobView) }),
  },
  /**
   * Marks a result (issue 41): each field given replaces that mark (null clears the flag or the
   * label, 0 stars unrates); the others stay. Kept in the journal and the result's sidecar.
   */
  'library.mark': {
    params: z
      .object({
        jobRowId: z.number().int(),
        flag: z.enum(MARK_FLAGS).nullable().optional(),
        stars: z.number().int().min(0).max(MAX_STARS).optional(),
        label: z.enum(MARK_LABELS).nullable().optional(),
      })
      .strict(),
    result: JobView,
  },
  'library.delete': {
    params: z.object({ jobRowId: z.number().int() }).strict(),
    result: z.object({ deleted: z.boolean(), filesRemoved: z.number() }),
  },
  'library.reveal': {
    params: z.object({ jobRowId: z.number().int() }).strict(),
    result: z.object({ folder: z.string(), opened: z.boolean() }),
  },
  /**
   * On the platform: makes the platform-marked copy of a library result (`/media/exports`) and
   * answers where the page downloads it (a same-origin path of this person's workspace).
   */
  'library.export': {
    params: z
      .object({ jobRowId: z.number().int(), outputIndex: z.number().int().min(0).optional() })
      .strict(),
    result: z.object({ fileName: z.string(), byteSize: z.number().int(), downloadPath: z.string() }),
  },
  /** Parses and checks an imported TXT/CSV of prompts against the live contract; sends nothing. */
  'studio.batch.preview': { params: BatchParams, result: BatchPreview },
  /**
   * Checks the file again and, when every row is valid, creates its new rows (bounded, the first
   * alone, none after a 401/402/403); returns once each row was answered, the jobs run on.
   */
  'studio.batch.submit': { params: BatchParams, result: BatchSubmitResult },
  'studio.settings.get': { params: z.object({}).strict(), result: StudioSettings },
  'studio.settings.update': {
    params: z
      .object({
        waitSeconds: StudioSettings.shape.waitSeconds.optional(),
        /** A new library folder for new downloads: absolute, existing or creatable, writable. */
        libraryDir: z.string().trim().min(1).max(4096).optional(),
      })
      .strict(),
    result: StudioSettings,
  },
} as const;

export const studioEvents = {
  'jobs.changed': JobView,
  'downloads.progress': z.object({
    jobRowId: z.number(),
    outputId: z.number(),
    receivedBytes: z.number(),
    totalBytes: z.number().nullable(),
  }),
  'uploads.progress': z.object({
    draftId: z.string(),
    fileName: z.string(),
    state: z.enum(['uploading', 'uploaded', 'reused']),
    /** Bytes of the upload body sent so far while uploading (throttled); null in a state-only event. */
    sentBytes: z.number().nullable(),
    totalBytes: z.number().nullable(),
  }),
  'intents.changed': z.object({
    idempotencyKey: z.string(),
    draftId: z.string().nullable(),
    state: z.enum(INTENT_STATES),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
  }),
} as const;
