import { RuntimeApiClient } from '../../src/main/core/api-clients/runtime/runtime-api-client.js';
import { sessionAuth } from '../../src/main/core/api-clients/runtime/runtime-auth.js';

/** What the platform's tests need of a running simulator (in this process or another). */
export interface SimulatorPlatform {
  token: string;
  platform: { runtimeBaseUrl: string; launchUrl: string; apps: { appKey: string; appCredential: string }[] };
}

/** Opens the application for a fixture person, as the application center does: a launch code. */
export async function launchCodeOf(sim: SimulatorPlatform, appKey: string, user: string): Promise<string> {
  const res = await fetch(sim.platform.launchUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ appKey, user }),
  });
  if (res.status !== 200) throw new Error(`launch: HTTP ${res.status}`);
  return ((await res.json()) as { runtime: { launchCode: string } }).runtime.launchCode;
}

/** The platform's jobs of the session's person (one events snapshot), as `{platformJobId, clientTaskId}`. */
export async function platformJobsOfSession(
  sim: SimulatorPlatform,
  appKey: string,
  sessionId: string,
): Promise<{ platformJobId: string; clientTaskId: string }[]> {
  const app = sim.platform.apps.find((a) => a.appKey === appKey)!;
  const client = new RuntimeApiClient({
    runtimeBaseUrl: sim.platform.runtimeBaseUrl,
    appCredential: async () => app.appCredential,
  });
  const stream = await client.openEvents(sessionAuth(sessionId), { once: true });
  let text = '';
  for await (const chunk of stream.body) text += (chunk as Buffer).toString('utf8');
  const data = text
    .split('\n\n')
    .find((block) => block.startsWith('event: snapshot'))!
    .split('\n')
    .find((line) => line.startsWith('data: '))!
    .slice('data: '.length);
  return (JSON.parse(data) as { jobs: { platformJobId: string; clientTaskId: string }[] }).jobs;
}
