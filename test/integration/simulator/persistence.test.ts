import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { until } from '../../support/until.js';
import { startSimulator, type PlatformInfo } from '../../../src/simulator/index.js';
import { H3_BASE, TestClient } from './client.js';
import { makePng } from './fixtures.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const root = path.resolve(import.meta.dirname, '../../..');
const dataDir = tempFolder('fw-sim-persist-');

/** Runs `framewright simulator` in a child process on the data folder; returns its base URL and token. */
async function spawnSimulator(timeScale: string) {
  const child = spawn(
    process.execPath,
    ['bin/framewright.js', 'simulator', '--json', '--data-dir', dataDir, '--time-scale', timeScale],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { baseUrl: string; token: string; platform: PlatformInfo }) };
}

describe('state under --data-dir', () => {
  it('survives a SIGKILL: accepted jobs, idempotency keys, assets and optimizations are still there after a restart', async () => {
    const first = await spawnSimulator('1000');
    const body = { ...H3_BASE, generationMode: 'i2v', prompt: 'Survives a crash', seed: 8 };
    let jobId: string;
    let assetId: string;
    let optimization: unknown;
    const optBody = {
      clientRequestId: 'persist-opt-1',
      model: 'h3-video',
      generationMode: 't2v',
      originalPrompt: 'Keep me',
      mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      referenceInputs: [],
    };
    try {
      const client = new TestClient(
        {
          baseUrl: first.baseUrl,
          token: first.token,
          platform: first.platform,
          close: async () => {},
          setScenario: () => {},
        },
        first.token,
      );
      assetId = await client.uploadId('h3-video', makePng(30, 20, [10, 120, 200]));
      const created = await client.post(
        '/media/generations',
        { ...body, input_image_asset_id: assetId },
        { 'Idempotency-Key': 'persist-1' },
      );
      expect(created.status).toBe(202);
      jobId = created.data.jobId;
      expect((await client.get(created.data.jobUrl)).data.status).toBe('queued');
      await client.post('/_simulator/clock', { advanceSeconds: 60 });
      // the optimization is accepted, then the process dies before it answers (time scale 1000);
      // it is killed once the simulator shows the key, not after a guessed delay (a loaded machine
      // may take longer than any fixed wait to let the request in)
      let answered = false;
      const pending = fetch(first.baseUrl + '/media/prompt-optimizations', {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${first.token}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': 'persist-opt-1',
        },
        body: JSON.stringify(optBody),
      }).then(
        () => (answered = true),
        () => undefined,
      );
      await until(
        async () => {
          const ledger = (await client.get('/_simulator/idempotency')).data.data as {
            idempotencyKey: string;
          }[];
          return ledger.some((e) => e.idempotencyKey === 'persist-opt-1') ? true : undefined;
        },
        { ms: 20_000, everyMs: 25, what: 'the optimization to be accepted' },
      );
      expect(answered).toBe(false);
      void pending;
    } finally {
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
    }
    expect(existsSync(path.join(dataDir, 'state.jsonl'))).toBe(true);

    const sim = await startSimulator({ dataDir, timeScale: 0.01 });
    try {
      const client = new TestClient(sim, sim.token);
      const { job } = await client.waitJob(`/jobs/${jobId!}?model=h3-video`);
      expect(job.status).toBe('succeeded');
      expect(job.jobUrl.startsWith(sim.baseUrl)).toBe(true);
      const replay = await client.post(
        '/media/generations',
        { ...body, input_image_asset_id: assetId! },
        { 'Idempotency-Key': 'persist-1' },
      );
      expect(replay.status).toBe(200);
      expect(replay.data.jobId).toBe(jobId!);
      const ledger = (await client.get('/_simulator/idempotency')).data.data;
      expect(ledger.find((e: { idempotencyKey: string }) => e.idempotencyKey === 'persist-1')).toMatchObject({
        created: 1,
      });
      expect(
        ledger.find((e: { idempotencyKey: string }) => e.idempotencyKey === 'persist-opt-1'),
      ).toMatchObject({ created: 1 });
      optimization = (
        await client.post('/media/prompt-optimizations', optBody, { 'Idempotency-Key': 'persist-opt-1' })
      ).data;
      expect(optimization).toMatchObject({
        optimization: { originalPrompt: 'Keep me', status: 'succeeded' },
      });
      const again = await client.post('/media/generations', {
        ...H3_BASE,
        generationMode: 'i2v',
        input_image_asset_id: assetId!,
      });
      expect(again.status).toBe(202);
      const download = await client.download(job.outputs![0]!.contentUrl);
      expect(download.status).toBe(200);
      const expiresIn = Date.parse(
        (await client.upload('h3-video', makePng(30, 20, [10, 120, 200]))).data.asset.expiresAt,
      );
      expect(expiresIn - Date.now()).toBeGreaterThan(24 * 3600 * 1000 + 50 * 1000);
    } finally {
      await sim.close();
    }
    expect(existsSync(dataDir)).toBe(true);
  });
});
