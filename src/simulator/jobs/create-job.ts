import type { EffectiveMediaSpec } from '../../shared/api/media-jobs.js';
import type { CatalogService } from '../catalog.js';
import type { RequestContext, SimulatorState } from '../context.js';
import type { ScenarioName } from '../scenarios.js';
import { bodyHash, checkIdempotencyKey, type IdempotentOperation } from '../idempotency.js';
import { newId, sendJson } from '../http.js';
import { checkClientRequestIdHeader, headerValue } from '../headers.js';
import type { JobFailure, StoredJob } from './job-store.js';
import { jobUrl, toMediaJob } from './job-store.js';
import type { RenderTask } from './render-tasks.js';

export const SCENARIO_FAILURES: Record<'job_failed' | 'job_failed_retryable', JobFailure> = {
  job_failed: {
    errorCode: 'generation_rejected',
    errorMessage:
      'The generation failed and will fail again with the same request (simulated). Do not recreate it automatically.',
    statusCode: 422,
    retryable: false,
  },
  job_failed_retryable: {
    errorCode: 'worker_lost',
    errorMessage: 'The worker running this generation was lost (simulated). Creating it again may succeed.',
    statusCode: 503,
    retryable: true,
  },
};

export interface NewJobSpec {
  service: CatalogService;
  object?: string;
  pacing: StoredJob['pacing'];
  effectiveMediaSpec?: EffectiveMediaSpec;
  stages?: { stage: string; message: string }[];
  task: RenderTask;
}

function jobHeaders(rc: RequestContext, job: StoredJob): Record<string, string> {
  return {
    Location: jobUrl(rc.state.baseUrl, job),
    'Retry-After': String(job.pollSeconds),
    'X-Request-Id': rc.requestId,
  };
}

/** Answers, or, under `dropped_connection`, closes the connection after the work was accepted. */
export function answerOrDrop(
  rc: RequestContext,
  status: number,
  body: unknown,
  headers: Record<string, string>,
): void {
  if (rc.scenario === 'dropped_connection') {
    rc.req.socket.destroy();
    return;
  }
  sendJson(rc.res, status, body, headers);
}

/**
 * A new queued job of the identity, stored (and logged) but not yet run; a job scenario
 * (job_failed, job_failed_retryable) scripts its failure.
 */
export function storeNewJob(
  state: SimulatorState,
  identityId: string,
  requestId: string,
  spec: NewJobSpec,
  scenario: ScenarioName | null,
  clientRequestId?: string,
): StoredJob {
  const job: StoredJob = {
    jobId: newId('job'),
    identityId,
    model: spec.service.modelAlias,
    serviceKind: spec.service.serviceKind,
    object: spec.object ?? 'media.generation.job',
    requestId,
    clientRequestId,
    status: 'queued',
    stage: 'queued',
    stageMessage: 'Waiting for a worker',
    createdAtMs: state.clock.nowMs(),
    effectiveMediaSpec: spec.effectiveMediaSpec,
    outputs: [],
    pollSeconds: state.runner.pollSeconds(spec.pacing),
    pacing: spec.pacing,
    task: spec.task,
    stages: spec.stages,
    scriptedFailure:
      scenario === 'job_failed' || scenario === 'job_failed_retryable'
        ? SCENARIO_FAILURES[scenario]
        : undefined,
  };
  state.jobs.add(job);
  state.log?.job(job);
  return job;
}

/**
 * Idempotent job creation: a replay of the same key and body answers the stored job (200);
 * the same key with another body is 409 (thrown by the store); a new key (or none) validates
 * the body with `prepare` and creates one job, answered 202 with `Location` and `Retry-After`.
 */
export function createIdempotentJob(
  rc: RequestContext,
  operation: IdempotentOperation,
  raw: Record<string, unknown>,
  prepare: () => NewJobSpec,
): void {
  const { state, identity } = rc;
  const key = checkIdempotencyKey(headerValue(rc, 'idempotency-key'));
  const clientRequestId = checkClientRequestIdHeader(rc);
  const hash = bodyHash(raw);
  if (key !== undefined) {
    const record = state.idempotency.lookup(identity.id, operation, key, hash);
    const job = record ? state.jobs.get(record.resourceId) : undefined;
    if (record && job) {
      state.log?.idempotency(record);
      answerOrDrop(rc, 200, toMediaJob(job, state.baseUrl, state.clock.nowMs()), {
        ...jobHeaders(rc, job),
        'Idempotent-Replayed': 'true',
      });
      return;
    }
  }
  const spec = prepare();
  const runner = state.runner;
  const job = storeNewJob(state, identity.id, rc.requestId, spec, rc.scenario, clientRequestId);
  if (key !== undefined) {
    const record = state.idempotency.remember({
      identityId: identity.id,
      operation,
      key,
      model: job.model,
      bodyHash: hash,
      resourceId: job.jobId,
      firstSeenMs: job.createdAtMs,
    });
    state.log?.idempotency(record);
  }
  runner.run(job);
  answerOrDrop(rc, 202, toMediaJob(job, state.baseUrl, state.clock.nowMs()), jobHeaders(rc, job));
}
