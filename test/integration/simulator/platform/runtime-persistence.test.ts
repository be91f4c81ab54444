import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeCall, startPlatformSimulator } from './platform-client.js';
import { tempFolder } from '../../../support/worlds/temp-folder.js';

const dataDir = tempFolder('fw-runtime-persist-');

const BODY = {
  clientTaskId: 'persist-task',
  model: 'h3-video',
  params: { prompt: 'A kite over the dunes' },
  mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'portrait', seconds: 5 },
  resourceAttribution: { resourceType: 'project', resourceId: 'proj-1' },
};

const open = (timeScale: number) => startPlatformSimulator({ timeScale, dataDir });

describe('runtime state under --data-dir', () => {
  it('keeps a job accepted before a restart: its replay, its recovery read, and its render after the restart', async () => {
    let jobId: string;
    let recoveryRef: string;
    let sessionId: string;
    // so slow a time scale that the job is still queued when the simulator stops
    const first = await open(1000);
    try {
      const studio = first.client.app(0);
      sessionId = (await first.client.openSession(studio, 'member')).sessionId;
      const created = await runtimeCall(first.client, studio, 'POST', '/media/jobs', {
        sessionId,
        json: BODY,
        headers: { 'Idempotency-Key': 'persist-key' },
      });
      expect(created.status).toBe(202);
      jobId = created.data.platformJobId;
      recoveryRef = created.data.jobRecoveryRef;
    } finally {
      await first.sim.close();
    }
    const second = await open(0.02);
    try {
      const studio = second.client.app(0);
      const replay = await runtimeCall(second.client, studio, 'POST', '/media/jobs', {
        sessionId,
        json: BODY,
        headers: { 'Idempotency-Key': 'persist-key' },
      });
      expect(replay.status).toBe(200);
      expect(replay.data).toMatchObject({ platformJobId: jobId, jobRecoveryRef: recoveryRef });
      const deadline = Date.now() + 60_000;
      let status = '';
      while (status !== 'succeeded' && Date.now() < deadline) {
        const read = await runtimeCall(second.client, studio, 'GET', `/media/jobs/${jobId}`, {
          headers: { 'X-Platform-Job-Recovery-Ref': recoveryRef },
        });
        expect(read.status).toBe(200);
        status = read.data.status;
        if (status !== 'succeeded') await new Promise((r) => setTimeout(r, 50));
      }
      expect(status).toBe('succeeded');
    } finally {
      await second.sim.close();
    }
    // the platform log holds the reference (the platform's own store), the public state log does not
    expect(readFileSync(path.join(dataDir, 'state.jsonl'), 'utf8')).not.toContain(recoveryRef);
  });
});
