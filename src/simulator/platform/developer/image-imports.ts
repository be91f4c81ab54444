import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { iso } from '../../clock.js';
import { newId, sendJson } from '../../http.js';
import { bodyHash } from '../../idempotency.js';
import { PlatformError } from '../errors.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import { ownedTarget, readDeveloperBody } from './developer-auth.js';
import { DEVELOPER_COMMON, developerRoute } from './developer-routes.js';
import { CompleteImportRequest, ImageImportRequest, ImageImportSession } from './developer-schemas.js';
import type { BoundImage, DeveloperStore, ImageImport, UploadedPart } from './developer-store.js';
import { ownedChange } from './version-routes.js';

/** Parts are 1 MiB (the last one the remainder); a session lives 24 hours, a part URL 15 minutes. */
export const IMAGE_PART_SIZE_BYTES = 1024 * 1024;
export const IMAGE_IMPORT_LIFETIME_SECONDS = 24 * 3600;
export const IMAGE_PART_URL_SECONDS = 15 * 60;
/** The part upload address (relative to the platform prefix). */
const PART_PATH = '/uploads/image-imports/{imageImportId}/parts/{partNumber}';

/** Signs part URLs; a new key per process (a restart re-signs when the session is read again). */
const URL_KEY = randomBytes(32);
const sign = (id: string, part: number, expires: number) =>
  createHmac('sha256', URL_KEY).update(`${id}\n${part}\n${expires}`).digest('base64url');

/**
 * `archiveType`: `oci` → `oci-archive`; `tar` or `docker` → `docker-archive`; the canonical values
 * stay; empty (or absent) is ambiguous in the spec and is decided by the file name (`.oci`,
 * `.oci.tar`, `.oci.tar.gz`: `oci-archive`; anything else `docker-archive`).
 */
export function normalizeArchiveType(
  value: string | undefined,
  fileName: string,
): 'oci-archive' | 'docker-archive' {
  const v = (value ?? '').trim().toLowerCase();
  if (v === 'oci' || v === 'oci-archive') return 'oci-archive';
  if (v === 'tar' || v === 'docker' || v === 'docker-archive') return 'docker-archive';
  if (v === '') return /\.oci(\.tar(\.gz)?)?$/i.test(fileName) ? 'oci-archive' : 'docker-archive';
  throw new PlatformError(
    400,
    'INVALID_REQUEST',
    'archiveType must be empty, oci, tar, docker, oci-archive or docker-archive.',
  );
}

const partDir = (pc: PlatformContext, id: string) => path.join(pc.state.dirs.tmp, 'image-imports', id);
const partSize = (imp: ImageImport, n: number) =>
  n < imp.partCount ? imp.partSizeBytes : imp.sizeBytes - imp.partSizeBytes * (imp.partCount - 1);

function projection(pc: PlatformContext, imp: ImageImport) {
  const origin = new URL(pc.state.baseUrl).origin;
  const expires = pc.state.clock.nowMs() + IMAGE_PART_URL_SECONDS * 1000;
  const open = imp.status === 'pending' || imp.status === 'uploading';
  const uploadParts = open
    ? Array.from({ length: imp.partCount }, (_, i) => {
        const n = i + 1;
        const url = `${origin}/platform${PART_PATH.replace('{imageImportId}', imp.imageImportId).replace('{partNumber}', String(n))}?expires=${expires}&signature=${sign(imp.imageImportId, n, expires)}`;
        return {
          partNumber: n,
          url,
          method: 'PUT' as const,
          sizeBytes: partSize(imp, n),
          expiresAt: iso(expires),
        };
      })
    : [];
  return {
    imageImportId: imp.imageImportId,
    status: imp.status,
    appId: imp.appId,
    ...(imp.versionId ? { versionId: imp.versionId } : {}),
    ...(imp.changeRequestId ? { changeRequestId: imp.changeRequestId } : {}),
    fileName: imp.fileName,
    sizeBytes: imp.sizeBytes,
    archiveType: imp.archiveType,
    component: imp.component,
    ...(imp.displayVersion ? { displayVersion: imp.displayVersion } : {}),
    partSizeBytes: imp.partSizeBytes,
    partCount: imp.partCount,
    uploadParts,
    uploadedParts: [...imp.uploadedParts].sort((a, b) => a.partNumber - b.partNumber),
    expiresAt: iso(imp.expiresAtMs),
    createdAt: iso(imp.createdAtMs),
    ...(imp.imageAssetId
      ? {
          imageAssetId: imp.imageAssetId,
          repository: imp.repository,
          digest: imp.digest,
          architecture: imp.architecture,
          importedAt: imp.importedAt,
        }
      : {}),
    ...(imp.errorCode ? { errorCode: imp.errorCode, errorMessage: imp.errorMessage } : {}),
  };
}

