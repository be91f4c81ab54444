import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import { dev, pairCli, STUDIO_APP_ID, STUDIO_DRAFT_VERSION, studioSubmission } from './developer-client.js';
import { expectPlatformError, type PlatformClient } from './platform-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;

usePlatformWorld({}, (world) => {
  ({ client } = world);
});

const A = `/apps/${STUDIO_APP_ID}`;
const MiB = 1024 * 1024;

/** A 2.5 MiB "docker-archive": a tar header block, then stable filler. */
function archive(): Buffer {
  const bytes = Buffer.alloc(2.5 * MiB);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = (i * 31 + 7) % 251;
  bytes.fill(0, 0, 512);
  bytes.write('manifest.json', 0, 'latin1');
  bytes.write('ustar\u000000', 257, 'latin1');
  return bytes;
}

async function putPart(url: string, body: Buffer): Promise<Response> {
  return fetch(url, { method: 'PUT', body, headers: { 'Content-Length': String(body.length) } });
}

/** Sends half of a part, then drops the connection. */
function droppedPut(url: string, body: Buffer): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method: 'PUT', headers: { 'Content-Length': String(body.length) } });
    req.on('error', () => resolve());
    req.write(body.subarray(0, body.length / 2), () => {
      setTimeout(() => {
        req.destroy();
        setTimeout(resolve, 50);
      }, 20);
    });
  });
}

