import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const OLD_URL = 'https://old.example.com/v1';

/** The real CLI with no reachable keychain: every keychain write fails. */
function cliWithoutKeychain(args: string[], stdin: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/framewright.js'), ...args], {
      cwd: ROOT,
      env: {
        ...process.env,
        FRAMEWRIGHT_API_KEY: '',
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/framewright-test-bus',
        DISPLAY: '',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d));
    child.stderr.on('data', (d: Buffer) => (stderr += d));
    child.stdin.end(stdin);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A data folder whose journal has the profile "Work" with a key recorded in the OS keychain. */
function dataDirWithProfile(): string {
  const dataDir = tempFolder('fw-login-');
  const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
  const profile = journal.profiles.create({ name: 'Work', kind: 'personal', baseUrl: OLD_URL });
  journal.profiles.setHasSecret(profile.id, true, undefined, 'keytar');
  journal.close();
  return dataDir;
}

function storedProfile(dataDir: string) {
  const journal = openJournal({ path: path.join(dataDir, 'journal.sqlite') });
  try {
    return journal.profiles.getByName('Work');
  } finally {
    journal.close();
  }
}

describe('framewright login on an existing profile', () => {
  it('leaves the base URL (and the old key) as they were when the new key cannot be stored', async () => {
    const dataDir = dataDirWithProfile();
    const key = 'new-login-key-0123456789';
    const run = await cliWithoutKeychain(
      ['--data-dir', dataDir, 'login', '--profile', 'Work', '--base-url', 'https://new.example.com/v1'],
      key + '\n',
    );
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/No OS keychain is reachable/);
    expect(run.stdout + run.stderr).not.toContain(key);
    expect(storedProfile(dataDir)).toMatchObject({
      baseUrl: OLD_URL,
      hasSecret: true,
      secretBackend: 'keytar',
    });
    // the listing says which key store holds the key, so a split is visible
    const listed = await cliWithoutKeychain(['--data-dir', dataDir, '--json', 'profiles'], '');
    expect(JSON.parse(listed.stdout).data).toContainEqual(
      expect.objectContaining({ name: 'Work', hasSecret: true, secretBackend: 'keytar' }),
    );
  });

  it('refuses plain http to another machine and changes nothing', async () => {
    const dataDir = dataDirWithProfile();
    const run = await cliWithoutKeychain(
      ['--data-dir', dataDir, 'login', '--profile', 'Work', '--base-url', 'http://api.example.com/v1'],
      'some-key-0123456789\n',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/must use https for api\.example\.com/);
    expect(storedProfile(dataDir)?.baseUrl).toBe(OLD_URL);
  });
});