type Level = 'app' | 'version' | 'change';

/** Where an import is bound: its target's checks (draft version, editable proposal, component, displayVersion). */
function target(pc: PlatformContext, level: Level, developerOnly?: string) {
  const { app, version } = ownedTarget(pc, developerOnly ? { developerOnly } : {});
  const change = level === 'change' ? ownedChange(pc, version!) : undefined;
  return { app, version, change };
}

async function createImport(pc: PlatformContext, level: Level): Promise<void> {
  const { app, version, change } = target(pc, level, 'upload images');
  const body = await readDeveloperBody(pc, ImageImportRequest);
  const store = pc.state.platform.developer;
  const archiveType = normalizeArchiveType(body.archiveType, body.fileName);
  const requestHash = bodyHash({
    ...body,
    archiveType,
    level,
    versionId: version?.versionId ?? null,
    change: change?.request.requestId ?? null,
  });
  const existing = [...store.imports.values()].find(
    (i) => i.appId === app.appId && i.idempotencyKey === body.idempotencyKey,
  );
  if (existing) {
    if (existing.requestHash !== requestHash)
      throw new PlatformError(
        409,
        'IMAGE_IMPORT_IDEMPOTENCY_CONFLICT',
        'This idempotencyKey was used for another image import.',
      );
    sendJson(pc.res, 200, projection(pc, existing));
    return;
  }
  if (version && level === 'version') {
    if (version.status !== 'draft')
      throw new PlatformError(
        409,
        'VERSION_IMAGE_BIND_FAILED',
        'Images are bound to draft versions only (use a change proposal).',
      );
    bindChecks(version.submission, body, 'VERSION_IMAGE_BIND_FAILED');
  }
  if (change) {
    if (change.proposal.status !== 'editing')
      throw new PlatformError(
        409,
        'VERSION_CHANGE_IMAGE_BIND_FAILED',
        'The change proposal is no longer editable.',
      );
    bindChecks(change.proposal.workingCopy, body, 'VERSION_CHANGE_IMAGE_BIND_FAILED');
  }
  const now = pc.state.clock.nowMs();
  const record: ImageImport = {
    imageImportId: newId('imgimp'),
    appId: app.appId,
    ...(level !== 'app' ? { versionId: version!.versionId } : {}),
    ...(change ? { changeRequestId: change.request.requestId } : {}),
    idempotencyKey: body.idempotencyKey,
    requestHash,
    fileName: body.fileName,
    sizeBytes: body.sizeBytes,
    ...(body.sha256 ? { sha256: body.sha256 } : {}),
    archiveType,
    component: body.component,
    ...(body.displayVersion ? { displayVersion: body.displayVersion } : {}),
    status: 'pending',
    partSizeBytes: IMAGE_PART_SIZE_BYTES,
    partCount: Math.ceil(body.sizeBytes / IMAGE_PART_SIZE_BYTES),
    uploadedParts: [],
    createdAtMs: now,
    expiresAtMs: now + IMAGE_IMPORT_LIFETIME_SECONDS * 1000,
  };
  store.saveImport(record);
  sendJson(pc.res, 201, projection(pc, record));
}

function bindChecks(
  s: { displayVersion: string; components: { name: string }[] },
  body: { component: string; displayVersion?: string },
  code: string,
): void {
  if (!s.components.some((c) => c.name === body.component))
    throw new PlatformError(409, code, `component ${body.component} is not declared by the version.`);
  if (body.displayVersion !== undefined && body.displayVersion !== s.displayVersion)
    throw new PlatformError(
      409,
      code,
      `displayVersion ${body.displayVersion} is not the version's (${s.displayVersion}).`,
    );
}

