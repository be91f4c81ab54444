import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MarkedExports } from '../../../src/main/core/exports/marked-export.js';
import type { ExportRequestBody, RuntimeExportCalls } from '../../../src/main/core/exports/marked-export.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const dir = tempFolder('fw-export-expiry-');

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/**
 * A scripted platform whose expired copy reads as `expired` (no `expiresAt`), as the simulator's
 * fixed export store will answer: a copy made under a key is answered again for that key.
 */
function scriptedPlatform(creates: { key: string; body: ExportRequestBody }[]) {
  const byKey = new Map<string, { exportId: string; status: string }>();
  let n = 0;
  const calls: RuntimeExportCalls = {
    createExport: async (body, key) => {
      creates.push({ key, body });
      const known = byKey.get(key);
      if (known) return json(200, { ...known, statusUrl: 'x', deliveryMode: 'marked', intent: 'download' });
      const copy = { exportId: `exp_${++n}`, status: 'ready' };
      byKey.set(key, copy);
      return json(200, { ...copy, statusUrl: 'x', byteSize: 3, deliveryMode: 'marked', intent: 'download' });
    },
    readExport: async () => json(404, { code: 'export_not_found', message: 'no' }),
    downloadExport: async () =>
      new Response(new Uint8Array([1, 2, 3]), {
        status: 200,
        headers: { 'content-type': 'image/png', 'x-platform-asset-variant': 'marked_export' },
      }),
  };
  const expireAll = () => {
    for (const copy of byKey.values()) copy.status = 'expired';
  };
  return { calls, expireAll };
}

describe('a marked export whose copy the platform reports expired', () => {
  it('asks for a new copy under a new key (and a body of its own) instead of replaying the expired one', async () => {
    const creates: { key: string; body: ExportRequestBody }[] = [];
    const platform = scriptedPlatform(creates);
    const exports = new MarkedExports({
      calls: platform.calls,
      urls: {
        readUrlFor: (sha, expiresAt) =>
          `https://app.example/o/${sha}?exp=${(expiresAt as Date | undefined)?.getTime() ?? 0}`,
      },
    });
    const source = { sha256: 'a'.repeat(64), mimeType: 'image/png', byteSize: 3 };
    const first = await exports.exportTo(source, path.join(dir, 'one.png'));
    platform.expireAll();
    const second = await exports.exportTo(source, path.join(dir, 'two.png'));
    expect(first.exportId).toBe('exp_1');
    expect(second.exportId).toBe('exp_2');
    expect(readFileSync(path.join(dir, 'two.png'))).toEqual(Buffer.from([1, 2, 3]));
    // the expired key answered once more, then a new key: no key ever carried two bodies
    expect(creates.map((c) => c.key)).toEqual([creates[0]!.key, creates[0]!.key, creates[2]!.key]);
    expect(creates[2]!.key).not.toBe(creates[0]!.key);
    expect(creates[1]!.body).toEqual(creates[0]!.body);
    expect(creates.every((c) => c.body.idempotencyKey === c.key)).toBe(true);
  });
});
