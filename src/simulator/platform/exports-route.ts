import { createReadStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import type { SimulatorState } from '../context.js';
import { bodyHash } from '../idempotency.js';
import { newId, parseWith, readJsonObject, sendJson } from '../http.js';
import { digestFile } from '../jobs/outputs.js';
import { iso } from '../clock.js';
import { PlatformError } from './errors.js';
import { drawExportMark } from './export-mark.js';
import {
  EXPORT_LIFETIME_SECONDS,
  EXPORT_RETRY_AFTER_SECONDS,
  isExpiredExport,
  type ExportRecord,
} from './export-store.js';
import { checkReadUrlAddress, checkReadUrlExpiry, checkReadUrlFacts, fetchReadUrl } from './read-url.js';
import { RUNTIME_PATH, type PlatformContext, type PlatformRoute } from './router.js';
import { sessionCaller } from './runtime-auth.js';
import { idempotencyKeyOf } from './runtime-job-routes.js';
import { keyReservations } from './key-reservations.js';
import { errorDoc, ExportRequest, MarkedExport } from './schemas.js';

/** Time a marked copy takes to prepare at time scale 1 (a ready copy is never instant). */
export const EXPORT_PREPARE_SECONDS = 3;

const EXTENSION: Record<string, string> = {
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'image/webp': '.webp',
  'video/mp4': '.mp4',
};

function toExport(state: SimulatorState, record: ExportRecord): Record<string, unknown> {
  const base = `${new URL(state.baseUrl).origin}${RUNTIME_PATH}/media/exports/${encodeURIComponent(record.exportId)}`;
  const body: Record<string, unknown> = {
    exportId: record.exportId,
    status: record.status,
    statusUrl: base,
    mimeType: record.mimeType,
    deliveryMode: 'marked',
    intent: 'download',
  };
  if (record.status === 'preparing') body.retryAfterSeconds = EXPORT_RETRY_AFTER_SECONDS;
  if (isExpiredExport(record, state.clock.nowMs())) {
    // the copy is gone: no contentUrl; `expiresAt` says when it ended
    discardExpiredCopy(record);
    return { ...body, status: 'failed', errorCode: 'export_expired', expiresAt: iso(record.expiresAtMs!) };
  }
  if (record.status === 'ready') {
    body.contentUrl = `${base}/download`;
    body.byteSize = record.byteSize;
    body.expiresAt = iso(record.expiresAtMs!);
  }
  if (record.status === 'failed') body.errorCode = record.errorCode;
  return body;
}

/** Removes the marked file of an expired copy (once; its record stays readable). */
function discardExpiredCopy(record: ExportRecord): void {
  if (record.path) void rm(record.path, { force: true }).catch(() => undefined);
}

/** Draws the mark into the source after the preparation time; the record ends ready or failed. */
function prepare(state: SimulatorState, record: ExportRecord): void {
  const store = state.platform.exports;
  if (store.inFlight.has(record.exportId)) return;
  store.inFlight.add(record.exportId);
  const timer = setTimeout(
    () => {
      void (async () => {
        const target = path.join(
          state.dirs.outputs,
          `${record.exportId}${EXTENSION[record.mimeType] ?? '.bin'}`,
        );
        try {
          await drawExportMark(record.sourcePath, `${target}.part`, record.mimeType);
          await rename(`${target}.part`, target);
          const { byteSize } = await digestFile(target);
          store.save({
            ...record,
            status: 'ready',
            path: target,
            byteSize,
            expiresAtMs: state.clock.nowMs() + EXPORT_LIFETIME_SECONDS * 1000,
          });
        } catch {
          // the simulator may have been closed under the render; otherwise the source was not markable
          try {
            store.save({ ...record, status: 'failed', errorCode: 'export_preparation_failed' });
          } catch {
            // closed: nothing left to record
          }
        } finally {
          store.inFlight.delete(record.exportId);
          await rm(record.sourcePath, { force: true }).catch(() => undefined);
        }
      })();
    },
    EXPORT_PREPARE_SECONDS * state.timeScale * 1000,
  );
  timer.unref();
}

type ExportBody = z.infer<typeof ExportRequest>;

/** `POST /media/exports`: 202 while the marked copy is prepared, 200 when a ready copy of that content exists. */
async function createExport(pc: PlatformContext): Promise<void> {
  const session = sessionCaller(pc);
  const body: ExportBody = parseWith(ExportRequest, await readJsonObject(pc.req));
  const key = idempotencyKeyOf(pc, body.idempotencyKey);
  const { idempotencyKey: _k, ...business } = body;
  const hash = bodyHash(business);
  const store = pc.state.platform.exports;
  const { appKey } = pc.app;
  const { userId } = session.subject;
  const answer = (record: ExportRecord) => {
    if (record.status === 'preparing') prepare(pc.state, record);
    sendJson(
      pc.res,
      record.status === 'ready' ? 200 : 202,
      toExport(pc.state, record),
      record.status === 'preparing' ? { 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) } : {},
    );
  };
  const conflict = () =>
    new PlatformError(
      409,
      'idempotency_conflict',
      'This idempotency key was used with another export body.',
      {
        phase: 'idempotency',
      },
    );
  const create = async () => {
    if (key !== undefined) {
      const byKey = store.byKey(appKey, userId, key);
      if (byKey) {
        if (byKey.bodyHash !== hash) throw conflict();
        // a copy past its life, or one whose preparation failed, is not replayed (the spec answers
        // a creation 202 in preparation or 200 ready, never a failed fact): the same request under
        // its key makes a new copy
        if (byKey.status !== 'failed' && !isExpiredExport(byKey, pc.state.clock.nowMs())) {
          answer(byKey);
          return;
        }
      }
    }
    await createNewExport(pc, body, key, hash, answer);
  };
  // a keyed creation holds its key from its check to the stored record (the source is read in between)
  if (key === undefined) await create();
  else
    await keyReservations(pc.state.platform).hold(
      `export\u0000${appKey}\u0000${userId}\u0000${key}`,
      hash,
      conflict,
      create,
    );
}