function ownedImport(pc: PlatformContext, level: Level, developerOnly?: string): ImageImport {
  const { app, version, change } = target(pc, level, developerOnly);
  const imp = pc.state.platform.developer.imports.get(pc.params.imageImportId ?? '');
  const matches =
    imp &&
    imp.appId === app.appId &&
    (level === 'app' || imp.versionId === version?.versionId) &&
    (level !== 'change' || imp.changeRequestId === change?.request.requestId);
  if (!imp || !matches)
    throw new PlatformError(404, 'IMAGE_IMPORT_NOT_FOUND', 'No image import with this id here.');
  return imp;
}

async function getImport(pc: PlatformContext, level: Level): Promise<void> {
  sendJson(pc.res, 200, projection(pc, ownedImport(pc, level)));
}

/** `PUT` of one part through its signed URL: stored under the data folder, answered with its `ETag`. */
async function putPart(pc: PlatformContext): Promise<void> {
  const store = pc.state.platform.developer;
  const id = pc.params.imageImportId ?? '';
  const n = Number(pc.params.partNumber);
  const expires = Number(pc.query.get('expires'));
  const given = Buffer.from(pc.query.get('signature') ?? '');
  const wanted = Buffer.from(sign(id, n, expires));
  const imp = store.imports.get(id);
  if (!imp || given.length !== wanted.length || !timingSafeEqual(given, wanted) || !Number.isInteger(n))
    throw new PlatformError(403, 'UPLOAD_URL_INVALID', 'The part URL is not valid.');
  if (expires <= pc.state.clock.nowMs())
    throw new PlatformError(403, 'UPLOAD_URL_EXPIRED', 'The part URL has expired; read the session again.');
  if (imp.status !== 'pending' && imp.status !== 'uploading')
    throw new PlatformError(409, 'IMAGE_IMPORT_NOT_UPLOADING', `The import is ${imp.status}.`);
  if (n < 1 || n > imp.partCount)
    throw new PlatformError(400, 'INVALID_REQUEST', 'partNumber is out of range.');
  const expected = partSize(imp, n);
  const declared = Number(pc.req.headers['content-length'] ?? NaN);
  if (declared !== expected)
    throw new PlatformError(
      400,
      'PART_SIZE_MISMATCH',
      `Part ${n} must be exactly ${expected} bytes (Content-Length).`,
    );
  const dir = partDir(pc, id);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${n}.${randomBytes(4).toString('hex')}.tmp`);
  const md5 = createHash('md5');
  let size = 0;
  try {
    await pipeline(
      pc.req,
      async function* (source) {
        for await (const chunk of source as AsyncIterable<Buffer>) {
          size += chunk.length;
          md5.update(chunk);
          yield chunk;
        }
      },
      createWriteStream(tmp),
    );
  } catch {
    // the connection dropped mid-part: nothing is recorded; the part is sent again
    await rm(tmp, { force: true });
    throw new PlatformError(400, 'UPLOAD_INTERRUPTED', `Part ${n} was cut short; send it again.`);
  }
  if (size !== expected) {
    await rm(tmp, { force: true });
    throw new PlatformError(400, 'PART_SIZE_MISMATCH', `Part ${n} must be exactly ${expected} bytes.`);
  }
  await rename(tmp, path.join(dir, `${n}.part`));
  const etag = `"${md5.digest('hex')}"`;
  const current = store.imports.get(id)!;
  const uploadedParts: UploadedPart[] = [
    ...current.uploadedParts.filter((p) => p.partNumber !== n),
    { partNumber: n, etag, sizeBytes: size },
  ];
  store.saveImport({ ...current, status: 'uploading', uploadedParts });
  pc.res.writeHead(200, { ETag: etag, 'Content-Length': '0', 'Cache-Control': 'no-store' });
  pc.res.end();
}

const hexOf = (value: string | undefined) => {
  const m = /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(value ?? '');
  return m ? m[1]!.toLowerCase() : undefined;
};

async function completeImport(pc: PlatformContext, level: Level): Promise<void> {
  let imp = ownedImport(pc, level, 'upload images');
  const body = await readDeveloperBody(pc, CompleteImportRequest);
  const store = pc.state.platform.developer;
  const sameParts =
    body.parts.length === imp.partCount &&
    body.parts.every((p) => {
      const got = imp.uploadedParts.find((u) => u.partNumber === p.partNumber);
      return got && got.etag === p.etag && (p.sizeBytes === undefined || p.sizeBytes === got.sizeBytes);
    }) &&
    new Set(body.parts.map((p) => p.partNumber)).size === imp.partCount;
  if (imp.status === 'completed' || imp.status === 'failed') {
    if (!sameParts)
      throw new PlatformError(
        409,
        'IMAGE_IMPORT_PARTS_MISMATCH',
        `The import is already ${imp.status} with other parts.`,
      );
    sendJson(pc.res, 200, projection(pc, imp));
    return;
  }
  if (!sameParts)
    throw new PlatformError(
      409,
      'IMAGE_IMPORT_PARTS_MISMATCH',
      'The parts do not match the uploaded parts (every part number once, with its ETag and size).',
      {
        details: { uploadedPartNumbers: imp.uploadedParts.map((p) => p.partNumber).sort((a, b) => a - b) },
      },
    );
  imp = { ...imp, status: 'importing' };
  store.saveImport(imp);
  // assemble and check the archive: its digest, and a tar header in the first block
  const dir = partDir(pc, imp.imageImportId);
  const hash = createHash('sha256');
  for (let n = 1; n <= imp.partCount; n += 1)
    for await (const chunk of createReadStream(path.join(dir, `${n}.part`))) hash.update(chunk as Buffer);
  const digestHex = hash.digest('hex');
  const head = Buffer.alloc(512);
  const fh = await open(path.join(dir, '1.part'), 'r');
  try {
    await fh.read(head, 0, 512, 0);
  } finally {
    await fh.close();
  }
  const declared = hexOf(imp.sha256);
  const fail = (errorCode: string, errorMessage: string): ImageImport => ({
    ...imp,
    status: 'failed',
    errorCode,
    errorMessage,
  });
  let done: ImageImport;
  if (declared && declared !== digestHex)
    done = fail('IMAGE_DIGEST_MISMATCH', 'The archive does not have the declared sha256.');
  else if (head.subarray(257, 262).toString('latin1') !== 'ustar')
    done = fail('IMAGE_ARCHIVE_INVALID', 'The file is not a tar archive (docker-archive or oci-archive).');
  else {
    const app = store.apps.get(imp.appId)!;
    done = {
      ...imp,
      status: 'completed',
      imageAssetId: 'imgasset_' + digestHex.slice(0, 24),
      repository: `apps/${app.appKey}/${imp.component}`,
      digest: 'sha256:' + digestHex,
      architecture: 'amd64',
      importedAt: store.now(),
    };
  }
  store.saveImport(done);
  await rm(dir, { recursive: true, force: true });
  if (done.status === 'completed') bind(store, done);
  sendJson(pc.res, 200, projection(pc, done));
}

/** Binds a completed import to its draft version or change proposal (the package references only `imageAssetId`). */
function bind(store: DeveloperStore, imp: ImageImport): void {
  const image: BoundImage = {
    imageAssetId: imp.imageAssetId!,
    component: imp.component,
    digest: imp.digest!,
    ...(imp.displayVersion ? { displayVersion: imp.displayVersion } : {}),
  };
  const replace = (images: BoundImage[]) => [...images.filter((i) => i.component !== image.component), image];
  if (imp.changeRequestId) {
    const proposal = store.proposals.get(imp.changeRequestId);
    if (!proposal || proposal.status !== 'editing')
      throw new PlatformError(
        409,
        'VERSION_CHANGE_IMAGE_BIND_FAILED',
        'The change proposal is no longer editable; the image is imported but not bound.',
      );
    store.saveProposal({ ...proposal, images: replace(proposal.images), updatedAt: store.now() });
  } else if (imp.versionId) {
    const version = store.versions.get(imp.versionId);
    if (!version || version.status !== 'draft')
      throw new PlatformError(
        409,
        'VERSION_IMAGE_BIND_FAILED',
        'The version is no longer a draft; the image is imported but not bound.',
      );
    store.saveVersion({
      ...version,
      images: replace(version.images),
      updatedAt: store.now(),
      audit: [
        ...version.audit,
        {
          at: store.now(),
          action: 'image.bound',
          actor: 'developer',
          details: { imageAssetId: image.imageAssetId, component: image.component },
        },
      ],
    });
  }
}

const LEVELS: { level: Level; prefix: string; summary: string; bindCode?: string }[] = [
  { level: 'app', prefix: '/apps/{appId}', summary: 'application level' },
  {
    level: 'version',
    prefix: '/apps/{appId}/versions/{versionId}',
    summary: 'bound to a draft version',
    bindCode: 'VERSION_IMAGE_BIND_FAILED',
  },
  {
    level: 'change',
    prefix: '/apps/{appId}/versions/{versionId}/changes/{requestId}',
    summary: 'bound to a change proposal',
    bindCode: 'VERSION_CHANGE_IMAGE_BIND_FAILED',
  },
];

const opName = (level: Level) => (level === 'app' ? 'App' : level === 'version' ? 'Version' : 'Change');

export const imageImportRoutes: PlatformRoute[] = [
  ...LEVELS.flatMap(({ level, prefix, summary, bindCode }) => [
    developerRoute('POST', `${prefix}/image-imports`, (pc) => createImport(pc, level), {
      operationId: `create${opName(level)}ImageImport`,
      summary: `Create an image import session in parts (${summary}); idempotent by idempotencyKey`,
      tags: ['developer', 'image-imports'],
      requestBody: { schema: ImageImportRequest, required: true },
      responses: {
        201: { description: 'New session', schema: ImageImportSession },
        200: { description: 'The session of this idempotencyKey (same request)', schema: ImageImportSession },
        409: errorDoc(`IMAGE_IMPORT_IDEMPOTENCY_CONFLICT${bindCode ? `, ${bindCode}` : ''}`),
        ...DEVELOPER_COMMON,
      },
    }),
    developerRoute('GET', `${prefix}/image-imports/{imageImportId}`, (pc) => getImport(pc, level), {
      operationId: `get${opName(level)}ImageImport`,
      summary: `Read an image import session (${summary}); fresh part URLs while uploading`,
      tags: ['developer', 'image-imports'],
      responses: { 200: { description: 'Session', schema: ImageImportSession }, ...DEVELOPER_COMMON },
    }),
    developerRoute(
      'POST',
      `${prefix}/image-imports/{imageImportId}/complete`,
      (pc) => completeImport(pc, level),
      {
        operationId: `complete${opName(level)}ImageImport`,
        summary: `Complete with part numbers, ETags and sizes: the platform checks and imports the archive (${summary})`,
        tags: ['developer', 'image-imports'],
        requestBody: { schema: CompleteImportRequest, required: true },
        responses: {
          200: {
            description: 'Result (completed with imageAssetId and digest, or failed with errorCode)',
            schema: ImageImportSession,
          },
          409: errorDoc(`IMAGE_IMPORT_PARTS_MISMATCH${bindCode ? `, ${bindCode}` : ''}`),
          502: errorDoc('IMAGE_IMPORT_FAILED'),
          ...DEVELOPER_COMMON,
        },
      },
    ),
  ]),
  {
    method: 'PUT',
    path: PART_PATH,
    surface: 'developer',
    auth: 'route',
    handler: putPart,
    doc: {
      operationId: 'uploadImageImportPart',
      summary: 'Upload one part through its short-lived signed URL (exact size); answers its ETag',
      tags: ['image-imports'],
      query: z.object({ expires: z.string(), signature: z.string() }),
      responses: {
        200: { description: 'Stored; the ETag header names the part', headers: ['ETag'] },
        400: errorDoc('PART_SIZE_MISMATCH, UPLOAD_INTERRUPTED or INVALID_REQUEST'),
        403: errorDoc('UPLOAD_URL_INVALID or UPLOAD_URL_EXPIRED'),
        409: errorDoc('IMAGE_IMPORT_NOT_UPLOADING'),
        413: errorDoc('payload_too_large'),
      },
    },
  },
];
