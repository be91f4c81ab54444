import { createReadStream } from 'node:fs';
import type { CatalogService } from '../catalog.js';
import { ApiError, fromZodError } from '../errors.js';
import { bodyHash, checkIdempotencyKey } from '../idempotency.js';
import { parseWith, readJsonObject, sendJson } from '../http.js';
import { storeNewJob, type NewJobSpec } from '../jobs/create-job.js';
import type { StoredJob } from '../jobs/job-store.js';
import { PlatformError, traceIdOf } from './errors.js';
import { RUNTIME_PATH, type PlatformContext, type PlatformRoute } from './router.js';
import { runtimeCaller, sessionCaller } from './runtime-auth.js';
import { resolveRuntimeInputs, type ReadUrlCheck } from './runtime-inputs.js';
import { checkInputRoles, prepareRuntimeJob, publicBody, serviceOf } from './runtime-job-kinds.js';
import { estimateCost } from './runtime-pricing.js';
import {
  RuntimeJobStore,
  runtimeIdentityId,
  toRuntimeJob,
  type RuntimeJobRecord,
} from './runtime-job-store.js';
import {
  BatchGetRequest,
  BatchGetResponse,
  DryRunResult,
  errorDoc,
  RuntimeJobRequest,
  RuntimeJobSchema,
} from './schemas.js';
import { keyReservations } from './key-reservations.js';
import { dryRunScenarioBlocker, jobRecoveryUnavailable } from './scenarios.js';
import type { SessionRecord } from './session-store.js';
import type { z } from 'zod';

type JobRequest = z.infer<typeof RuntimeJobRequest>;

const runtimeBaseUrl = (pc: PlatformContext) => new URL(pc.state.baseUrl).origin + RUNTIME_PATH;

export function checkAttribution(pc: PlatformContext, body: Pick<JobRequest, 'resourceAttribution'>): void {
  const type = body.resourceAttribution?.resourceType;
  if (type !== undefined && !pc.app.resourceTypes.includes(type))
    throw new PlatformError(
      400,
      'resource_type_not_declared',
      `resourceType "${type}" is not declared by ${pc.app.appKey}.`,
      {
        phase: 'input_validation',
        details: { field: 'resourceAttribution.resourceType', declared: [...pc.app.resourceTypes] },
      },
    );
}

/** Validates the whole body and reads its inputs (the roles are checked before anything is read). */
async function prepare(pc: PlatformContext, session: SessionRecord, body: JobRequest) {
  checkAttribution(pc, body);
  const service = serviceOf(body);
  const raw = publicBody(body, service);
  checkInputRoles(service, body.inputs ?? []);
  const identity = {
    id: runtimeIdentityId(pc.app.appKey, session.subject.userId),
    label: `${pc.app.appKey}/${session.user}`,
  };
  const inputs = await resolveRuntimeInputs(pc.state, identity.id, service, body.inputs ?? []);
  const plan = () =>
    prepareRuntimeJob(
      raw,
      service,
      inputs.assets.filter((a) => a !== undefined),
      pc.state,
      identity,
    );
  return { service, identity, inputs, plan };
}

/** The key of an idempotent runtime write: the `Idempotency-Key` header or the body's `idempotencyKey`, which must agree. */
export function idempotencyKeyOf(pc: PlatformContext, bodyKey: string | undefined): string | undefined {
  const header = pc.req.headers['idempotency-key'];
  const fromHeader = checkIdempotencyKey(Array.isArray(header) ? header[0] : header);
  if (fromHeader !== undefined && bodyKey !== undefined && fromHeader !== bodyKey)
    throw new PlatformError(
      400,
      'idempotency_key_mismatch',
      'The Idempotency-Key header and body idempotencyKey differ.',
      {
        phase: 'input_validation',
        details: { field: 'idempotencyKey' },
      },
    );
  return fromHeader ?? bodyKey;
}

function answerJob(
  pc: PlatformContext,
  status: number,
  record: RuntimeJobRecord,
  job: StoredJob,
  withRecoveryRef: boolean,
  headers: Record<string, string> = {},
): void {
  if (job.status === 'queued' || job.status === 'running')
    headers['Retry-After'] = String(Math.max(1, job.pollSeconds));
  const recoveryRef = withRecoveryRef
    ? pc.state.platform.runtimeJobs.recoveryRefOf(record.platformJobId)
    : undefined;
  sendJson(pc.res, status, toRuntimeJob(record, job, runtimeBaseUrl(pc), recoveryRef), headers);
}

