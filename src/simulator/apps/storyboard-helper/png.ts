import { deflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** An RGB colour, each channel 0..255. */
export type Rgb = readonly [number, number, number];

/**
 * A real 8-bit RGB PNG (signature, IHDR, one zlib IDAT, IEND) of `width` x `height`: a vertical
 * gradient from `top` to `bottom` with a lighter frame and a diagonal band whose position
 * depends on `band` (0..1), so every panel's image differs. Made in code, no tool needed.
 */
export function gradientPng(width: number, height: number, top: Rgb, bottom: Rgb, band: number): Buffer {
  const row = width * 3 + 1;
  const raw = Buffer.alloc(row * height);
  const bandX = Math.round(band * width);
  for (let y = 0; y < height; y += 1) {
    raw[y * row] = 0; // filter: none
    const t = height > 1 ? y / (height - 1) : 0;
    for (let x = 0; x < width; x += 1) {
      const frame = x < 4 || y < 4 || x >= width - 4 || y >= height - 4;
      const inBand = Math.abs(x - bandX - (y - height / 2) / 2) < width / 24;
      for (let ch = 0; ch < 3; ch += 1) {
        let v = top[ch]! + (bottom[ch]! - top[ch]!) * t;
        if (inBand) v = 255 - v * 0.4;
        if (frame) v = 235;
        raw[y * row + 1 + x * 3 + ch] = Math.max(0, Math.min(255, Math.round(v)));
      }
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  header[10] = 0; // compression
  header[11] = 0; // filter
  header[12] = 0; // interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
