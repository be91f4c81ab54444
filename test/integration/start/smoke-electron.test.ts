/**
 * `npm run smoke:electron` (scripts/smoke-electron.mjs) where the real run cannot happen: each case
 * says so in one line and exits with its own code, so a CI can tell "no Electron here" from a failure.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { writeFakeElectron } from '../../support/fake-electron.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');

function smoke(env: Record<string, string | undefined>) {
  const result = spawnSync(
    process.execPath,
    [path.join(ROOT, 'scripts/smoke-electron.mjs'), '--out', tempFolder('fw-smoke-')],
    {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    },
  );
  return {
    code: result.status,
    lines: result.stdout
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('Building')),
  };
}

describe('npm run smoke:electron without what it needs', () => {
  it('no Electron binary: one line and exit code 3', () => {
    const missing = path.join(tempFolder('fw-no-electron-'), 'electron');
    expect(smoke({ FRAMEWRIGHT_ELECTRON_BINARY: missing })).toEqual({
      code: 3,
      lines: [
        `Electron smoke: no Electron binary here (FRAMEWRIGHT_ELECTRON_BINARY names no file (${missing})).`,
      ],
    });
  });

  it('better-sqlite3 cannot be built for that Electron: one line and exit code 5', () => {
    const fake = writeFakeElectron({ version: '99.3.0', abi: '994' });
    const { code, lines } = smoke({ FRAMEWRIGHT_ELECTRON_BINARY: fake, DISPLAY: ':99' });
    expect(code).toBe(5);
    expect(lines.at(-1)).toMatch(
      /^Electron smoke: better-sqlite3 could not be built for Electron 99\.3\.0 \(ABI 994\): .+\.$/,
    );
  });
});