/** `POST /media/jobs`: 202 RuntimeJob with `jobRecoveryRef`; a replay of the same business answers the same job. */
async function createJob(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const body = parseWith(RuntimeJobRequest, await readJsonObject(pc.req));
  const key = idempotencyKeyOf(pc, body.idempotencyKey);
  const { idempotencyKey: _key, ...business } = body;
  const hash = bodyHash(business);
  const store = pc.state.platform.runtimeJobs;
  const scope = RuntimeJobStore.scope(pc.app.appKey, session.subject.userId, body.clientTaskId, key);
  const conflict = (platformJobId?: string) =>
    new PlatformError(
      409,
      'idempotency_conflict',
      'This clientTaskId and key were used with another body; a changed request needs a new business key.',
      {
        phase: 'idempotency',
        ...(platformJobId ? { details: { platformJobId } } : {}),
      },
    );
  // the key is held from its check to the stored record (the readUrls are read in between)
  await keyReservations(pc.state.platform).hold(`job\u0000${scope}`, hash, conflict, async () => {
    const existing = store.inScope(scope);
    if (existing) {
      if (existing.bodyHash !== hash) throw conflict(existing.platformJobId);
      const job = pc.state.jobs.get(existing.platformJobId)!;
      answerJob(pc, 200, existing, job, true, { 'Idempotent-Replayed': 'true' });
      return;
    }
    await createNewJob(pc, session, body, key, hash);
  });
}

async function createNewJob(
  pc: PlatformContext,
  session: SessionRecord,
  body: JobRequest,
  key: string | undefined,
  hash: string,
): Promise<void> {
  const store = pc.state.platform.runtimeJobs;
  const { identity, inputs, plan } = await prepare(pc, session, body);
  if (inputs.errors[0]) throw inputs.errors[0];
  const job = storeNewJob(pc.state, identity.id, pc.requestId, plan(), pc.scenario);
  const record = store.newRecord({
    platformJobId: job.jobId,
    appKey: pc.app.appKey,
    appVersionId: session.appVersionId,
    userId: session.subject.userId,
    accountId: session.subject.accountId,
    organizationId: session.subject.organizationId,
    clientTaskId: body.clientTaskId,
    idempotencyKey: key,
    bodyHash: hash,
    resourceAttribution: body.resourceAttribution,
    createdAtMs: job.createdAtMs,
  });
  store.add(record);
  pc.state.platform.jobChanged(job);
  pc.state.runner.run(job);
  if (pc.scenario === 'dropped_connection') {
    pc.req.socket.destroy();
    return;
  }
  if (pc.scenario === 'job_recovery_unavailable') throw jobRecoveryUnavailable(body.clientTaskId);
  answerJob(pc, 202, record, job, true);
}

function blockerOf(error: ApiError, phase: string) {
  return {
    code: error.code,
    phase: error instanceof PlatformError && error.phase ? error.phase : phase,
    message: error.message,
    retryable: error.retryable,
    httpStatus: error.status,
    ...(error.details ? { details: error.details } : {}),
  };
}

/** The creation's idempotency check, as a dry-run blocker: this clientTaskId and key already name a job of another body. */
function dryRunConflict(
  pc: PlatformContext,
  session: SessionRecord,
  body: JobRequest,
  key: string | undefined,
): PlatformError | undefined {
  const scope = RuntimeJobStore.scope(pc.app.appKey, session.subject.userId, body.clientTaskId, key);
  const existing = pc.state.platform.runtimeJobs.inScope(scope);
  const { idempotencyKey: _key, ...business } = body;
  if (!existing || existing.bodyHash === bodyHash(business)) return undefined;
  return new PlatformError(
    409,
    'idempotency_conflict',
    'This clientTaskId and key were used with another body; a changed request needs a new business key.',
    { phase: 'idempotency', details: { platformJobId: existing.platformJobId } },
  );
}

