import type { SubmitRequest } from '../../src/main/core/jobs/job-engine.js';

// The simulator, the temp folder and the desktop core are the shared worlds of test/support/worlds/
// (closed and removed when the test is done); these names stay for the tests that import them here.
export { openSimulator as startTestSimulator } from './worlds/simulator.js';
export { tempFolder as tempDir } from './worlds/temp-folder.js';
export { FAST_ENGINE, openDesktopCore as openTestCore } from './worlds/desktop-core.js';

/** The simulator's own count of jobs created per idempotency key (its inspection route). */
export async function createdPerKey(baseUrl: string, token: string): Promise<Map<string, number>> {
  const response = await fetch(`${baseUrl}/_simulator/idempotency`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await response.json()) as {
    data: { idempotencyKey: string; created: number; operation: string }[];
  };
  return new Map(body.data.map((d) => [d.idempotencyKey, d.created]));
}

export async function setScenario(baseUrl: string, token: string, scenario: string | null): Promise<void> {
  const response = await fetch(`${baseUrl}/_simulator/scenario`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ scenario }),
  });
  if (!response.ok) throw new Error(`setScenario ${scenario}: HTTP ${response.status}`);
}

/** An H3 text-to-video submission under the simulator profile (5 s, landscape, 768p). */
export function h3VideoSubmission(idempotencyKey: string, prompt: string, seed = 11): SubmitRequest {
  return {
    idempotencyKey,
    profileId: 'simulator',
    model: 'h3-video',
    serviceKind: 'video_generation',
    body: {
      model: 'h3-video',
      generationMode: 't2v',
      prompt,
      orientation: 'landscape',
      seconds: 5,
      resolutionTier: '768p',
      seed,
    },
  };
}
