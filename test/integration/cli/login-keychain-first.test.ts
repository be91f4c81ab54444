/**
 * `framewright login` on a machine with no OS keychain says so before it reads the key: a user about
 * to type or pipe a key is told at once that it could not be kept, and nothing is stored.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('framewright login without a keychain', () => {
  it.runIf(process.platform === 'linux')('refuses before reading standard input, saying why', async () => {
    // no session bus at all: no address, no socket under XDG_RUNTIME_DIR, no X11 to autolaunch one
    const env: Record<string, string | undefined> = {
      ...process.env,
      FRAMEWRIGHT_API_KEY: '',
      FRAMEWRIGHT_SIMULATOR_TIME_SCALE: '0.05',
      XDG_RUNTIME_DIR: tempFolder('fw-nobus-'),
    };
    for (const name of ['DBUS_SESSION_BUS_ADDRESS', 'DISPLAY', 'WAYLAND_DISPLAY']) delete env[name];
    const dataDir = tempFolder('fw-cli-');
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/framewright.js'),
        '--data-dir',
        dataDir,
        'login',
        '--profile',
        'Studio',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ],
      { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    // standard input stays open, as for someone about to type: the answer must not wait for it
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    const code = await new Promise<number | null>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('login waited for a key although no keychain can keep it'));
      }, 60_000);
      child.on('exit', (exitCode) => {
        clearTimeout(timer);
        resolve(exitCode);
      });
    });
    child.stdin.destroy();
    expect(code).toBe(6);
    expect(stderr).toMatch(
      /No OS keychain is reachable \(.+\)\. Framewright will not store your key unprotected\./,
    );
    const profiles = spawn(
      process.execPath,
      [path.join(ROOT, 'bin/framewright.js'), '--data-dir', dataDir, '--json', 'profiles'],
      {
        cwd: ROOT,
        env,
      },
    );
    let listed = '';
    profiles.stdout.on('data', (d: Buffer) => (listed += d));
    await new Promise((resolve) => profiles.on('close', resolve));
    expect((JSON.parse(listed) as { data: { name: string }[] }).data.map((p) => p.name)).not.toContain(
      'Studio',
    );
  });
});
