import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { ffprobe, H3_BASE, sha256, startTestSimulator, type TestClient } from './client.js';
import { removeScratch, scratchFile } from './fixtures.js';

let sim: RunningSimulator;
let client: TestClient;

beforeAll(async () => {
  ({ sim, client } = await startTestSimulator({ timeScale: 0.001 }));
});
afterAll(async () => {
  await sim.close();
  removeScratch();
});

describe('rendering', () => {
  it('a 15 s H3 render (360 frames) does not block other requests', async () => {
    const started = performance.now();
    const res = await client.post('/media/generations', {
      ...H3_BASE,
      seconds: 15,
      seed: 15,
      prompt: 'Fifteen seconds of ocean',
    });
    expect(res.status).toBe(202);
    const latencies: number[] = [];
    let status = 'queued';
    let sawRunning = false;
    while (status !== 'succeeded' && status !== 'failed') {
      const t0 = performance.now();
      const services = await client.get('/services');
      latencies.push(performance.now() - t0);
      expect(services.status).toBe(200);
      status = (await client.get(res.data.jobUrl)).data.status;
      if (status === 'running') sawRunning = true;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const renderMs = performance.now() - started;
    expect(status).toBe('succeeded');
    expect(sawRunning).toBe(true);
    expect(latencies.length).toBeGreaterThan(3);
    expect(Math.max(...latencies)).toBeLessThan(500);
    console.log(
      `[simulator] 15 s H3 render: ${Math.round(renderMs)} ms; /services latency during render max ${Math.round(Math.max(...latencies))} ms over ${latencies.length} calls`,
    );
    const job = (await client.get(res.data.jobUrl)).data;
    const bytes = (await client.download(job.outputs[0].contentUrl)).bytes;
    expect(sha256(bytes)).toBe(job.outputs[0].sha256);
    const file = scratchFile('15s.mp4');
    writeFileSync(file, bytes);
    const probe = ffprobe(file);
    expect(probe.streams.find((s) => s.codec_type === 'video')).toMatchObject({
      width: 1376,
      height: 768,
      r_frame_rate: '24/1',
      nb_frames: '360',
    });
    expect(probe.streams.find((s) => s.codec_type === 'audio')).toMatchObject({
      codec_name: 'aac',
      channels: 2,
    });
    expect(Number(probe.format.duration)).toBeCloseTo(15, 1);
  });

  it('renders the same bytes for the same request and seed in a fresh simulator (no shared cache)', async () => {
    const body = { ...H3_BASE, prompt: 'Bit-exact across runs', seed: 777 };
    const first = await client.waitJob((await client.post('/media/generations', body)).data.jobUrl);
    const fresh = await startTestSimulator({ timeScale: 0.001 });
    try {
      const second = await fresh.client.waitJob(
        (await fresh.client.post('/media/generations', body)).data.jobUrl,
      );
      expect(second.job.outputs![0]!.sha256).toBe(first.job.outputs![0]!.sha256);
      expect(second.job.outputs![0]!.byteSize).toBe(first.job.outputs![0]!.byteSize);
    } finally {
      await fresh.sim.close();
    }
  });
});
