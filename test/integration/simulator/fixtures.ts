import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { whenDone } from '../../support/worlds/cleanup.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buffer: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of buffer) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid RGB PNG of `width`x`height` filled with a colour; `totalBytes` pads it with bytes after
 * IEND to an exact size (decoders ignore them; content sniffing still says PNG).
 */
export function makePng(
  width = 64,
  height = 48,
  rgb: [number, number, number] = [200, 60, 30],
  totalBytes?: number,
): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8;
  header[9] = 2;
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  if (totalBytes === undefined) return png;
  if (totalBytes < png.length) throw new Error('totalBytes smaller than the PNG');
  return Buffer.concat([png, Buffer.alloc(totalBytes - png.length)]);
}

/** A 16-bit mono PCM WAV of exactly `seconds` (sample-accurate) with a tone (distinct bytes per frequency). */
export function makeWav(seconds: number, frequency = 440, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i += 1)
    data.writeInt16LE(Math.round(Math.sin((i / sampleRate) * 2 * Math.PI * frequency) * 8000), i * 2);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

let workDir: string | undefined;
function dir(): string {
  if (!workDir) {
    workDir = tempFolder('fw-sim-fixtures-');
    // removed when the test (or file) that made it is done: the next one makes a new folder
    whenDone(() => (workDir = undefined));
  }
  return workDir;
}

/** A path in this test file's scratch folder (removed by removeScratch). */
export function scratchFile(name: string): string {
  return path.join(dir(), name);
}

/** Removes the scratch folder of fixtures and probed downloads now (else it goes when the test or file is done). */
export function removeScratch(): void {
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
}

function ffmpeg(args: string[], out: string): Buffer {
  const target = path.join(dir(), out);
  execFileSync(locateMediaTools().ffmpeg, ['-hide_banner', '-v', 'error', '-y', ...args, target]);
  return readFileSync(target);
}

/** A small MP4 (H.264), optionally with an AAC track. */
export function makeMp4(seconds = 1, withAudio = false): Buffer {
  const audio = withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=300:duration=${seconds}`] : [];
  return ffmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=160x96:rate=12:duration=${seconds}`,
      ...audio,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      ...(withAudio ? ['-c:a', 'aac', '-shortest'] : []),
      '-f',
      'mp4',
    ],
    `clip-${seconds}-${withAudio ? 'a' : 'n'}.mp4`,
  );
}

/** A QuickTime .mov, with or without an audio track. */
export function makeMov(seconds = 3, withAudio = true): Buffer {
  const audio = withAudio ? ['-f', 'lavfi', '-i', `sine=frequency=500:duration=${seconds}`] : [];
  return ffmpeg(
    [
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=160x96:rate=12:duration=${seconds}`,
      ...audio,
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-pix_fmt',
      'yuv420p',
      ...(withAudio ? ['-c:a', 'aac', '-shortest'] : []),
      '-f',
      'mov',
    ],
    `clip-${seconds}-${withAudio ? 'a' : 'n'}.mov`,
  );
}

/** A minimal one-page PDF. */
export function makePdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
      '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    'latin1',
  );
}

/** A string of exactly `n` code points made of an astral character (2 UTF-16 units each). */
export function astral(n: number): string {
  return '𝒜'.repeat(n);
}
