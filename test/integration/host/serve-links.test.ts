import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * `framewright serve`: the page keeps the host token in its own tab, so a new tab needs a new
 * one-time link; each line typed in the terminal prints one, and each link signs in once.
 */

const root = path.resolve(import.meta.dirname, '../../..');
let dir: string;
let child: ChildProcess;
let lines: Interface;
const queue: string[] = [];
const waiters: ((line: string) => void)[] = [];

const nextLine = () =>
  new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('framewright serve printed nothing')), 60_000);
    const take = (line: string) => {
      clearTimeout(timer);
      resolve(line);
    };
    const ready = queue.shift();
    if (ready !== undefined) take(ready);
    else waiters.push(take);
  });

const exchange = (origin: string, launchUrl: string) =>
  fetch(`${origin}/bridge/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code: new URL(launchUrl).searchParams.get('code') }),
  });

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'fw-serve-links-'));
  const rendererDir = path.join(dir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  child = spawn(
    process.execPath,
    [
      path.join(root, 'bin/framewright.js'),
      'serve',
      '--json',
      '--port',
      '0',
      '--data-dir',
      path.join(dir, 'data'),
      '--renderer-dir',
      rendererDir,
    ],
    { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  lines = createInterface({ input: child.stdout! });
  lines.on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else queue.push(line);
  });
});

afterAll(async () => {
  lines?.close();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('framewright serve', () => {
  it('prints a new one-time link for each line typed, each valid once', async () => {
    const first = JSON.parse(await nextLine()) as { origin: string; launchUrl: string; token: string };
    expect((await exchange(first.origin, first.launchUrl)).status).toBe(200);
    expect((await exchange(first.origin, first.launchUrl)).status).toBe(401);
    child.stdin!.write('\n');
    const another = JSON.parse(await nextLine()) as { launchUrl: string; token?: string };
    expect(another.token).toBeUndefined();
    expect(another.launchUrl).not.toBe(first.launchUrl);
    expect(another.launchUrl.startsWith(`${first.origin}/?code=`)).toBe(true);
    const signedIn = await exchange(first.origin, another.launchUrl);
    expect(signedIn.status).toBe(200);
    expect(((await signedIn.json()) as { result: { token: string } }).result.token).toBe(first.token);
    expect((await exchange(first.origin, another.launchUrl)).status).toBe(401);
  }, 90_000);
});
