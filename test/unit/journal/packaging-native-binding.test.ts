/**
 * electron-builder.yml and the loader must agree: the packaged app looks for Electron's build of
 * better-sqlite3 beside app.asar (app.asar.unpacked), so the builder must ship that folder and
 * unpack it, and must not rebuild Node's copy in node_modules in place.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { minimatch } from 'minimatch';
import { describe, expect, it } from 'vitest';
import { chooseSqliteBinding } from '../../../src/main/core/journal/sqlite-native-binding.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): unknown };

interface BuilderConfig {
  files: string[];
  asarUnpack: string[];
  npmRebuild?: boolean;
}
const config = yaml.load(readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8')) as BuilderConfig;

/** electron-builder's `files` semantics: included by a positive pattern, not excluded by a later `!` one. */
function shipped(file: string, patterns: string[]): boolean {
  let included = false;
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) {
      if (minimatch(file, pattern.slice(1), { dot: true })) included = false;
    } else if (minimatch(file, pattern, { dot: true })) included = true;
  }
  return included;
}

describe('packaging ships the better-sqlite3 build the loader looks for', () => {
  const resources = '/opt/Framewright/resources';
  const lookedFor: string[] = [];
  for (const [platform, arch] of [
    ['linux', 'x64'],
    ['darwin', 'arm64'],
    ['win32', 'x64'],
  ] as const) {
    chooseSqliteBinding({
      versions: { node: '22.20.0', modules: '140', electron: '45.4.1' },
      platform,
      arch,
      appRoot: path.join(resources, 'app.asar'),
      exists: (file) => {
        lookedFor.push(file);
        return true;
      },
    });
  }

  it('the packaged loader reads from app.asar.unpacked', () => {
    expect(lookedFor).toHaveLength(3);
    for (const file of lookedFor)
      expect(file.startsWith(path.join(resources, 'app.asar.unpacked') + '/')).toBe(true);
  });

  it('each of those files is in `files` and in `asarUnpack`', () => {
    for (const file of lookedFor) {
      const inApp = path.relative(path.join(resources, 'app.asar.unpacked'), file).split(path.sep).join('/');
      expect(inApp).toMatch(/^native\/electron\/better-sqlite3\/abi140-\w+-\w+\/better_sqlite3\.node$/);
      expect(shipped(inApp, config.files), `${inApp} is not packaged by files`).toBe(true);
      expect(
        config.asarUnpack.some((p) => minimatch(inApp, p, { dot: true })),
        `${inApp} is not unpacked`,
      ).toBe(true);
    }
  });

  it('packaging never rebuilds node_modules for Electron (the CLI and tests load that copy in Node)', () => {
    expect(config.npmRebuild).toBe(false);
    // keytar is Node-API, so its npm build loads in Electron unchanged; it must run unpacked
    expect(config.asarUnpack.some((p) => minimatch('node_modules/keytar/build/Release/keytar.node', p))).toBe(
      true,
    );
  });

  it('`npm run package` builds the Electron copy first', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.package).toMatch(/^node scripts\/electron-native\.mjs && .*electron-builder$/);
    expect(pkg.scripts.dev).toMatch(/^node scripts\/electron-native\.mjs && electron-vite dev$/);
  });
});