/** `POST /media/jobs:dry-run`: the same checks as creation, reported as blockers; nothing is created, charged or locked. */
async function dryRun(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const raw = await readJsonObject(pc.req);
  const parsed = RuntimeJobRequest.safeParse(raw);
  if (!parsed.success) {
    // spec: "`accepted: false` is a valid 200 result; early authentication or JSON errors stay
    // 4xx" — a body that is JSON but not a job body is a rejection, reported as its blocker
    const clientTaskId = typeof raw.clientTaskId === 'string' ? raw.clientTaskId : null;
    const blocker = blockerOf(fromZodError(parsed.error), 'input_validation');
    sendJson(pc.res, 200, {
      accepted: false,
      clientTaskId,
      appContext: { appKey: pc.app.appKey, appVersionId: session.appVersionId },
      blockers: [blocker],
      readUrlChecks: [],
      admission: { decision: 'reject', reason: blocker.code },
      traceId: traceIdOf(pc.requestId),
    });
    return;
  }
  const body = parsed.data;
  const key = idempotencyKeyOf(pc, body.idempotencyKey);
  const blockers: ReturnType<typeof blockerOf>[] = [];
  const simulated = pc.scenario ? dryRunScenarioBlocker(pc.scenario) : undefined;
  if (simulated) blockers.push(blockerOf(simulated, 'admission'));
  const conflict = dryRunConflict(pc, session, body, key);
  if (conflict) blockers.push(blockerOf(conflict, 'idempotency'));
  let readUrlChecks: ReadUrlCheck[] = [];
  let service: CatalogService | undefined;
  let spec: NewJobSpec | undefined;
  try {
    const prepared = await prepare(pc, session, body);
    service = prepared.service;
    readUrlChecks = prepared.inputs.checks;
    for (const error of prepared.inputs.errors) blockers.push(blockerOf(error, 'input_fetch'));
    if (!prepared.inputs.errors.length) spec = prepared.plan();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    blockers.push(blockerOf(error, 'input_validation'));
  }
  const effective = spec?.effectiveMediaSpec;
  const result: Record<string, unknown> = {
    accepted: blockers.length === 0,
    clientTaskId: body.clientTaskId,
    appContext: {
      appKey: pc.app.appKey,
      // the version the person's session runs (the active one when it was opened), not the fixture's
      appVersionId: session.appVersionId,
      ...(body.resourceAttribution ? { resourceAttribution: body.resourceAttribution } : {}),
    },
    blockers,
    readUrlChecks,
    traceId: traceIdOf(pc.requestId),
  };
  if (service) {
    result.serviceKind = service.serviceKind;
    result.model = service.modelAlias;
  }
  if (effective && service) {
    const { seed: _seed, ...normalized } = effective;
    result.normalizedSpec = normalized;
    result.estimatedCost = estimateCost(service.serviceKind, effective);
  }
  result.admission =
    blockers.length === 0 ? { decision: 'admit' } : { decision: 'reject', reason: blockers[0]!.code };
  sendJson(pc.res, 200, result);
}

/** The job a caller may read: the session's own job, or the one job its recovery reference is bound to; else a uniform 404. */
function readableJob(pc: PlatformContext): { record: RuntimeJobRecord; job: StoredJob } {
  const caller = runtimeCaller(pc, { recovery: true });
  const id = pc.params.jobId ?? '';
  const record = pc.state.platform.runtimeJobs.get(id);
  const allowed =
    record &&
    record.appKey === pc.app.appKey &&
    (caller.kind === 'session'
      ? record.userId === caller.session.subject.userId
      : pc.state.platform.runtimeJobs.byRecovery(caller.recoveryRef) === record);
  const job = allowed ? pc.state.jobs.get(id) : undefined;
  if (!record || !job)
    throw new PlatformError(404, 'job_not_found', 'No job with this id is available to this caller.');
  return { record, job };
}

async function readJob(pc: PlatformContext): Promise<void> {
  const { record, job } = readableJob(pc);
  answerJob(pc, 200, record, job, false);
}

async function downloadResult(pc: PlatformContext): Promise<void> {
  const { job } = readableJob(pc);
  const asset = job.outputs.find((a) => a.assetId === pc.params.resultId);
  if (job.status !== 'succeeded' || !asset)
    throw new PlatformError(404, 'result_not_found', 'No result with this id is available to this caller.');
  pc.res.writeHead(200, {
    'Content-Type': asset.mimeType,
    'Content-Length': String(asset.byteSize),
    'Cache-Control': 'no-store',
    'X-Content-Sha256': asset.sha256,
  });
  await new Promise<void>((resolve, reject) => {
    createReadStream(asset.path).on('error', reject).pipe(pc.res).on('finish', resolve).on('close', resolve);
  });
}

/** `POST /media/jobs:batch-get`: the session's own jobs; unknown and not owned ids alike are `missing`. */
async function batchGet(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const body = parseWith(BatchGetRequest, await readJsonObject(pc.req));
  const ids = [...new Set(body.platformJobIds)];
  const items: Record<string, unknown>[] = [];
  const missing: string[] = [];
  for (const id of ids) {
    const record = pc.state.platform.runtimeJobs.get(id);
    const job = pc.state.jobs.get(id);
    if (record && job && record.appKey === pc.app.appKey && record.userId === session.subject.userId)
      items.push(toRuntimeJob(record, job, runtimeBaseUrl(pc)));
    else missing.push(id);
  }
  sendJson(pc.res, 200, { items, missing });
}

