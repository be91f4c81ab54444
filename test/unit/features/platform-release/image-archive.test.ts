/** `platform release` reads an image archive's member names (tar or tar.gz) before sending anything. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkImageArchive,
  tarMemberNames,
} from '../../../../src/main/core/platform-release/image-archive.js';

const dir = mkdtempSync(path.join(tmpdir(), 'fw-image-archive-'));
const LONG = `blobs/sha256/${'a'.repeat(120)}`;

function layout(name: string, files: Record<string, string>): string {
  const root = path.join(dir, name);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('image archives', () => {
  it('lists the members of a tar and a tar.gz made by tar (long names included)', async () => {
    const root = layout('oci', { 'oci-layout': '{}', 'index.json': '{}', [LONG]: 'layer' });
    const tar = path.join(dir, 'image.oci.tar');
    const gz = path.join(dir, 'image.oci.tar.gz');
    execFileSync('tar', ['-cf', tar, '-C', root, 'oci-layout', 'index.json', LONG]);
    execFileSync('tar', ['-czf', gz, '-C', root, 'oci-layout', 'index.json', LONG]);
    for (const file of [tar, gz]) {
      expect(await tarMemberNames(file)).toEqual(['oci-layout', 'index.json', LONG]);
      await expect(checkImageArchive(file, 'oci-archive')).resolves.toBeUndefined();
    }
    // an OCI layout named as a docker-archive: told to rename it
    await expect(checkImageArchive(tar, 'docker-archive')).rejects.toThrow(/name the file \.oci\.tar/);
  });

  it('refuses what is not a tar, and a tar without the manifest of its kind', async () => {
    const text = path.join(dir, 'notes.tar');
    writeFileSync(text, 'not an archive\n'.repeat(64));
    await expect(checkImageArchive(text, 'docker-archive')).rejects.toMatchObject({
      code: 'release.image_not_archive',
    });
    const root = layout('plain', { 'readme.txt': 'hello' });
    const plain = path.join(dir, 'plain.tar');
    execFileSync('tar', ['-cf', plain, '-C', root, 'readme.txt']);
    await expect(checkImageArchive(plain, 'docker-archive')).rejects.toThrow(/must hold manifest\.json/);
    await expect(checkImageArchive(plain, 'oci-archive')).rejects.toThrow(/oci-layout and index\.json/);
  });
});
