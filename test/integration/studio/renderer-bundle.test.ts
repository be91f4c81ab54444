import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SERVICES } from '../../../src/simulator/catalog.js';
import { FIXED_LOCAL_TEST_TOKEN } from '../../../src/simulator/identities.js';

/**
 * The built renderer bundle (run `npx electron-vite build` first; `npm test` builds before it
 * runs the tests): no key, no Node API, no model alias. Everything a model offers must come
 * from discovery at run time.
 */
const assets = path.resolve(import.meta.dirname, '../../../out/renderer/assets');

function bundle(): { name: string; text: string }[] {
  if (!existsSync(assets))
    throw new Error(`No built renderer at ${assets}: run "npx electron-vite build" first.`);
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  expect(files.length).toBeGreaterThan(0);
  return files.map((name) => ({ name, text: readFileSync(path.join(assets, name), 'utf8') }));
}

describe('the renderer bundle', () => {
  it('contains the studio (so the checks below look at the real thing)', () => {
    const all = bundle()
      .map((f) => f.text)
      .join('\n');
    expect(all).toContain('video.submit');
    expect(all).toContain('/bridge/files');
  });

  it('holds no API key, token or secret-looking literal', () => {
    for (const { name, text } of bundle()) {
      expect(text.includes(FIXED_LOCAL_TEST_TOKEN), name).toBe(false);
      expect(text, name).not.toMatch(/\bsk-[A-Za-z0-9_-]{16,}/);
      expect(text, name).not.toMatch(/FRAMEWRIGHT_API_KEY/);
      expect(text, name).not.toMatch(/Bearer [A-Za-z0-9._~+/-]{16,}/);
    }
  });

  it('uses no Node API: no require(), no child_process, and process only behind a typeof guard', () => {
    for (const { name, text } of bundle()) {
      expect(text, name).not.toMatch(/\brequire\(/);
      expect(text, name).not.toMatch(/child_process|node:fs|node:path|__dirname/);
      for (const match of text.matchAll(/\bprocess\./g)) {
        const before = text.slice(Math.max(0, match.index - 200), match.index);
        // React's error reporter: `if ("object" === typeof process && "function" === typeof process.emit)`
        expect(before, `${name}: ${text.slice(match.index - 60, match.index + 40)}`).toMatch(
          /typeof process/,
        );
      }
    }
  });

  it('hard-codes no model alias of the catalog', () => {
    const aliases = SERVICES.map((s) => s.modelAlias);
    expect(aliases.length).toBeGreaterThan(5);
    for (const { name, text } of bundle())
      for (const alias of aliases) expect(text.includes(alias), `${name} contains "${alias}"`).toBe(false);
  });
});
