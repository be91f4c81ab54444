import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLATFORM_SECRET_KEY_FILE } from '../../../../src/simulator/platform/secrets.js';
import { expectPlatformError, runtimeCall, startPlatformSimulator } from './platform-client.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const dataDir = tempFolder('fw-secrets-at-rest-');

const JOB = {
  clientTaskId: 'at-rest-task',
  model: 'h3-video',
  params: { prompt: 'A lantern on a jetty' },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
};
const DIGEST = 'sha256:' + 'c'.repeat(64);

/** Every file the simulator wrote under the data folder, except its key, as one text. */
function everythingWritten(dir: string): string {
  let text = '';
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name === PLATFORM_SECRET_KEY_FILE) continue;
    text += readFileSync(path.join(entry.parentPath, entry.name)).toString('latin1');
  }
  return text;
}

describe('platform secrets under --data-dir', () => {
  it('keeps only hashes of launch codes, sessions, recovery references and grants, and answers the same secrets after a restart', async () => {
    // so slow a time scale that the job is still queued when the simulator stops
    const first = await startPlatformSimulator({ timeScale: 1000, dataDir });
    const studio = first.client.app(0);
    const helper = first.client.app(1);
    let unusedCode: string, oldSessionId: string, sessionId: string, recoveryRef: string, jobId: string;
    let grant: string;
    const grantRequest = (runtimeSessionId: string) => ({
      runtimeSessionId,
      calleeAppKey: helper.appKey,
      scope: 'storyboard.read',
      idempotencyKey: 'at-rest-grant',
      requestDigest: DIGEST,
    });
    try {
      unusedCode = await first.client.launch(studio, 'manager');
      oldSessionId = (await first.client.openSession(studio, 'manager')).sessionId;
      const renewed = await first.client.session(studio, 'POST', `/runtime-sessions/${oldSessionId}:renew`);
      expect(renewed.status).toBe(200);
      sessionId = renewed.data.sessionId;
      expect(sessionId).not.toBe(oldSessionId);
      const created = await runtimeCall(first.client, studio, 'POST', '/media/jobs', {
        sessionId,
        json: JOB,
        headers: { 'Idempotency-Key': 'at-rest-key' },
      });
      expect(created.status).toBe(202);
      recoveryRef = created.data.jobRecoveryRef;
      jobId = created.data.platformJobId;
      const issued = await first.client.session(studio, 'POST', '/app-grants', {
        json: grantRequest(sessionId),
      });
      expect(issued.status).toBe(200);
      grant = issued.data.grant;
    } finally {
      await first.sim.close();
    }

    const written = everythingWritten(dataDir);
    expect(written).toContain(jobId); // the state was written (the check below is not vacuous)
    for (const secret of [unusedCode, oldSessionId, sessionId, recoveryRef, grant])
      expect(written).not.toContain(secret);
    expect(statSync(path.join(dataDir, PLATFORM_SECRET_KEY_FILE)).mode & 0o077).toBe(0);

    const second = await startPlatformSimulator({ timeScale: 1000, dataDir });
    try {
      const { client } = second;
      // the session and its renewal: the old session (still in its minute) renews to the same successor
      const resolved = await client.session(studio, 'GET', `/runtime-sessions/${sessionId}:resolve`);
      expect(resolved.status).toBe(200);
      expect(resolved.data.sessionId).toBe(sessionId);
      const again = await client.session(studio, 'POST', `/runtime-sessions/${oldSessionId}:renew`);
      expect(again.status).toBe(200);
      expect(again.data.sessionId).toBe(sessionId);
      // the job: its replay answers the same reference, which still reads it; another reference does not
      const replay = await runtimeCall(client, studio, 'POST', '/media/jobs', {
        sessionId,
        json: JOB,
        headers: { 'Idempotency-Key': 'at-rest-key' },
      });
      expect(replay.status).toBe(200);
      expect(replay.data).toMatchObject({ platformJobId: jobId, jobRecoveryRef: recoveryRef });
      const read = await runtimeCall(client, studio, 'GET', `/media/jobs/${jobId}`, {
        headers: { 'X-Platform-Job-Recovery-Ref': recoveryRef },
      });
      expect(read.status).toBe(200);
      const wrong = await runtimeCall(client, studio, 'GET', `/media/jobs/${jobId}`, {
        headers: { 'X-Platform-Job-Recovery-Ref': recoveryRef.slice(0, -2) + 'xx' },
      });
      expectPlatformError(wrong, 404, 'job_not_found');
      // the grant: its replay answers the same fact without the plaintext; the callee still resolves it
      const replayed = await client.session(studio, 'POST', '/app-grants', { json: grantRequest(sessionId) });
      expect(replayed.status).toBe(200);
      expect(replayed.data.grant).toBeUndefined();
      expect(replayed.text).not.toContain(grant);
      const resolvedGrant = await client.session(helper, 'POST', '/app-grants:resolve', {
        json: { grant, scope: 'storyboard.read', requestDigest: DIGEST },
      });
      expect(resolvedGrant.status).toBe(200);
      expect(JSON.stringify(resolvedGrant.data)).not.toContain(grant);
      // the launch code issued before the restart is exchanged once, after it
      const exchanged = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
        json: { launchCode: unusedCode },
      });
      expect(exchanged.status).toBe(200);
      const twice = await client.session(studio, 'POST', '/runtime-sessions:exchange', {
        json: { launchCode: unusedCode },
      });
      expectPlatformError(twice, 404, 'RUNTIME_SESSION_LAUNCH_CODE_NOT_FOUND');
    } finally {
      await second.sim.close();
    }
    // the compacted log written at the second start holds no secret either
    const rewritten = everythingWritten(dataDir);
    for (const secret of [unusedCode, oldSessionId, sessionId, recoveryRef, grant])
      expect(rewritten).not.toContain(secret);
  });
});
