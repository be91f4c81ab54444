/**
 * `framewright video` without --model: the one available video service whose contract offers
 * the mode is used (and named); none or several end with exit 2, the list, and nothing sent.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runFramewright } from '../../support/cli-runner.js';
import { openSimulator } from '../../support/worlds/simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const args = (mode: string) => [
  'video',
  '--mode',
  mode,
  '--prompt',
  'A lighthouse at dusk',
  '--seconds',
  '5',
  '--orientation',
  'landscape',
  '--no-wait',
];

/** A gateway that lists the simulator's H3 service twice under two aliases; it records every request. */
let gateway: http.Server;
let gatewayUrl: string;
const requests: string[] = [];

beforeAll(async () => {
  const sim = await openSimulator();
  const listed = (await (
    await fetch(`${sim.baseUrl}/services`, { headers: { authorization: `Bearer ${sim.token}` } })
  ).json()) as { data: { modelAlias: string; serviceKind: string; available?: boolean }[] };
  await sim.close();
  const h3 = listed.data.find((s) => s.serviceKind === 'video_generation' && s.available !== false)!;
  const body = JSON.stringify({
    object: 'list',
    data: [h3, { ...h3, id: 'svc_h3-video-b', modelAlias: 'h3-video-b' }],
  });
  gateway = http.createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/v1/services')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
      return;
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}/v1`;
});
afterAll(() => gateway.close());

describe('framewright video without --model', () => {
  it('uses the one available video service that offers the mode, and says which', async () => {
    const run = await runFramewright(['--data-dir', tempFolder('fw-cli-model-'), '--json', ...args('t2v')]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(
      'Using model h3-video: the one available video service that offers mode t2v.',
    );
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toMatchObject({ model: 'h3-video' });
  });

  it('with several, lists them and exits 2 without sending anything', async () => {
    requests.length = 0;
    const run = await runFramewright(
      ['--data-dir', tempFolder('fw-cli-model-'), '--base-url', gatewayUrl, ...args('t2v')],
      {
        FRAMEWRIGHT_API_KEY: 'gateway-key-0123456789',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('h3-video, h3-video-b');
    expect(run.stderr).toContain('--model');
    expect(requests.every((r) => r.startsWith('GET /v1/services'))).toBe(true);
  });

  it('with none offering the mode, says so with what there is and exits 2', async () => {
    const run = await runFramewright(['--data-dir', tempFolder('fw-cli-model-'), ...args('no_such_mode')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /No available video service offers mode "no_such_mode"\. Available video services: h3-video \(t2v/,
    );
  });
});
