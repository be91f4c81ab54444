import type { JobDetail } from '../../src/shared/bridge/domains/studio.js';

/** A finished t2v job as `jobs.get` returns it. */
export function jobDetail(
  patch: { requested?: Record<string, unknown> } & Partial<Omit<JobDetail, 'requested'>> = {},
): JobDetail {
  const requested = {
    model: 'h3-video',
    generationMode: 't2v',
    prompt: 'A lighthouse at dusk',
    resolutionTier: '768p',
    orientation: 'landscape',
    seconds: 5,
    seed: 42,
    ...patch.requested,
  };
  const { requested: _r, ...rest } = patch;
  return {
    rowId: 1,
    variation: null,
    stageStartedAt: null,
    expectedTotalSeconds: null,
    expectedRemainingSeconds: null,
    estimateBasis: null,
    stages: [],
    profileId: 'simulator',
    model: 'h3-video',
    serviceKind: 'video_generation',
    jobId: 'job_1',
    requestId: 'req_1',
    status: 'succeeded',
    stage: 'succeeded',
    stageMessage: null,
    elapsedSeconds: 12.34,
    queuedSeconds: 1.02,
    runningSeconds: 11.3,
    nextPollAt: null,
    errorCode: null,
    errorMessage: null,
    retryable: null,
    acceptedAt: 1,
    completedAt: 2,
    updatedAt: 2,
    prompt: String(requested.prompt),
    title: String(requested.prompt),
    generationMode: 't2v',
    seconds: typeof requested.seconds === 'number' ? requested.seconds : null,
    draftId: null,
    outputs: [],
    requested,
    effectiveSpec: {
      fps: 24,
      width: 1376,
      height: 768,
      seconds: requested.seconds,
      audio: { channels: 2, codec: 'aac' },
    },
    seed: typeof requested.seed === 'number' ? requested.seed : null,
    originalPrompt: null,
    optimizedPrompt: null,
    references: [],
    ...rest,
  };
}