async function createNewExport(
  pc: PlatformContext,
  body: ExportBody,
  key: string | undefined,
  hash: string,
  answer: (record: ExportRecord) => void,
): Promise<void> {
  const store = pc.state.platform.exports;
  const { appKey } = pc.app;
  const userId = sessionCaller(pc).subject.userId;
  const sourceKey = body.source.sha256 ? `sha256:${body.source.sha256}` : `ref:${body.source.appAssetRef}`;
  // the request is checked as any other before a copy of that content is reused: its readUrl's
  // address and expiry, and a copy is reused only for the same declared type
  checkReadUrlExpiry(body.source.expiresAt, pc.state.clock.nowMs(), 'source.expiresAt');
  const url = checkReadUrlAddress(body.source.readUrl, 'source.readUrl');
  const existing = store.reusable(appKey, userId, sourceKey, body.source.mimeType, pc.state.clock.nowMs());
  if (existing) {
    answer(existing);
    return;
  }
  const content = await fetchReadUrl(url, 'source.readUrl', pc.state.dirs.tmp);
  try {
    checkReadUrlFacts(content, body.source, 'source');
    if (content.mimeType !== body.source.mimeType)
      throw new PlatformError(
        422,
        'read_url_media_mismatch',
        `source.mimeType does not match the content read (${content.mimeType ?? 'unrecognised'}).`,
        {
          phase: 'input_validation',
          details: { field: 'source.mimeType' },
        },
      );
  } catch (error) {
    await rm(content.path, { force: true });
    throw error;
  }
  const exportId = newId('exp');
  const record: ExportRecord = {
    exportId,
    appKey,
    userId,
    status: 'preparing',
    sourceKey,
    mimeType: body.source.mimeType,
    filename: body.source.filename ?? `export${EXTENSION[body.source.mimeType]}`,
    idempotencyKey: key,
    bodyHash: hash,
    sourcePath: content.path,
    createdAtMs: pc.state.clock.nowMs(),
  };
  store.save(record);
  answer(record);
}

/** The person's export, or a uniform 404; an export still preparing after a restart is prepared again. */
function ownedExport(pc: PlatformContext): ExportRecord {
  const session = sessionCaller(pc);
  const record = pc.state.platform.exports.get(pc.params.exportId ?? '');
  if (!record || record.appKey !== pc.app.appKey || record.userId !== session.subject.userId)
    throw new PlatformError(404, 'export_not_found', 'No export with this id is available to this caller.');
  if (record.status === 'preparing') prepare(pc.state, record);
  return record;
}

async function readExport(pc: PlatformContext): Promise<void> {
  sendJson(pc.res, 200, toExport(pc.state, ownedExport(pc)));
}

