import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createGunzip } from 'node:zlib';
import { AppError } from '../errors.js';

/** A container image archive as `platform release` sends it: docker-archive or oci-archive. */
export type ImageArchiveType = 'docker-archive' | 'oci-archive';

const BLOCK = 512;

/** Whether a 512-byte tar header's checksum is right (unsigned sum, the checksum field as spaces). */
function validHeader(block: Buffer): boolean {
  const stored = parseInt(block.toString('latin1', 148, 156).replace(/\0.*$/s, '').trim(), 8);
  if (!Number.isFinite(stored)) return false;
  let sum = 0;
  for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 0x20 : block[i]!;
  return sum === stored;
}

const field = (block: Buffer, start: number, length: number) =>
  block.toString('utf8', start, start + length).replace(/\0.*$/s, '');

/**
 * The member names of a tar archive (gzip-compressed or not), read as a stream without keeping
 * the members' contents. Throws when the file is not a tar archive: a header whose checksum is
 * wrong, or an end before the archive's.
 */
export async function tarMemberNames(filePath: string): Promise<string[]> {
  const head = Buffer.alloc(2);
  const handle = await open(filePath, 'r');
  try {
    await handle.read(head, 0, 2, 0);
  } finally {
    await handle.close();
  }
  const source = createReadStream(filePath);
  const stream = head[0] === 0x1f && head[1] === 0x8b ? source.pipe(createGunzip()) : source;
  const names: string[] = [];
  let pending = Buffer.alloc(0);
  let skip = 0; // bytes of member data (padded) still to pass over
  let longName: string | undefined; // a GNU long name ('L') or a pax path for the next member
  let readLongName = 0; // bytes of a long-name member still to read into `longNameBytes`
  let longNameBytes: Buffer[] = [];
  let paxBytes: Buffer[] | undefined;
  let ended = false;
  try {
    for await (const chunk of stream) {
      pending = Buffer.concat([pending, chunk as Buffer]);
      while (!ended) {
        if (skip > 0) {
          const take = Math.min(skip, pending.length);
          if (readLongName > 0) {
            const part = pending.subarray(0, Math.min(take, readLongName));
            (paxBytes ?? longNameBytes).push(Buffer.from(part));
            readLongName -= part.length;
          }
          pending = pending.subarray(take);
          skip -= take;
          if (skip > 0) break;
          if (paxBytes) {
            const path = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(Buffer.concat(paxBytes).toString('utf8'))?.[1];
            if (path) longName = path;
            paxBytes = undefined;
          } else if (longNameBytes.length) {
            longName = Buffer.concat(longNameBytes).toString('utf8').replace(/\0.*$/s, '');
            longNameBytes = [];
          }
        }
        if (pending.length < BLOCK) break;
        const block = pending.subarray(0, BLOCK);
        pending = pending.subarray(BLOCK);
        if (block.every((b) => b === 0)) {
          ended = true;
          break;
        }
        if (!validHeader(block)) throw new Error('bad header');
        const size = parseInt(field(block, 124, 12).trim() || '0', 8);
        if (!Number.isFinite(size) || size < 0) throw new Error('bad size');
        const type = String.fromCharCode(block[156]!);
        skip = Math.ceil(size / BLOCK) * BLOCK;
        if (type === 'L' || type === 'x') {
          readLongName = size;
          if (type === 'x') paxBytes = [];
          continue;
        }
        if (type === 'g') continue;
        const ustar = block.toString('latin1', 257, 262) === 'ustar';
        const prefix = ustar ? field(block, 345, 155) : '';
        const name = longName ?? (prefix ? `${prefix}/${field(block, 0, 100)}` : field(block, 0, 100));
        longName = undefined;
        names.push(name.replace(/^\.\//, ''));
      }
      if (ended) break;
    }
  } finally {
    source.destroy();
  }
  if (!ended && (names.length === 0 || skip > 0)) throw new Error('the archive ends before its end');
  return names;
}

/**
 * Checks, before anything is sent, that `--image` is a container image archive of its kind:
 * a tar (or tar.gz) holding `manifest.json` (docker-archive) or `oci-layout` and `index.json`
 * (oci-archive, named `.oci`, `.oci.tar` or `.oci.tar.gz`). Anything else is refused with what to
 * do, so a release never puts roles or creates a version for a file the platform cannot import.
 */
export async function checkImageArchive(filePath: string, archiveType: ImageArchiveType): Promise<void> {
  let names: string[];
  try {
    names = await tarMemberNames(filePath);
  } catch {
    throw new AppError(
      'release.image_not_archive',
      `--image ${filePath}: not a tar archive. Give the container image archive of the backend (podman save, docker save or npm run image): nothing was sent.`,
    );
  }
  const has = new Set(names);
  if (archiveType === 'oci-archive' && !(has.has('oci-layout') && has.has('index.json')))
    throw new AppError(
      'release.image_not_archive',
      `--image ${filePath}: an .oci archive must hold oci-layout and index.json (an OCI image layout); this one does not. Nothing was sent.`,
    );
  if (archiveType === 'docker-archive' && !has.has('manifest.json'))
    throw new AppError(
      'release.image_not_archive',
      has.has('oci-layout')
        ? `--image ${filePath}: this is an OCI image layout; name the file .oci.tar so it is sent as an oci-archive. Nothing was sent.`
        : `--image ${filePath}: a docker-archive must hold manifest.json; this tar does not. Nothing was sent.`,
    );
}
