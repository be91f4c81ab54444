import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { PlatformInfo } from '../../../src/simulator/index.js';

const root = path.resolve(import.meta.dirname, '../../..');

describe('framewright simulator (CLI)', () => {
  it('prints {baseUrl, token} as its first --json line, serves every --token, stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [
        'bin/framewright.js',
        'simulator',
        '--json',
        '--port',
        '0',
        '--token',
        'cli-extra',
        '--time-scale',
        '0.01',
      ],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const rl = createInterface({ input: child.stdout! });
        rl.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      const info = JSON.parse(line) as { baseUrl: string; token: string; platform: PlatformInfo };
      const firstAnswer = await fetch(info.baseUrl + '/services', {
        headers: { Authorization: `Bearer ${info.token}` },
      });
      expect(firstAnswer.status).toBe(200);
      expect(Object.keys(info).sort()).toEqual(['baseUrl', 'platform', 'token']);
      const origin = new URL(info.baseUrl).origin;
      expect(info.platform).toMatchObject({
        runtimeBaseUrl: expect.stringMatching(new RegExp(`^${origin}/`)),
        sessionBaseUrl: expect.stringMatching(new RegExp(`^${origin}/`)),
        launchUrl: expect.stringMatching(new RegExp(`^${origin}/`)),
        users: ['manager', 'member', 'personal'],
      });
      expect(info.platform.apps.map((app) => app.dependencies.length)).toEqual([1, 1]);
      const opened = await fetch(info.platform.launchUrl, {
        method: 'POST',
        headers: { Authorization: `Bearer ${info.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ appKey: info.platform.apps[0]!.appKey, user: 'member' }),
      });
      expect(opened.status).toBe(200);
      expect(info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      for (const token of [info.token, 'cli-extra']) {
        const res = await fetch(info.baseUrl + '/services', {
          headers: { Authorization: `Bearer ${token}` },
        });
        expect(res.status).toBe(200);
      }
      expect(
        (await fetch(info.baseUrl + '/services', { headers: { Authorization: 'Bearer other' } })).status,
      ).toBe(401);
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('rejects an unknown --scenario with the list of known ones', async () => {
    const child = spawn(process.execPath, ['bin/framewright.js', 'simulator', '--scenario', 'nope'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).not.toBe(0);
    expect(stderr).toMatch(/Known: invalid_request, insufficient_balance/);
  });
});