describe('image imports in parts', () => {
  it('normalizes archiveType exactly and is idempotent by idempotencyKey', async () => {
    const base = { fileName: 'web.tar', sizeBytes: 10, component: 'web' };
    const cases: [string | undefined, string, string][] = [
      ['oci', 'web.tar', 'oci-archive'],
      ['tar', 'web.tar', 'docker-archive'],
      ['docker', 'web.tar', 'docker-archive'],
      ['', 'web.tar', 'docker-archive'],
      [undefined, 'web.oci.tar', 'oci-archive'],
      ['oci-archive', 'web.tar', 'oci-archive'],
    ];
    for (const [i, [archiveType, fileName, expected]] of cases.entries()) {
      const res = await dev(client, 'POST', `${A}/image-imports`, {
        json: { ...base, fileName, archiveType, idempotencyKey: `norm-${i}` },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.data).toMatchObject({ archiveType: expected, status: 'pending', partCount: 1 });
    }
    const zip = await dev(client, 'POST', `${A}/image-imports`, {
      json: { ...base, archiveType: 'zip', idempotencyKey: 'norm-zip' },
    });
    expectPlatformError(zip, 400, 'INVALID_REQUEST');
    const replay = await dev(client, 'POST', `${A}/image-imports`, {
      json: { ...base, archiveType: 'oci', idempotencyKey: 'norm-0' },
    });
    expect(replay.status).toBe(200);
    const conflict = await dev(client, 'POST', `${A}/image-imports`, {
      json: { ...base, sizeBytes: 11, archiveType: 'oci', idempotencyKey: 'norm-0' },
    });
    expectPlatformError(conflict, 409, 'IMAGE_IMPORT_IDEMPOTENCY_CONFLICT');
  });

  it('refuses the CLI token for image uploads', async () => {
    const cli = await pairCli(client, STUDIO_APP_ID, { versionId: STUDIO_DRAFT_VERSION });
    const res = await dev(client, 'POST', `${A}/image-imports`, {
      json: { fileName: 'a.tar', sizeBytes: 1, component: 'web', idempotencyKey: 'cli-img' },
      credential: cli.accessToken,
    });
    expectPlatformError(res, 403, 'CLI_TOKEN_NOT_PERMITTED');
  });

  it('imports three parts, one re-sent after a dropped connection, completes and binds the image to a draft version', async () => {
    const created = await dev(client, 'POST', `${A}/versions`, {
      json: { submission: studioSubmission('6.0.0'), idempotencyKey: 'v6-img' },
    });
    const v = `${A}/versions/${created.data.versionId}`;
    const bytes = archive();
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const request = {
      fileName: 'web.tar',
      sizeBytes: bytes.length,
      sha256,
      archiveType: 'docker',
      component: 'web',
      displayVersion: '6.0.0',
      idempotencyKey: 'v6-web-image',
    };
    expectPlatformError(
      await dev(client, 'POST', `${v}/image-imports`, {
        json: { ...request, displayVersion: '5.0.0', idempotencyKey: 'x' },
      }),
      409,
      'VERSION_IMAGE_BIND_FAILED',
    );
    const session = await dev(client, 'POST', `${v}/image-imports`, { json: request });
    expect(session.status, session.text).toBe(201);
    expect(session.data).toMatchObject({
      status: 'pending',
      partCount: 3,
      partSizeBytes: MiB,
      versionId: created.data.versionId,
    });
    const parts = session.data.uploadParts as Json[];
    expect(parts.map((p) => [p.partNumber, p.method])).toEqual([
      [1, 'PUT'],
      [2, 'PUT'],
      [3, 'PUT'],
    ]);
    const slice = (n: number) => bytes.subarray((n - 1) * MiB, Math.min(n * MiB, bytes.length));

    const etags: Record<number, string> = {};
    for (const n of [1, 3]) {
      const res = await putPart(parts[n - 1]!.url, slice(n));
      expect(res.status).toBe(200);
      etags[n] = res.headers.get('etag')!;
    }
    await droppedPut(parts[1]!.url, slice(2));
    // after the disconnect: read the session, which still lacks part 2
    const read = await dev(client, 'GET', `${v}/image-imports/${session.data.imageImportId}`);
    expect(read.data.status).toBe('uploading');
    expect(read.data.uploadedParts.map((p: Json) => p.partNumber)).toEqual([1, 3]);
    // a session-level replay of the same key answers the same session rather than a new one
    const replay = await dev(client, 'POST', `${v}/image-imports`, { json: request });
    expect(replay.data.imageImportId).toBe(session.data.imageImportId);
    const part2 = read.data.uploadParts[1];
    const resent = await putPart(part2.url, slice(2));
    expect(resent.status).toBe(200);
    etags[2] = resent.headers.get('etag')!;
    const tampered = new URL(part2.url);
    // its first character changed (to another one: a base64url signature starts with "x" once in 64)
    const signature = tampered.searchParams.get('signature')!;
    tampered.searchParams.set('signature', (signature[0] === 'x' ? 'y' : 'x') + signature.slice(1));
    expect((await putPart(tampered.toString(), slice(2))).status).toBe(403);

    const completeUrl = `${v}/image-imports/${session.data.imageImportId}/complete`;
    const wrong = await dev(client, 'POST', completeUrl, {
      json: { parts: [1, 2, 3].map((n) => ({ partNumber: n, etag: n === 2 ? '"0"' : etags[n] })) },
    });
    expectPlatformError(wrong, 409, 'IMAGE_IMPORT_PARTS_MISMATCH');
    const parts3 = [1, 2, 3].map((n) => ({ partNumber: n, etag: etags[n]!, sizeBytes: slice(n).length }));
    const done = await dev(client, 'POST', completeUrl, { json: { parts: parts3 } });
    expect(done.status, done.text).toBe(200);
    expect(done.data).toMatchObject({ status: 'completed', digest: `sha256:${sha256}`, uploadParts: [] });
    expect(done.data.imageAssetId).toEqual(expect.any(String));
    const again = await dev(client, 'POST', completeUrl, { json: { parts: parts3 } });
    expect(again.data).toEqual(done.data);

    const detail = await dev(client, 'GET', v);
    expect(detail.data.recognized.images).toEqual([
      {
        imageAssetId: done.data.imageAssetId,
        component: 'web',
        digest: `sha256:${sha256}`,
        displayVersion: '6.0.0',
      },
    ]);
    expect(detail.data.recognized.components).toEqual([
      { name: 'web', imageAssetId: done.data.imageAssetId },
    ]);
    const validated = await dev(client, 'POST', `${v}/validate`);
    expect(validated.data.passed).toBe(true);
    expect(validated.data.artifact.verified).toBe(true);
  });

  it('fails an archive whose bytes do not have the declared sha256', async () => {
    const body = Buffer.alloc(1000, 1);
    const session = await dev(client, 'POST', `${A}/image-imports`, {
      json: {
        fileName: 'bad.tar',
        sizeBytes: body.length,
        sha256: 'a'.repeat(64),
        component: 'web',
        idempotencyKey: 'bad-digest',
      },
    });
    const put = await putPart(session.data.uploadParts[0].url, body);
    const done = await dev(client, 'POST', `${A}/image-imports/${session.data.imageImportId}/complete`, {
      json: { parts: [{ partNumber: 1, etag: put.headers.get('etag') }] },
    });
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({ status: 'failed', errorCode: 'IMAGE_DIGEST_MISMATCH' });
    expect(done.data.imageAssetId).toBeUndefined();
  });
});
