import { describe, expect, it } from 'vitest';
import {
  PLATFORM_CAPABILITIES,
  PUBLIC_API_CAPABILITIES,
  refusalsOf,
} from '../../../src/main/core/backends/capabilities.js';
import { withRefusals } from '../../../src/main/core/bridge/handlers/handler-table.js';
import type { BridgeHandlers } from '../../../src/main/core/bridge/dispatcher.js';
import { METHOD_NAMES } from '../../../src/shared/bridge/names.js';

describe('capabilities, refused in one place', () => {
  it('the platform refuses only what cannot apply there (keys and profiles, the simulator, a server folder), each with platform.not_here', () => {
    const refusals = refusalsOf(PLATFORM_CAPABILITIES);
    for (const method of [
      'profiles.add',
      'profiles.setActive',
      'debugPairing.start',
      'simulator.setScenario',
      'library.reveal',
      'collections.revealPackage',
    ] as const) {
      expect(refusals[method], method).toBeTypeOf('function');
      expect(() => refusals[method]!()).toThrow(expect.objectContaining({ code: 'platform.not_here' }));
    }
    // what it offers is not refused
    for (const method of [
      'library.export',
      'collections.exportPackage',
      'collections.share',
      'collections.shared.list',
      'video.optimize',
      'studio.batch.submit',
      'sequences.assemble',
      'playground.chat.send',
      'playground.embed',
      'playground.rerank',
      'playground.ocr',
      'playground.transcribe',
      'playground.parse',
      'playground.calls.list',
      'playground.image.generate',
      'playground.audio.generate',
    ] as const)
      expect(refusals[method], method).toBeUndefined();
  });

  it('the public API refuses only the platform-marked copy, sharing collections with a team and the platform grants to Storyboard Helper', () => {
    expect(Object.keys(refusalsOf(PUBLIC_API_CAPABILITIES)).sort()).toEqual(
      [
        'library.export',
        'collections.share',
        'collections.shared.list',
        'collections.shared.get',
        'storyboards.import',
        'storyboards.linkOf',
        'storyboards.list',
        'storyboards.send',
      ].sort(),
    );
  });

  it('a capability that is off is refused even where a handler exists; one left unhandled stops the start', () => {
    const all = Object.fromEntries(METHOD_NAMES.map((m) => [m, () => 'served'])) as unknown as BridgeHandlers;
    const table = withRefusals(all, PUBLIC_API_CAPABILITIES);
    expect(() => (table['library.export'] as () => unknown)()).toThrow(
      expect.objectContaining({ code: 'platform.not_here' }),
    );
    expect((table['jobs.list'] as () => unknown)()).toBe('served');
    const { 'library.export': _export, ...served } = all;
    const handlers = withRefusals(served, PUBLIC_API_CAPABILITIES);
    expect(Object.keys(handlers).sort()).toEqual([...METHOD_NAMES].sort());
    const { 'jobs.list': _jobs, ...missing } = served;
    expect(() => withRefusals(missing, PUBLIC_API_CAPABILITIES)).toThrow(/No handler for jobs\.list/);
  });
});

describe('the renderer reads capabilities, never a host name', () => {
  it('no renderer source compares a host name', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.resolve(import.meta.dirname, '../../../src/renderer/src');
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(ts|tsx)$/.test(name) && !file.includes(`${path.sep}i18n${path.sep}`)) {
          const text = readFileSync(file, 'utf8');
          if (/\.host\s*[!=]==|[!=]==\s*['"](platform|electron|browser)['"]/.test(text))
            offenders.push(path.relative(root, file));
        }
      }
    };
    walk(root);
    expect(offenders).toEqual([]);
  });
});
