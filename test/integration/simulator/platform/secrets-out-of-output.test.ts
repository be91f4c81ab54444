import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import type { PlatformInfo } from '../../../../src/simulator/index.js';

const root = path.resolve(import.meta.dirname, '../../../..');

describe('secrets of the platform surfaces', () => {
  it('launch codes, sessions and recovery references never reach the simulator’s output, even on failing calls', async () => {
    const child = spawn(
      process.execPath,
      ['bin/framewright.js', 'simulator', '--json', '--time-scale', '0.01'],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const lines = createInterface({ input: child.stdout! });
      const line = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      lines.on('line', (more) => (output += more + '\n'));
      const info = JSON.parse(line) as { token: string; platform: PlatformInfo };
      const app = info.platform.apps[0]!;
      const json = { Authorization: `Bearer ${app.appCredential}`, 'Content-Type': 'application/json' };
      const launch = (await (
        await fetch(info.platform.launchUrl, {
          method: 'POST',
          headers: { Authorization: `Bearer ${info.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ appKey: app.appKey, user: 'member' }),
        })
      ).json()) as { runtime: { launchCode: string } };
      const session = (await (
        await fetch(`${info.platform.sessionBaseUrl}/apps/${app.appKey}/runtime-sessions:exchange`, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ launchCode: launch.runtime.launchCode }),
        })
      ).json()) as { sessionId: string };
      const job = (await (
        await fetch(`${info.platform.runtimeBaseUrl}/media/jobs`, {
          method: 'POST',
          headers: { ...json, 'X-Platform-Runtime-Session-Id': session.sessionId },
          body: JSON.stringify({
            clientTaskId: 'secret-check',
            model: 'h3-video',
            params: { prompt: 'Quiet harbour' },
            mediaSpec: {
              generationMode: 't2v',
              resolutionTier: '768p',
              orientation: 'landscape',
              seconds: 5,
            },
          }),
        })
      ).json()) as { jobRecoveryRef: string };
      expect(job.jobRecoveryRef).toBeTruthy();
      // failing calls that carry the secrets in paths, headers and bodies
      await fetch(
        `${info.platform.sessionBaseUrl}/apps/${app.appKey}/runtime-sessions/${session.sessionId}x:resolve`,
        { headers: json },
      );
      await fetch(`${info.platform.sessionBaseUrl}/apps/${app.appKey}/runtime-sessions:exchange`, {
        method: 'POST',
        headers: json,
        body: `{"launchCode": "${launch.runtime.launchCode}"`,
      });
      await fetch(`${info.platform.runtimeBaseUrl}/media/jobs/job_x`, {
        headers: {
          ...json,
          'X-Platform-Job-Recovery-Ref': job.jobRecoveryRef,
          'X-Platform-Runtime-Session-Id': session.sessionId,
        },
      });
      // the synchronous calls and optimization, refused and failing
      await fetch(`${info.platform.runtimeBaseUrl}/media/prompt-optimizations`, {
        method: 'POST',
        headers: { ...json, 'X-Platform-Job-Recovery-Ref': job.jobRecoveryRef },
        body: '{',
      });
      await fetch(`${info.platform.runtimeBaseUrl}/ocr`, {
        method: 'POST',
        headers: { ...json, 'X-Platform-Runtime-Session-Id': session.sessionId },
        body: JSON.stringify({
          model: 'glyph-ocr',
          inputs: [{ readUrl: 'http://127.0.0.1:9/scan.png', mimeType: 'image/png' }],
        }),
      });
      await new Promise((r) => setTimeout(r, 300));
      for (const secret of [
        launch.runtime.launchCode,
        session.sessionId,
        job.jobRecoveryRef,
        app.appCredential,
      ])
        expect(output).not.toContain(secret);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
