/**
 * `npm start` (scripts/start.mjs) where Electron cannot start: the reason in one line, the detail in
 * the main log, then the studio served to a browser. The Electron binaries here are fakes
 * (FRAMEWRIGHT_ELECTRON_BINARY) that answer the version question as Node would and then fail the way
 * a real Electron does for each reason.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { electronCopyDir, writeElectronCopy, writeFakeElectron } from '../../support/fake-electron.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Runs `npm start`'s script until it prints the served studio (or exits), then stops it. */
async function start(env: Record<string, string | undefined>, dataDir = tempFolder('fw-start-')) {
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'scripts/start.mjs'), '--port', '0', '--json', '--data-dir', dataDir],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const reader = createInterface({ input: child.stdout });
  let exitCode: number | null = null;
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
      child.once('exit', (code) => {
        clearTimeout(timer);
        exitCode = code;
        resolve();
      });
    });
  } finally {
    child.kill('SIGTERM');
  }
  const json = lines.find((l) => l.startsWith('{'));
  const served = json ? (JSON.parse(json) as { origin: string; launchUrl: string }) : undefined;
  const log = path.join(dataDir, 'logs', 'main.log');
  const mainLog = existsSync(log)
    ? readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];
  return {
    reasons: lines.filter((l) => l.startsWith('Electron cannot start here')),
    lines,
    served,
    exitCode,
    mainLog,
  };
}

const FAKE_ABI = '999';
const FAKE_VERSION = '99.0.0';
const fakes = tempFolder('fw-fake-electron-');
const copyDir = electronCopyDir(FAKE_ABI);

/** A fake Electron that reports FAKE_VERSION and `abi` and, launched as the app, runs `behaviour`. */
const fakeElectron = (name: string, behaviour: string, abi = FAKE_ABI) =>
  writeFakeElectron({ version: FAKE_VERSION, abi, behaviour, file: path.join(fakes, name) });

// a "built" copy for the fake Electron's ABI, so start-up goes past the native build step
beforeAll(() => writeElectronCopy(FAKE_ABI, FAKE_VERSION));
afterAll(() => rmSync(copyDir, { recursive: true, force: true }));

const display = { DISPLAY: ':99', WAYLAND_DISPLAY: undefined };

