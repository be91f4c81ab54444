import { setNewest } from '../../bounded-map.js';
import type { ServiceEntry } from '../../../../shared/api/discovery.js';
import { buildMediaGenerationRequest } from '../../../../shared/h3/build-request.js';
import { AppError } from '../../errors.js';
import { runtimeInputOf, runtimeInputsOf, type RuntimeInputsDeps } from './runtime-inputs.js';
import type { JobWithInputs } from '../../operations/job-with-inputs.js';
import { resourceAttributionFor } from '../../projects/resource-attribution.js';
import type { JobEngine, RunResult } from '../../jobs/job-engine.js';
import { runtimeJobBody } from '../../jobs/runtime-job-body.js';
import { chooseService } from '../../operations/service-common.js';
import type { RuntimeApiClient } from '../../api-clients/runtime/runtime-api-client.js';
import { sessionAuth } from '../../api-clients/runtime/runtime-auth.js';
import { limitsFor, type LocalVideoDraft, type VideoSubmission } from '../../creating/submit-video.js';
import { toServiceEntryView } from '../../discovery/studio-discovery.js';
import { localDraftOf } from '../../creating/draft-inputs.js';
import type { StudioDrafts } from '../../creating/drafts.js';
import { dryRunAdmission, type AdmissionView } from './dry-run-admission.js';
import type { StagedFiles } from '../../storage/staged-files.js';

/** The one profile of a platform workspace: "the platform runtime, as this person". */
export const RUNTIME_PROFILE_ID = 'platform-runtime';

/** The spec's largest page of `/available-services`. */
const SERVICES_PAGE_SIZE = 200;
/**
 * How long one RuntimeSession's list of services answers Create's list, the dry-run, the creation
 * body and the connection check (ms): one `/available-services` listing per session per 30 s
 * instead of one per call. A failed listing is not kept; the dry-run before Generate is the
 * platform's own verdict whatever the list said.
 */
export const SERVICE_LIST_MAX_AGE_MS = 30_000;
/** Sessions whose list is kept (one person in one context, a few browsers). */
const KEPT_SESSION_LISTS = 8;

export interface RuntimeCreateDeps {
  client: Pick<RuntimeApiClient, 'availableServices' | 'dryRun'>;
  /** The person's session now (null: none, the page is told to reopen the application). */
  session(): Promise<{ sessionId: string } | null>;
  drafts: Pick<StudioDrafts, 'stored'>;
  staged: Pick<StagedFiles, 'resolve'>;
  /** The person's object storage, signing key and public origin: references become signed readUrls. */
  readUrls: RuntimeInputsDeps;
  /** The project a draft is filed under (its jobs carry it as `resourceAttribution`). */
  projects: { draftProject(draftId: string): string | undefined };
  engine: Pick<JobEngine, 'createOrContinue'>;
  /** The clock of the services list's age (tests). */
  now?: () => number;
}

/**
 * The `status` words of an `/available-services` item that say the service cannot be called now.
 * The spec names `status` without its values, on a list of *available* services: a listed service
 * is taken as callable unless its word plainly says otherwise (`available` is one such callable
 * word, not the only one); the dry-run before Generate is the platform's own verdict either way.
 */
const NOT_CALLABLE_STATUS =
  /^(unavailable|not[_-]?available|disabled|suspended|offline|maintenance|inactive|paused|retired|withdrawn|closed)$/i;

/** Whether a runtime service's `status` leaves it callable (see {@link NOT_CALLABLE_STATUS}). */
export function runtimeStatusCallable(status: string): boolean {
  return !NOT_CALLABLE_STATUS.test(status.trim());
}