/** `GET /media/exports/{id}/download`: the marked copy (200) or 409 `export_not_ready` with `Retry-After: 5`. */
async function downloadExport(pc: PlatformContext): Promise<void> {
  const record = ownedExport(pc);
  if (record.status === 'failed')
    throw new PlatformError(409, 'export_failed', 'The marked copy could not be prepared.', {
      details: { errorCode: record.errorCode },
    });
  if (isExpiredExport(record, pc.state.clock.nowMs())) {
    discardExpiredCopy(record);
    throw new PlatformError(
      404,
      'export_not_found',
      'The marked copy has expired and no longer exists; create the export again.',
      { details: { exportId: record.exportId, errorCode: 'export_expired' } },
    );
  }
  if (record.status !== 'ready')
    throw new PlatformError(409, 'export_not_ready', 'The marked copy is not ready yet.', {
      retryable: true,
      headers: { 'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS) },
    });
  const ascii = record.filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  pc.res.writeHead(200, {
    'Content-Type': record.mimeType,
    'Content-Length': String(record.byteSize),
    'Content-Disposition': `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(record.filename)}`,
    'X-Platform-Asset-Variant': 'marked_export',
    'Cache-Control': 'no-store',
  });
  await new Promise<void>((resolve, reject) => {
    createReadStream(record.path!)
      .on('error', reject)
      .pipe(pc.res)
      .on('finish', resolve)
      .on('close', resolve);
  });
}

const SESSION_DOC = {
  name: 'X-Platform-Runtime-Session-Id',
  required: true,
  description: "the person's RuntimeSession",
};
const COMMON = {
  401: errorDoc('Credential or session missing or invalid'),
  403: errorDoc('A recovery reference cannot authorize exports'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('Unavailable (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

export const exportRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/runtime/media/exports',
    surface: 'runtime_write',
    handler: createExport,
    doc: {
      operationId: 'createMarkedExport',
      summary: 'A platform-marked download copy of an application-owned asset (202 preparing, 200 ready)',
      tags: ['runtime'],
      headers: [
        SESSION_DOC,
        {
          name: 'Idempotency-Key',
          required: false,
          description: 'equal to body idempotencyKey when both are sent',
        },
      ],
      requestBody: { schema: ExportRequest, required: true },
      responses: {
        200: { description: 'A ready copy of this content exists', schema: MarkedExport },
        202: { description: 'In preparation', schema: MarkedExport, headers: ['Retry-After'] },
        400: errorDoc('Invalid body or refused source address'),
        402: errorDoc('Insufficient balance'),
        409: errorDoc('Idempotency conflict'),
        413: errorDoc('Body too large'),
        415: errorDoc('Not JSON'),
        422: errorDoc('Source unreadable or not matching sha256, byteSize or mimeType'),
        ...COMMON,
      },
    },
  },
  {
    method: 'GET',
    path: '/runtime/media/exports/{exportId}',
    surface: 'runtime_read',
    handler: readExport,
    doc: {
      operationId: 'getMarkedExport',
      summary: 'One export',
      tags: ['runtime'],
      headers: [SESSION_DOC],
      responses: {
        200: {
          description:
            'Export; a ready copy past its expiresAt reads as status failed with errorCode export_expired and no contentUrl',
          schema: MarkedExport,
        },
        400: errorDoc('Both session and recovery headers'),
        404: errorDoc('Unknown or not owned'),
        ...COMMON,
      },
    },
  },
  {
    method: 'GET',
    path: '/runtime/media/exports/{exportId}/download',
    surface: 'runtime_read',
    handler: downloadExport,
    doc: {
      operationId: 'downloadMarkedExport',
      summary: 'The marked copy (Content-Disposition, X-Platform-Asset-Variant: marked_export)',
      tags: ['runtime'],
      headers: [SESSION_DOC],
      responses: {
        200: {
          description: 'The marked bytes',
          contentType: 'application/octet-stream',
          headers: ['Content-Disposition', 'X-Platform-Asset-Variant'],
        },
        400: errorDoc('Both session and recovery headers'),
        404: errorDoc(
          'export_not_found: unknown, not owned, or a copy past its life (details.errorCode export_expired)',
        ),
        409: errorDoc('export_not_ready (Retry-After: 5) or export_failed'),
        ...COMMON,
      },
    },
  },
];