describe('npm start where Electron cannot start', () => {
  it('without a display: says so in one line and serves the studio to a browser', async () => {
    const { reasons, served } = await start({ DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    expect(reasons).toEqual([
      'Electron cannot start here: there is no display (neither DISPLAY nor WAYLAND_DISPLAY is set). Serving the studio to a browser instead.',
    ]);
    expect(served?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // a one-time code in the URL, not the long-lived token
    expect(served?.launchUrl).toMatch(/\/\?code=/);
  });

  it('without a keychain: says so before the studio is served, before anyone types a key', async () => {
    const { lines, served } = await start({
      DISPLAY: undefined,
      WAYLAND_DISPLAY: undefined,
      DBUS_SESSION_BUS_ADDRESS: undefined,
      XDG_RUNTIME_DIR: tempFolder('fw-nobus-'),
    });
    const said = lines.findIndex((l) => l.startsWith('No OS keychain is'));
    expect(said).toBeGreaterThanOrEqual(0);
    expect(lines[said]).toMatch(
      /^No OS keychain is reachable \(.+\)\. Framewright will not store your key unprotected\..* The local simulator needs no key\.$/,
    );
    expect(said).toBeLessThan(lines.findIndex((l) => l.startsWith('{')));
    expect(served).toBeDefined();
  });

  it('when the Electron binary cannot be downloaded: says why and serves the studio', async () => {
    const { reasons, served } = await start({ ...display, ELECTRON_MIRROR: 'http://127.0.0.1:9/' });
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(/^Electron cannot start here: its binary could not be downloaded/);
    expect(reasons[0]).toMatch(/Serving the studio to a browser instead\.$/);
    expect(served).toBeDefined();
  });

  it('when the named Electron binary is not there: says so', async () => {
    const missing = path.join(fakes, 'no-such-electron');
    const { reasons, served } = await start({ ...display, FRAMEWRIGHT_ELECTRON_BINARY: missing });
    expect(reasons).toEqual([
      `Electron cannot start here: FRAMEWRIGHT_ELECTRON_BINARY names no file (${missing}). Serving the studio to a browser instead.`,
    ]);
    expect(served).toBeDefined();
  });

  it('when better-sqlite3 cannot be built for that Electron: says so before launching it', async () => {
    const binary = fakeElectron('unbuildable', 'exit 0', '998');
    const dataDir = tempFolder('fw-start-');
    const { reasons, served, mainLog } = await start(
      { ...display, FRAMEWRIGHT_ELECTRON_BINARY: binary },
      dataDir,
    );
    expect(reasons).toHaveLength(1);
    expect(reasons[0]).toMatch(
      /^Electron cannot start here: better-sqlite3 could not be built for Electron 99\.0\.0 \(ABI 998\): no prebuilt binary could be downloaded \(.+\)/,
    );
    expect(existsSync(`${binary}.args`)).toBe(false); // never launched
    expect(served).toBeDefined();
    const reason = reasons[0]!
      .replace(/^Electron cannot start here: /, '')
      .replace(/\. Serving the studio to a browser instead\.$/, '');
    expect(mainLog.at(-1)).toMatchObject({ level: 'error', reason, binary });
  });

  it.each([
    {
      why: 'a native module that does not match',
      stderr: [
        'App threw an error during load',
        `NativeBindingError: better-sqlite3 cannot load in Electron ${FAKE_VERSION} (ABI ${FAKE_ABI}): Electron's copy (x) was built for another runtime (invalid ELF header). Rebuild it with: npm run native:electron`,
      ],
      end: 'exit 1',
      reason: `a native module does not match Electron (better-sqlite3 cannot load in Electron ${FAKE_VERSION} (ABI ${FAKE_ABI}): Electron's copy (x) was built for another runtime (invalid ELF header). Rebuild it with: npm run native:electron)`,
    },
    {
      why: 'no usable display',
      stderr: [
        '[123:ERROR:ozone_platform_x11.cc(240)] Missing X server or $DISPLAY',
        '[123:ERROR:env.cc(257)] The platform failed to initialize.  Exiting.',
      ],
      end: 'exit 1',
      reason:
        'it found no usable display ([123:ERROR:ozone_platform_x11.cc(240)] Missing X server or $DISPLAY)',
    },
    {
      why: 'a crash at start-up',
      stderr: ['Received signal 11 SEGV_MAPERR 000000000000'],
      end: 'kill -SEGV $$',
      reason: 'it crashed at start-up (SIGSEGV; last words: Received signal 11 SEGV_MAPERR 000000000000)',
    },
    {
      why: 'an error at start-up',
      stderr: ["Error: Cannot find module '/app/out/main/index.js'"],
      end: 'exit 7',
      reason: "it exited with code 7 at start-up (Error: Cannot find module '/app/out/main/index.js')",
    },
  ])('when Electron stops for $why: names it in one line, keeps the detail in the main log', async (c) => {
    const echo = c.stderr.map((line) => `printf '%s\\n' ${JSON.stringify(line).replaceAll('$', '\\$')} >&2`);
    const binary = fakeElectron(c.why.replaceAll(' ', '-'), [...echo, c.end].join('\n'));
    const dataDir = tempFolder('fw-start-');
    const { reasons, served, mainLog } = await start(
      { ...display, FRAMEWRIGHT_ELECTRON_BINARY: binary },
      dataDir,
    );
    expect(readFileSync(`${binary}.args`, 'utf8').trim()).toBe(
      `${ROOT} --port 0 --json --data-dir ${dataDir}`,
    );
    expect(reasons).toEqual([
      `Electron cannot start here: ${c.reason}. Serving the studio to a browser instead.`,
    ]);
    expect(served?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const entry = mainLog.find(
      (e) => e.message === 'Electron did not start; serving the studio to a browser instead',
    );
    expect(entry).toMatchObject({ level: 'error', reason: c.reason, binary });
    // all of Electron's standard error, not only the line shown
    expect(entry?.stderr).toBe(c.stderr.map((l) => `${l}\n`).join(''));
  });

  it('when Electron runs: launches it with the app folder and ends when it ends, serving nothing', async () => {
    const binary = fakeElectron('runs', 'sleep 0.3; exit 0');
    const { reasons, served, exitCode } = await start({ ...display, FRAMEWRIGHT_ELECTRON_BINARY: binary });
    expect(reasons).toEqual([]);
    expect(served).toBeUndefined();
    expect(exitCode).toBe(0);
    expect(readFileSync(`${binary}.args`, 'utf8')).toMatch(new RegExp(`^${ROOT} `));
  });
});
