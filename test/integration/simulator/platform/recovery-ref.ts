import { expect } from 'vitest';
import { runtimeCall, type PlatformApp, type PlatformClient } from './platform-client.js';

/**
 * A real job recovery reference of `sessionId`'s person: a text-to-video job scripted to fail
 * (`job_failed`), so nothing is rendered.
 */
export async function recoveryRefOfFailedJob(
  client: PlatformClient,
  app: PlatformApp,
  sessionId: string,
  clientTaskId: string,
): Promise<string> {
  const job = await runtimeCall(client, app, 'POST', '/media/jobs', {
    sessionId,
    json: {
      clientTaskId,
      model: 'h3-video',
      serviceKind: 'video_generation',
      params: { prompt: 'A lighthouse at dusk' },
      mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
    },
    headers: { 'X-Simulator-Scenario': 'job_failed' },
  });
  expect(job.status, job.text).toBe(202);
  return job.data.jobRecoveryRef as string;
}