const SESSION_HEADER_DOC = {
  name: 'X-Platform-Runtime-Session-Id',
  required: false,
  description: "the person's RuntimeSession (required except for recovery reads)",
};
const RECOVERY_HEADER_DOC = {
  name: 'X-Platform-Job-Recovery-Ref',
  required: false,
  description: 'recovery reference of this one job, with the credential and without the session header',
};
const IDEMPOTENCY_DOC = {
  name: 'Idempotency-Key',
  required: false,
  description: 'equal to body idempotencyKey when both are sent',
};
const RUNTIME_ERRORS = {
  400: errorDoc('Invalid field (or both session and recovery headers)'),
  401: errorDoc('Credential or session missing or invalid'),
  403: errorDoc('A recovery reference cannot authorize this call'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('Unavailable (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};
const WRITE_ERRORS = {
  ...RUNTIME_ERRORS,
  402: errorDoc('Insufficient balance'),
  404: errorDoc('Model unknown'),
  409: errorDoc('Idempotency conflict, or service not available'),
  413: errorDoc('Body too large'),
  415: errorDoc('Not JSON'),
  422: errorDoc('readUrl content rejected (size, checksum, media, H3 rules)'),
};

export const runtimeJobRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/runtime/media/jobs',
    surface: 'runtime_write',
    handler: createJob,
    doc: {
      operationId: 'createRuntimeJob',
      summary: 'Create a video, image or audio job (202 with jobRecoveryRef; a replay answers the same job)',
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC, IDEMPOTENCY_DOC],
      requestBody: { schema: RuntimeJobRequest, required: true },
      responses: {
        200: { description: 'Replay of the same business: the existing job', schema: RuntimeJobSchema },
        202: { description: 'Accepted', schema: RuntimeJobSchema, headers: ['Retry-After'] },
        ...WRITE_ERRORS,
        503: errorDoc(
          'Unavailable (Retry-After); or job_recovery_unavailable: the job may be accepted, replay the same ' +
            'clientTaskId, key and body to get it with its jobRecoveryRef',
        ),
      },
    },
  },
  {
    method: 'POST',
    path: '/runtime/media/jobs:dry-run',
    surface: 'runtime_dry_run',
    handler: dryRun,
    doc: {
      operationId: 'dryRunRuntimeJob',
      summary:
        'Check a job-creation body without creating, charging or locking anything (accepted:false is a 200)',
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC],
      requestBody: { schema: RuntimeJobRequest, required: true },
      responses: {
        200: {
          description:
            'Dry-run result; a refusal for a business reason (balance, service, media rule, unreadable input, idempotency) is accepted:false with its blockers',
          schema: DryRunResult,
        },
        ...RUNTIME_ERRORS,
        413: errorDoc('Body too large'),
        415: errorDoc('Not JSON'),
      },
    },
  },
  {
    method: 'POST',
    path: '/runtime/media/jobs:batch-get',
    surface: 'runtime_read',
    handler: batchGet,
    doc: {
      operationId: 'batchGetRuntimeJobs',
      summary: "The session's own jobs by id (1..100, de-duplicated); others are missing",
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC],
      requestBody: { schema: BatchGetRequest, required: true },
      responses: {
        200: { description: '{items, missing}', schema: BatchGetResponse },
        ...RUNTIME_ERRORS,
        413: errorDoc('Body too large'),
        415: errorDoc('Not JSON'),
      },
    },
  },
  {
    method: 'GET',
    path: '/runtime/media/jobs/{jobId}',
    surface: 'runtime_read',
    handler: readJob,
    doc: {
      operationId: 'getRuntimeJob',
      summary: 'Read one job (200 even when failed); session or its recovery reference',
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC, RECOVERY_HEADER_DOC],
      responses: {
        200: { description: 'RuntimeJob', schema: RuntimeJobSchema },
        404: errorDoc('Unknown or not readable by this caller'),
        ...RUNTIME_ERRORS,
      },
    },
  },
  {
    method: 'GET',
    path: '/runtime/media/jobs/{jobId}/results/{resultId}/download',
    surface: 'runtime_read',
    handler: downloadResult,
    doc: {
      operationId: 'downloadRuntimeJobResult',
      summary: 'Raw bytes of one result (auth as the single-job read)',
      tags: ['runtime'],
      headers: [SESSION_HEADER_DOC, RECOVERY_HEADER_DOC],
      responses: {
        200: { description: 'The result bytes', contentType: 'application/octet-stream' },
        404: errorDoc('Unknown or not readable by this caller'),
        ...RUNTIME_ERRORS,
      },
    },
  },
];