/** A runtime service as the studio's discovery entry (the same contract fields as the public list). */
function serviceEntryOf(item: {
  model: string;
  displayName?: string;
  serviceKind: string;
  status: string;
  [key: string]: unknown;
}): ServiceEntry {
  const object = (v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  const entry: ServiceEntry = {
    modelAlias: item.model,
    serviceKind: item.serviceKind,
    available: runtimeStatusCallable(item.status),
    serviceDisplayName: item.displayName ?? item.model,
  };
  const media = object(item.mediaSpecContract);
  const usage = object(item.apiUsageContract);
  const optimization = object(item.promptOptimization);
  if (media) entry.mediaSpecContract = media;
  if (usage) entry.apiUsageContract = usage;
  if (optimization) entry.promptOptimization = optimization;
  return entry;
}

/**
 * Create on the platform (application-platform-api.md, section A): the services come from
 * `/available-services`; a draft's references are stored in the person's own storage and travel as
 * signed `readUrl`s (H3 rules checked first, exactly as for the public interface); Generate is
 * preceded by `/media/jobs:dry-run` (the admission view); the creation body is `runtimeJobBody`
 * with `clientTaskId` = the draft's business id and the draft's project as `resourceAttribution`,
 * committed once in the journal and replayed byte for byte by the engine's runtime transport.
 */
export class RuntimeCreate {
  constructor(private readonly d: RuntimeCreateDeps) {}

  private async sessionId(): Promise<string> {
    const session = await this.d.session();
    if (!session)
      throw new AppError(
        'runtime.no_session',
        'Your platform session is over: reopen Framewright from your application center.',
      );
    return session.sessionId;
  }

  private readonly lists = new Map<string, { at: number; list: Promise<ServiceEntry[]> }>();

  /** The services this session may call (of one kind when asked), listed at most once per max age. */
  async listServices(serviceKind?: string): Promise<ServiceEntry[]> {
    const sessionId = await this.sessionId();
    const now = (this.d.now ?? Date.now)();
    let kept = this.lists.get(sessionId);
    if (!kept || now - kept.at > SERVICE_LIST_MAX_AGE_MS) {
      const entry = { at: now, list: this.listAll(sessionId) };
      setNewest(this.lists, sessionId, entry, KEPT_SESSION_LISTS);
      entry.list.catch(() => {
        if (this.lists.get(sessionId) === entry) this.lists.delete(sessionId);
      });
      kept = entry;
    }
    const all = await kept.list;
    return serviceKind ? all.filter((s) => s.serviceKind === serviceKind) : all;
  }

  /** Every page of `/available-services` for a session. */
  private async listAll(sessionId: string): Promise<ServiceEntry[]> {
    const auth = sessionAuth(sessionId);
    const out: ServiceEntry[] = [];
    for (let page = 1; ; page += 1) {
      const answer = await this.d.client.availableServices(auth, { page, pageSize: SERVICES_PAGE_SIZE });
      out.push(...answer.items.map(serviceEntryOf));
      const total = answer.total ?? out.length;
      if (answer.items.length === 0 || out.length >= total) return out;
    }
  }

  /** `services.list`: what the runtime offers this person (kept per session, never across people). */
  async services(serviceKind?: string) {
    const services = await this.listServices(serviceKind);
    return {
      profileId: RUNTIME_PROFILE_ID,
      services: services.map(toServiceEntryView),
      fetchedAt: Date.now(),
      fromCache: false,
    };
  }

  /**
   * The runtime creation body of a video draft: rules first, then signed readUrls for what the
   * mode sends; `project` (a studio draft's) becomes the job's `resourceAttribution`.
   */
  private async bodyOf(local: LocalVideoDraft, clientTaskId: string, project?: string) {
    const service = chooseService(
      await this.listServices('video_generation'),
      ['video_generation'],
      local.model,
    );
    const limits = limitsFor(service);
    const inputs = await runtimeInputsOf(local, limits, this.d.readUrls);
    // each input named by its content address: the rules' "one asset per reference" holds by content
    const byFile = new Map<string, string>();
    const files = [local.firstFrame, local.lastFrame, ...local.references];
    for (const file of files) {
      if (!file) continue;
      const item = inputs.find((i) => i.sha256 === file.sha256);
      if (item) byFile.set(file.id, item.sha256);
    }
    const request = buildMediaGenerationRequest(local, byFile, limits) as unknown as Record<string, unknown>;
    return runtimeJobBody('video_generation', request, {
      clientTaskId,
      inputs,
      resourceAttribution: resourceAttributionFor(project),
    });
  }

  /** The body of a studio draft (its stored form unless given), `clientTaskId` the draft's id by default. */
  private async draftBodyOf(draftId: string, draft?: LocalVideoDraft, clientTaskId: string = draftId) {
    const stored = this.d.drafts.stored(draftId);
    const local = draft ?? (await localDraftOf(this.d.staged, stored.form));
    return this.bodyOf(local, clientTaskId, this.d.projects.draftProject(draftId));
  }

  /** `video.admission` on the platform: the runtime's dry-run of exactly the body Generate would send. */
  async admission(draftId: string): Promise<AdmissionView> {
    const body = await this.draftBodyOf(draftId);
    const auth = sessionAuth(await this.sessionId());
    return dryRunAdmission({ dryRun: (b) => this.d.client.dryRun(auth, b) }, body);
  }

  /**
   * An image, audio or document-parse job on the platform (the Playground's panels, a document
   * parse): its checked input files are stored and sent as signed readUrls (an image as
   * `reference_image`, a Foley video as `reference_video`, a document as `input_document`), the
   * public body becomes the runtime body (`clientTaskId` = the job's idempotency key), committed
   * once and created by the engine; a key already committed is continued, nothing stored again.
   */
  async createMediaJob(job: JobWithInputs): Promise<RunResult & { body: Record<string, unknown> }> {
    if (
      job.serviceKind !== 'image_generation' &&
      job.serviceKind !== 'audio_generation' &&
      job.serviceKind !== 'document_parse'
    )
      throw new AppError('runtime.invalid_job_body', `${job.serviceKind} is not created here.`);
    const serviceKind = job.serviceKind;
    let body: Record<string, unknown> | undefined;
    const result = await this.d.engine.createOrContinue(
      job.idempotencyKey,
      async () => {
        const inputs = [];
        for (const file of job.files)
          inputs.push(
            await runtimeInputOf(
              file,
              file.kind === 'document'
                ? 'input_document'
                : file.kind === 'video'
                  ? 'reference_video'
                  : file.kind === 'audio'
                    ? 'reference_audio'
                    : 'reference_image',
              this.d.readUrls,
            ),
          );
        // each input named by its content address in the public body; the runtime body drops those fields
        const request = job.bodyFor(inputs.map((input) => input.sha256));
        body = runtimeJobBody(serviceKind, request, { clientTaskId: job.idempotencyKey, inputs });
        return {
          profileId: RUNTIME_PROFILE_ID,
          model: job.service.modelAlias,
          serviceKind,
          body,
        };
      },
      job.wait,
    );
    return {
      ...result,
      body: body ?? (JSON.parse(result.intent.canonicalBodyJson) as Record<string, unknown>),
    };
  }

  /** The runtime's video services for this person (a batch's rows are checked against them). */
  videoServices(): Promise<ServiceEntry[]> {
    return this.listServices('video_generation');
  }

  /** The runtime's document parse services (a parse runs as their `document_parse` job). */
  documentServices(): Promise<ServiceEntry[]> {
    return this.listServices('document_parse');
  }

  /** The runtime's image and audio services (the Playground on the platform lists only these). */
  async mediaServices(): Promise<ServiceEntry[]> {
    return (await this.listServices()).filter(
      (s) => s.serviceKind === 'image_generation' || s.serviceKind === 'audio_generation',
    );
  }

  /**
   * A video's creation (StudioSubmit's `createJob`, StudioBatch's `createVideo`): an intent already
   * committed under the submission's key is continued (its stored body replayed), never rebuilt;
   * otherwise the body is built once and committed with the key before anything is sent. A
   * draft's `clientTaskId` is the submission's (a variation's own), else the draft's id, and the
   * draft's project is attributed; a submission without a draft (a batch row) has the body of its
   * own draft, `clientTaskId` = its idempotency key, and no project.
   */
  async create(submission: VideoSubmission): Promise<RunResult> {
    const { draftId } = submission;
    return this.d.engine.createOrContinue(
      submission.idempotencyKey,
      async () => ({
        profileId: RUNTIME_PROFILE_ID,
        model: submission.draft.model,
        serviceKind: 'video_generation',
        body: draftId
          ? await this.draftBodyOf(draftId, submission.draft, submission.clientTaskId)
          : await this.bodyOf(submission.draft, submission.clientTaskId ?? submission.idempotencyKey),
        ...(draftId ? { draftId } : {}),
      }),
      submission.wait,
    );
  }
}
