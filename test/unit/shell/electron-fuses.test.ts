import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { describe, expect, it, vi } from 'vitest';
import afterPack, { FRAMEWRIGHT_FUSES, packagedExecutable } from '../../../scripts/after-pack.mjs';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const V1_FUSES = 8;
/** How the wire stores a fuse (ASCII '0' / '1'; `FuseState` is not exported by @electron/fuses). */
const FuseState = { DISABLE: 48, ENABLE: 49 } as const;

/** A stand-in Electron binary: some bytes, the fuse sentinel, wire version 1, every fuse at its default. */
function fakeElectronBinary(file: string): void {
  const defaults = [1, 1, 1, 1, 0, 0, 0, 1].map((on) => (on ? FuseState.ENABLE : FuseState.DISABLE));
  writeFileSync(
    file,
    Buffer.concat([
      Buffer.from('\x7fELF…binary bytes…'),
      Buffer.from(SENTINEL),
      Buffer.from([1, V1_FUSES, ...defaults]),
      Buffer.from('…more bytes'),
    ]),
  );
}

const linuxContext = (appOutDir: string) => ({
  appOutDir,
  electronPlatformName: 'linux',
  packager: { appInfo: { productFilename: 'Framewright' }, executableName: 'framewright' },
});

describe('Electron fuses at packaging', () => {
  it('electron-builder runs the afterPack hook that flips the fuses', () => {
    const config = readFileSync(path.join(ROOT, 'electron-builder.yml'), 'utf8');
    expect(config).toMatch(/^afterPack: \.\/scripts\/after-pack\.mjs$/m);
  });

  it('turns RunAsNode, NODE_OPTIONS and --inspect off; cookie encryption, asar integrity and asar-only on', async () => {
    const appOutDir = tempFolder('fw-fuses-');
    const binary = path.join(appOutDir, 'framewright');
    fakeElectronBinary(binary);

    await afterPack(linuxContext(appOutDir));

    const wire = await getCurrentFuseWire(binary);
    expect(wire[FuseV1Options.RunAsNode]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(FuseState.DISABLE);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(FuseState.ENABLE);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(FuseState.DISABLE);
    // every fuse of the wire is set on purpose, so a new Electron fuse cannot slip in unset
    expect(FRAMEWRIGHT_FUSES.strictlyRequireAllFuses).toBe(true);
  });

  it('flips the executable electron-builder laid out for each platform', async () => {
    const flip = vi.fn(async () => 1);
    for (const [platform, expected, resetsSignature] of [
      ['linux', '/out/framewright', false],
      ['win32', '/out/Framewright.exe', false],
      ['darwin', '/out/Framewright.app', true],
    ] as const) {
      const context = { ...linuxContext('/out'), electronPlatformName: platform };
      expect(packagedExecutable(context)).toBe(expected);
      await afterPack(context, flip);
      expect(flip).toHaveBeenLastCalledWith(
        expected,
        expect.objectContaining({ resetAdHocDarwinSignature: resetsSignature }),
      );
    }
  });
});
