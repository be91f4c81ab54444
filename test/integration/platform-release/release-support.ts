import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';

/** A ustar header for a member `name` of `size` bytes. */
function tarHeader(name: string, size: number): Buffer {
  const header = Buffer.alloc(512);
  header.write(name, 0, 'latin1');
  header.write('0000644\0', 100, 'latin1');
  header.write('0000000\0', 108, 'latin1');
  header.write('0000000\0', 116, 'latin1');
  header.write(size.toString(8).padStart(11, '0') + '\0', 124, 'latin1');
  header.write('00000000000\0', 136, 'latin1');
  header.write('        ', 148, 'latin1');
  header.write('0', 156, 'latin1');
  header.write('ustar\0', 257, 'latin1');
  header.write('00', 263, 'latin1');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, '0') + '\0 ', 148, 'latin1');
  return header;
}

const padded = (bytes: Buffer) => Buffer.concat([bytes, Buffer.alloc((512 - (bytes.length % 512)) % 512)]);

/**
 * A docker-archive standing for a container image: a real tar (ustar headers) with its
 * `manifest.json` and one layer member of `size` bytes.
 */
export function writeImageArchive(file: string, size: number, seed = randomBytes(16)): void {
  const manifest = Buffer.from(
    JSON.stringify([{ Config: 'config.json', RepoTags: [], Layers: ['layer.bin'] }]),
  );
  const body = Buffer.alloc(Math.ceil(size / 512) * 512);
  for (let i = 0; i < size; i += 16) seed.copy(body, i, 0, Math.min(16, size - i));
  body.writeUInt32BE(Date.now() >>> 0, 0);
  writeFileSync(
    file,
    Buffer.concat([
      tarHeader('manifest.json', manifest.length),
      padded(manifest),
      tarHeader('layer.bin', size),
      body,
      Buffer.alloc(1024),
    ]),
  );
}

/** Posts a reviewer's decision through the simulator's review route. */
export async function review(
  reviewUrl: string,
  token: string,
  requestId: string,
  decision: 'approve' | 'reject' | 'apply',
) {
  const res = await fetch(reviewUrl, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ requestId, decision }),
  });
  if (res.status !== 200) throw new Error(`review: HTTP ${res.status} ${await res.text()}`);
  return res.json() as Promise<{ request: { status: string } }>;
}

/** A developer-plane GET as the developer. */
export async function devGet<T>(baseUrl: string, token: string, suffix: string): Promise<T> {
  const res = await fetch(baseUrl + suffix, { headers: { Authorization: `Bearer ${token}` } });
  if (res.status !== 200) throw new Error(`GET ${suffix}: HTTP ${res.status}`);
  return (await res.json()) as T;
}
