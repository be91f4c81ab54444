import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXED_LOCAL_TEST_TOKEN, startSimulator } from '../../../src/simulator/index.js';

const root = path.resolve(import.meta.dirname, '../../..');

/** GET /v1/services with a chosen Host header (fetch would not let the test set it). */
function getWithHost(baseUrl: string, host: string): Promise<{ status: number; body: string }> {
  const url = new URL(`${baseUrl}/services`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        headers: { host, authorization: `Bearer ${FIXED_LOCAL_TEST_TOKEN}` },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('the simulator stays on this machine unless told otherwise', () => {
  it('refuses a non-loopback bind address without allowRemote', async () => {
    for (const host of ['0.0.0.0', '::', '192.0.2.10'])
      await expect(startSimulator({ host, port: 0 })).rejects.toThrow(/--allow-remote/);
  });

  it('`framewright simulator --host 0.0.0.0` exits 2 and says to pass --allow-remote', () => {
    const run = spawnSync(
      process.execPath,
      ['bin/framewright.js', 'simulator', '--host', '0.0.0.0', '--port', '0'],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/--allow-remote/);
    expect(run.stdout).not.toMatch(/listening/);
  });

  it('binds elsewhere on purpose with allowRemote', async () => {
    const sim = await startSimulator({ host: '0.0.0.0', port: 0, allowRemote: true, timeScale: 0.01 });
    try {
      const response = await fetch(`${sim.baseUrl}/services`, {
        headers: { authorization: `Bearer ${sim.token}` },
      });
      expect(response.status).toBe(200);
    } finally {
      await sim.close();
    }
  });

  it('on loopback answers only requests that name it by its loopback address (DNS rebinding)', async () => {
    const sim = await startSimulator({ port: 0, timeScale: 0.01 });
    try {
      const port = new URL(sim.baseUrl).port;
      for (const host of [`127.0.0.1:${port}`, `localhost:${port}`])
        expect((await getWithHost(sim.baseUrl, host)).status).toBe(200);
      for (const host of [`evil.example:${port}`, `127.0.0.1:1`, 'localhost', `127.0.0.1.nip.io:${port}`]) {
        const answer = await getWithHost(sim.baseUrl, host);
        expect(answer.status).toBe(421);
        expect(JSON.parse(answer.body)).toMatchObject({ code: 'misdirected_request' });
      }
    } finally {
      await sim.close();
    }
  });
});
