import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../support/engine-harness.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs `npm start`'s script until it prints the served studio, then stops it. */
async function startUntilServed(env: Record<string, string | undefined>) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'scripts/start.mjs'), '--port', '0', '--json', '--data-dir', tempDir('fw-start-')],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL after 120 s: ${lines.join('\n')}`)), 120_000);
      reader.on('line', (line) => {
        lines.push(line);
        if (line.startsWith('{')) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => reject(new Error(`start exited with ${code}: ${lines.join('\n')}`)));
    });
  } finally {
    child.kill('SIGTERM');
  }
  const served = JSON.parse(lines.at(-1)!) as { origin: string; launchUrl: string };
  return { lines: lines.filter((l) => !l.startsWith('Building') && !l.startsWith('{')), served };
}

describe('npm start where Electron cannot start', () => {
  it('without a display: says so in one line and serves the studio to a browser', async () => {
    const { lines, served } = await startUntilServed({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    expect(lines.filter((l) => l.startsWith('Electron cannot start here'))).toEqual([
      'Electron cannot start here: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set). Serving the studio to a browser instead.',
    ]);
    expect(served.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // a one-time code in the URL, not the long-lived token
    expect(served.launchUrl).toMatch(/\/\?code=/);
  });

  it('when the Electron binary cannot be downloaded: says why and serves the studio', async () => {
    const { lines } = await startUntilServed({ DISPLAY: ':99', ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    const message = lines.find((l) => l.startsWith('Electron cannot start here'));
    expect(message).toMatch(/its binary could not be downloaded|exited with code/);
    expect(message).toMatch(/Serving the studio to a browser instead\.$/);
  });
});
