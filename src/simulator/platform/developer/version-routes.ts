import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { discardFiles, receiveMultipart } from '../../assets/multipart.js';
import { canonicalJson, newId, sendJson } from '../../http.js';
import { bodyHash } from '../../idempotency.js';
import { PlatformError } from '../errors.js';
import { findApp } from '../fixtures.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import {
  developerCaller,
  ownedTarget,
  pageOf,
  paging,
  parseDeveloperJson,
  readDeveloperBody,
} from './developer-auth.js';
import { DEVELOPER_COMMON, developerRoute as route } from './developer-routes.js';
import {
  AuditResponse,
  ChangeResponse,
  CreateRequestBody,
  CreateVersionRequest,
  DeleteVersionResponse,
  NormalizedSubmission,
  PageQuery,
  PreviewLaunchRequest,
  PreviewLaunchResponse,
  SourceUploadResponse,
  SubmissionSchema,
  SubmitChangeBody,
  UpdateVersionRequest,
  ValidationProjection,
  VersionDetail,
  VersionList,
  VersionRequestList,
  VersionRequestSchema,
  VersionSchema,
  VersionSubmitResponse,
  VersionValidateResponse,
  type Submission,
} from './developer-schemas.js';
import {
  sha256Hex,
  submissionBytes,
  type ChangeProposal,
  type DevApp,
  type DeveloperStore,
  type DevVersion,
  type RequestKind,
  type SourceReceipt,
  type VersionRequest,
} from './developer-store.js';
import { checkSubmission, diffSubmissions } from './submissions.js';

/** A JSON object body checked by the platform's submission checks (not by the body reader). */
const AnyObject = z.record(z.string(), z.unknown());

/** Largest source file accepted by an upload. */
export const SOURCE_MAX_BYTES = 1024 * 1024;

const V = '/apps/{appId}/versions/{versionId}';
const C = `${V}/changes/{requestId}`;

// ---------- projections ----------

export function versionProjection(store: DeveloperStore, v: DevVersion) {
  const app = store.apps.get(v.appId)!;
  return {
    versionId: v.versionId,
    appId: v.appId,
    appKey: app.appKey,
    displayVersion: v.submission.displayVersion,
    releaseNotes: v.submission.releaseNotes,
    status: v.status,
    active: app.activeVersionId === v.versionId,
    editable: v.status === 'draft',
    artifact: v.artifactVerifiedAt
      ? { verified: true, verifiedAt: v.artifactVerifiedAt }
      : { verified: false },
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
}

const IN_FLIGHT: VersionRequest['status'][] = ['draft', 'pending', 'approved'];

function versionDetail(store: DeveloperStore, v: DevVersion) {
  const s = v.submission;
  const imageOf = (name: string) =>
    s.components.find((c) => c.name === name)?.imageAssetId ??
    v.images.find((i) => i.component === name)?.imageAssetId ??
    null;
  return {
    ...versionProjection(store, v),
    sourceReceipt: v.source,
    recognized: {
      entry: s.entry,
      components: s.components.map((c) => ({ name: c.name, imageAssetId: imageOf(c.name) })),
      resources: s.components.map((c) => ({ component: c.name, ...c.resources })),
      images: v.images,
      dependencies: s.dependencies,
      capabilities: s.capabilities,
    },
    currentRequests: store.requestsOf(v.versionId).filter((r) => IN_FLIGHT.includes(r.status)),
  };
}

function proposalProjection(p: ChangeProposal) {
  return {
    proposalId: p.proposalId,
    requestId: p.requestId,
    versionId: p.versionId,
    status: p.status,
    baseSha256: sha256Hex(submissionBytes(p.base)),
    workingSha256: sha256Hex(submissionBytes(p.workingCopy)),
    differences: p.differences,
    images: p.images,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

function audit(
  store: DeveloperStore,
  v: DevVersion,
  action: string,
  actor: string,
  details?: Record<string, unknown>,
) {
  return {
    ...v,
    updatedAt: store.now(),
    audit: [...v.audit, { at: store.now(), action, actor, ...(details ? { details } : {}) }],
  };
}

const receiptOf = (
  store: DeveloperStore,
  s: Submission,
  origin: SourceReceipt['origin'],
  fileName?: string,
): SourceReceipt => {
  const bytes = submissionBytes(s);
  return {
    sha256: sha256Hex(bytes),
    sizeBytes: bytes.length,
    receivedAt: store.now(),
    origin,
    ...(fileName ? { fileName } : {}),
  };
};

function invalidSubmission(check: ReturnType<typeof checkSubmission>): PlatformError {
  return new PlatformError(
    400,
    'SUBMISSION_INVALID',
    check.errors[0]?.message ?? 'The submission is invalid.',
    {
      details: { errors: check.errors },
    },
  );
}

function requireDraft(v: DevVersion): void {
  if (v.status !== 'draft')
    throw new PlatformError(
      409,
      'VERSION_NOT_EDITABLE',
      'Only a draft version is edited directly; a submitted or published version takes a same-version change proposal.',
      { details: { status: v.status } },
    );
}

/** Reads the one `file` part of a multipart body as text (and the other fields). */
async function readMultipartSource(
  pc: PlatformContext,
): Promise<{ fields: Record<string, string>; text: string; fileName: string; sha256: string }> {
  const { fields, files } = await receiveMultipart(pc.req, pc.state.dirs.tmp, SOURCE_MAX_BYTES);
  try {
    const file = files.find((f) => f.fieldName === 'file');
    if (!file || files.length !== 1)
      throw new PlatformError(400, 'INVALID_REQUEST', 'Send exactly one file part named "file".');
    return {
      fields,
      text: await readFile(file.tmpPath, 'utf8'),
      fileName: file.filename,
      sha256: file.sha256,
    };
  } finally {
    await discardFiles(files);
  }
}

/** A source file's submission, parsed and checked: not JSON, or invalid, is 400. */
function sourceSubmission(store: DeveloperStore, app: DevApp, text: string): Submission {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new PlatformError(400, 'SUBMISSION_INVALID', 'The source file is not JSON.');
  }
  const check = checkSubmission(store, app, raw);
  if (!check.normalized) throw invalidSubmission(check);
  return check.normalized;
}

// ---------- submissions and versions ----------

async function validateSubmission(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc);
  const raw = await readDeveloperBody(pc, AnyObject);
  const check = checkSubmission(pc.state.platform.developer, app, raw);
  sendJson(pc.res, 200, {
    valid: check.valid,
    errors: check.errors,
    warnings: check.warnings,
    ...(check.normalized
      ? { normalizedSubmission: check.normalized, sourceSha256: sha256Hex(submissionBytes(check.normalized)) }
      : {}),
  });
}

async function createVersion(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc, { developerOnly: 'submit versions' });
  const store = pc.state.platform.developer;
  const multipart = /^multipart\/form-data/i.test(pc.req.headers['content-type'] ?? '');
  let submissionRaw: unknown;
  let idempotencyKey: string;
  let file: { text: string; fileName: string; sha256: string } | undefined;
  if (multipart) {
    const received = await readMultipartSource(pc);
    const fields = parseDeveloperJson(
      JSON.stringify({
        submission: received.fields.submission,
        idempotencyKey: received.fields.idempotencyKey,
      }),
      CreateVersionRequest,
    );
    try {
      submissionRaw = JSON.parse(String(fields.submission));
    } catch {
      throw new PlatformError(400, 'INVALID_REQUEST', 'The submission field is not JSON.');
    }
    idempotencyKey = fields.idempotencyKey;
    file = received;
  } else {
    const body = await readDeveloperBody(pc, CreateVersionRequest);
    submissionRaw = body.submission;
    idempotencyKey = body.idempotencyKey;
  }
  const requestHash = bodyHash({ submission: submissionRaw, file: file?.sha256 ?? null });
  const existing = store.versionsOf(app.appId).find((v) => v.idempotencyKey === idempotencyKey);
  if (existing) {
    if (existing.requestHash !== requestHash)
      throw new PlatformError(
        409,
        'VERSION_IDEMPOTENCY_CONFLICT',
        'This idempotency key was used with another body.',
      );
    sendJson(pc.res, 200, versionProjection(store, existing));
    return;
  }
  const check = checkSubmission(store, app, submissionRaw);
  if (!check.normalized) throw invalidSubmission(check);
  if (file) {
    const fromFile = sourceSubmission(store, app, file.text);
    if (canonicalJson(fromFile) !== canonicalJson(check.normalized))
      throw new PlatformError(
        400,
        'SOURCE_SUBMISSION_MISMATCH',
        'The source file does not equal the normalized submission.',
        { details: { differences: diffSubmissions(check.normalized, fromFile).map((d) => d.path) } },
      );
  }
  const now = store.now();
  const version: DevVersion = {
    versionId: newId('appver'),
    appId: app.appId,
    status: 'draft',
    submission: check.normalized,
    source: receiptOf(store, check.normalized, file ? 'upload' : 'json', file?.fileName),
    images: [],
    artifactVerifiedAt: null,
    idempotencyKey,
    requestHash,
    createdAt: now,
    updatedAt: now,
    audit: [{ at: now, action: 'version.created', actor: 'developer' }],
  };
  store.saveVersion(version);
  sendJson(pc.res, 200, versionProjection(store, version));
}

async function listVersions(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc);
  const store = pc.state.platform.developer;
  const items = store
    .versionsOf(app.appId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.versionId.localeCompare(b.versionId))
    .map((v) => versionProjection(store, v));
  sendJson(pc.res, 200, pageOf(items, paging(pc)));
}

async function getVersion(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc);
  sendJson(pc.res, 200, versionDetail(pc.state.platform.developer, version!));
}

async function updateVersion(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'edit versions' });
  const body = await readDeveloperBody(pc, UpdateVersionRequest);
  requireDraft(version!);
  const store = pc.state.platform.developer;
  const submission = {
    ...version!.submission,
    ...(body.displayVersion !== undefined ? { displayVersion: body.displayVersion } : {}),
    ...(body.releaseNotes !== undefined ? { releaseNotes: body.releaseNotes } : {}),
  };
  const next = audit(
    store,
    { ...version!, submission, source: receiptOf(store, submission, 'json') },
    'version.updated',
    'developer',
    { fields: Object.keys(body) },
  );
  store.saveVersion(next);
  sendJson(pc.res, 200, versionProjection(store, next));
}

// ---------- requests ----------

function fileRequest(
  store: DeveloperStore,
  v: DevVersion,
  kind: RequestKind,
  reason: string | null,
  status: VersionRequest['status'] = 'pending',
): VersionRequest {
  if (store.requestsOf(v.versionId).some((r) => r.kind === kind && IN_FLIGHT.includes(r.status)))
    throw new PlatformError(
      409,
      'VERSION_REQUEST_IN_FLIGHT',
      `A ${kind} request of this version is already in flight.`,
    );
  const app = store.apps.get(v.appId)!;
  const active = app.activeVersionId === v.versionId;
  if (v.status === 'deleted') throw new PlatformError(409, 'VERSION_DELETED', 'This version is deleted.');
  if (kind === 'delete' && active)
    throw new PlatformError(
      409,
      'VERSION_ACTIVE',
      'An active version cannot be deleted; unpublish it first.',
    );
  if (kind === 'publish' && active)
    throw new PlatformError(409, 'VERSION_ALREADY_ACTIVE', 'This version is already active.');
  if (kind === 'unpublish' && !active)
    throw new PlatformError(409, 'VERSION_NOT_ACTIVE', 'Only the active version can be unpublished.');
  const now = store.now();
  const request: VersionRequest = {
    requestId: newId('vreq'),
    appId: v.appId,
    versionId: v.versionId,
    kind,
    reason,
    status,
    createdAt: now,
    updatedAt: now,
  };
  store.saveRequest(request);
  store.saveVersion(audit(store, v, `request.${kind}.filed`, 'developer', { requestId: request.requestId }));
  return request;
}

async function deleteVersion(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'delete versions' });
  const store = pc.state.platform.developer;
  const inFlight = store
    .requestsOf(version!.versionId)
    .find((r) => r.kind === 'delete' && IN_FLIGHT.includes(r.status));
  const request = inFlight ?? fileRequest(store, version!, 'delete', null);
  sendJson(pc.res, 200, {
    versionId: version!.versionId,
    status: store.versions.get(version!.versionId)!.status,
    request,
  });
}

async function createRequest(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'publish, unpublish or delete versions' });
  const body = await readDeveloperBody(pc, CreateRequestBody);
  sendJson(pc.res, 200, fileRequest(pc.state.platform.developer, version!, body.kind, body.reason ?? null));
}

async function listRequests(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc);
  const items = pc.state.platform.developer
    .requestsOf(version!.versionId)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  sendJson(pc.res, 200, { items, total: items.length });
}

function ownedRequest(pc: PlatformContext, v: DevVersion): VersionRequest {
  const r = pc.state.platform.developer.requests.get(pc.params.requestId ?? '');
  if (!r || r.versionId !== v.versionId)
    throw new PlatformError(
      404,
      'VERSION_REQUEST_NOT_FOUND',
      'No request with this id exists for this version.',
    );
  return r;
}

async function cancelRequest(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'withdraw requests' });
  const request = ownedRequest(pc, version!);
  const store = pc.state.platform.developer;
  if (request.status !== 'pending' && request.status !== 'draft')
    throw new PlatformError(
      409,
      'VERSION_REQUEST_NOT_CANCELABLE',
      `A ${request.status} request cannot be withdrawn.`,
    );
  const next = { ...request, status: 'canceled' as const, updatedAt: store.now() };
  store.saveRequest(next);
  const proposal = store.proposals.get(request.requestId);
  if (proposal) store.saveProposal({ ...proposal, status: 'canceled', updatedAt: store.now() });
  sendJson(pc.res, 200, next);
}

// ---------- same-version changes ----------

async function createChange(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'propose changes' });
  const store = pc.state.platform.developer;
  if (version!.status === 'draft')
    throw new PlatformError(
      409,
      'VERSION_IS_DRAFT',
      'A draft version is edited directly, not through a change proposal.',
    );
  const request = fileRequest(store, version!, 'change', null, 'draft');
  const now = store.now();
  const proposal: ChangeProposal = {
    proposalId: newId('vchg'),
    requestId: request.requestId,
    appId: version!.appId,
    versionId: version!.versionId,
    status: 'editing',
    base: version!.submission,
    workingCopy: version!.submission,
    differences: [],
    images: [],
    createdAt: now,
    updatedAt: now,
  };
  store.saveProposal(proposal);
  sendJson(pc.res, 200, { request, proposal: proposalProjection(proposal) });
}

function ownedChange(
  pc: PlatformContext,
  v: DevVersion,
): { request: VersionRequest; proposal: ChangeProposal } {
  const request = ownedRequest(pc, v);
  const proposal = pc.state.platform.developer.proposals.get(request.requestId);
  if (request.kind !== 'change' || !proposal)
    throw new PlatformError(
      404,
      'VERSION_REQUEST_NOT_FOUND',
      'No change proposal with this id exists for this version.',
    );
  return { request, proposal };
}

export { ownedChange };

async function uploadChangeSource(pc: PlatformContext): Promise<void> {
  const { app, version } = ownedTarget(pc, { developerOnly: 'edit change proposals' });
  const { request, proposal } = ownedChange(pc, version!);
  const { text } = await readMultipartSource(pc);
  if (proposal.status !== 'editing')
    throw new PlatformError(
      409,
      'CHANGE_PROPOSAL_NOT_EDITABLE',
      `A ${proposal.status} proposal is not edited.`,
    );
  const store = pc.state.platform.developer;
  const workingCopy = sourceSubmission(store, app, text);
  const next: ChangeProposal = {
    ...proposal,
    workingCopy,
    differences: diffSubmissions(proposal.base, workingCopy),
    updatedAt: store.now(),
  };
  store.saveProposal(next);
  sendJson(pc.res, 200, { request, proposal: proposalProjection(next) });
}

async function submitChange(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'submit change proposals' });
  const { request, proposal } = ownedChange(pc, version!);
  const body = await readDeveloperBody(pc, SubmitChangeBody, { emptyAllowed: true });
  if (proposal.status !== 'editing')
    throw new PlatformError(
      409,
      'CHANGE_PROPOSAL_NOT_EDITABLE',
      `A ${proposal.status} proposal cannot be submitted.`,
    );
  if (proposal.differences.length === 0 && proposal.images.length === 0)
    throw new PlatformError(
      409,
      'CHANGE_PROPOSAL_NO_DIFFERENCE',
      'The proposal does not differ from the live version.',
    );
  const store = pc.state.platform.developer;
  const now = store.now();
  const nextRequest = {
    ...request,
    status: 'pending' as const,
    reason: body.reason ?? request.reason,
    updatedAt: now,
  };
  const nextProposal = { ...proposal, status: 'submitted' as const, updatedAt: now };
  store.saveRequest(nextRequest);
  store.saveProposal(nextProposal);
  sendJson(pc.res, 200, { request: nextRequest, proposal: proposalProjection(nextProposal) });
}

// ---------- sources ----------

async function putSource(pc: PlatformContext): Promise<void> {
  const { app, version } = ownedTarget(pc, { developerOnly: 'submit version sources' });
  const store = pc.state.platform.developer;
  const raw = await readDeveloperBody(pc, AnyObject);
  requireDraft(version!);
  const check = checkSubmission(store, app, raw);
  if (!check.normalized) throw invalidSubmission(check);
  const receipt = receiptOf(store, check.normalized, 'json');
  const next = audit(
    store,
    { ...version!, submission: check.normalized, source: receipt },
    'source.put',
    'developer',
  );
  store.saveVersion(next);
  sendJson(pc.res, 200, { receipt, version: versionProjection(store, next) });
}

async function uploadSource(pc: PlatformContext): Promise<void> {
  const { app, version } = ownedTarget(pc, { developerOnly: 'submit version sources' });
  const store = pc.state.platform.developer;
  const { text, fileName } = await readMultipartSource(pc);
  requireDraft(version!);
  const submission = sourceSubmission(store, app, text);
  const receipt = receiptOf(store, submission, 'upload', fileName);
  const next = audit(store, { ...version!, submission, source: receipt }, 'source.uploaded', 'developer');
  store.saveVersion(next);
  sendJson(pc.res, 200, { receipt, version: versionProjection(store, next) });
}

function sendSource(
  pc: PlatformContext,
  s: Submission,
  name: string,
  disposition: 'inline' | 'attachment',
): void {
  const bytes = submissionBytes(s);
  pc.res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(bytes.length),
    'Content-Disposition': `${disposition}; filename="${name}.json"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  pc.res.end(bytes);
}

const sourceHandler =
  (disposition: 'inline' | 'attachment', change: boolean) => async (pc: PlatformContext) => {
    const { app, version } = ownedTarget(pc);
    const s = change ? ownedChange(pc, version!).proposal.workingCopy : version!.submission;
    sendSource(pc, s, `${app.appKey}-${s.displayVersion}${change ? '-change' : ''}`, disposition);
  };

// ---------- audit, validate, submit, preview launch ----------

async function getAudit(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc);
  sendJson(pc.res, 200, { versionId: version!.versionId, items: version!.audit });
}

async function validateVersion(pc: PlatformContext): Promise<void> {
  const { app, version } = ownedTarget(pc);
  const store = pc.state.platform.developer;
  const v = version!;
  const check = checkSubmission(store, app, v.submission);
  const imageOf = (name: string) =>
    v.submission.components.find((c) => c.name === name)?.imageAssetId ??
    v.images.find((i) => i.component === name)?.imageAssetId;
  const checks = [
    { code: 'SOURCE_PRESENT', passed: v.source !== null, message: 'A source file is stored.' },
    {
      code: 'SUBMISSION_VALID',
      passed: check.valid,
      message: check.valid ? 'The submission is valid.' : (check.errors[0]?.message ?? 'Invalid.'),
    },
    ...v.submission.components.map((c) => ({
      code: 'COMPONENT_IMAGE_IMPORTED',
      passed: Boolean(imageOf(c.name)),
      message: `Component ${c.name} ${imageOf(c.name) ? 'has an imported image' : 'has no imported image (import one bound to this version)'}.`,
    })),
  ];
  const passed = checks.every((c) => c.passed);
  let next = audit(store, v, 'version.validated', developerCaller(pc).kind, { passed });
  if (passed && !v.artifactVerifiedAt) next = { ...next, artifactVerifiedAt: store.now() };
  store.saveVersion(next);
  sendJson(pc.res, 200, {
    versionId: v.versionId,
    passed,
    checks,
    artifact: versionProjection(store, next).artifact,
  });
}

async function submitVersion(pc: PlatformContext): Promise<void> {
  const { version } = ownedTarget(pc, { developerOnly: 'submit versions for review' });
  await readDeveloperBody(pc, SubmitChangeBody, { emptyAllowed: true });
  requireDraft(version!);
  const store = pc.state.platform.developer;
  const submittedAt = store.now();
  store.saveVersion(
    audit(store, { ...version!, status: 'submitted', submittedAt }, 'version.submitted', 'developer'),
  );
  sendJson(pc.res, 200, { versionId: version!.versionId, status: 'submitted', submittedAt });
}

/** Preview launch: a short-lived launch code of an own version, opened as the organization manager fixture person. */
async function previewLaunch(pc: PlatformContext): Promise<void> {
  const { app } = ownedTarget(pc, { developerOnly: 'open production sessions' });
  const body = await readDeveloperBody(pc, PreviewLaunchRequest, { emptyAllowed: true });
  const store = pc.state.platform.developer;
  const versionId = body.versionId ?? app.activeVersionId;
  const version = versionId ? store.versions.get(versionId) : undefined;
  if (!version || version.appId !== app.appId || version.status === 'deleted')
    throw new PlatformError(
      404,
      'VERSION_NOT_FOUND',
      'No launchable version with this id exists in this application.',
    );
  const fixture = findApp(app.appKey);
  if (!fixture)
    throw new PlatformError(
      409,
      'APP_NOT_DEPLOYED',
      'This application has no backend in the simulator to launch.',
    );
  const code = pc.state.platform.sessions.issueLaunchCode(fixture, 'manager', 60, version.versionId);
  sendJson(pc.res, 200, {
    runtime: {
      launchCode: code.launchCode,
      appKey: code.appKey,
      appVersionId: code.appVersionId,
      expiresAt: new Date(code.expiresAtMs).toISOString(),
    },
  });
}

// ---------- routes ----------

const CONFLICT = (codes: string) => errorDoc(codes);
const tags = ['developer', 'versions'];

export const versionRoutes: PlatformRoute[] = [
  route('POST', '/apps/{appId}/submissions:validate', validateSubmission, {
    operationId: 'validateSubmission',
    summary: 'Check a JSON submission; creates nothing',
    tags,
    requestBody: { schema: SubmissionSchema, required: true },
    responses: {
      200: { description: 'Validation projection', schema: ValidationProjection },
      ...DEVELOPER_COMMON,
    },
  }),
  route('POST', '/apps/{appId}/versions', createVersion, {
    operationId: 'createVersion',
    summary:
      'Create a version from {submission, idempotencyKey} or multipart (submission, idempotencyKey, file: the source, equal to the normalized submission)',
    tags,
    requestBody: { schema: CreateVersionRequest, required: true },
    responses: {
      200: { description: 'The new (or, same key and body, the same) version', schema: VersionSchema },
      409: CONFLICT('VERSION_IDEMPOTENCY_CONFLICT: same key, other body'),
      ...DEVELOPER_COMMON,
      400: errorDoc('SUBMISSION_INVALID, SOURCE_SUBMISSION_MISMATCH or INVALID_REQUEST'),
      413: errorDoc('payload_too_large'),
      415: errorDoc('unsupported_media_type'),
    },
  }),
  route('GET', '/apps/{appId}/versions', listVersions, {
    operationId: 'listVersions',
    summary: "The application's versions",
    tags,
    query: PageQuery,
    responses: { 200: { description: 'Versions', schema: VersionList }, ...DEVELOPER_COMMON },
  }),
  route('GET', V, getVersion, {
    operationId: 'getVersion',
    summary: 'Version detail: source receipt, recognized entry/components/resources/images, current requests',
    tags,
    responses: { 200: { description: 'Version detail', schema: VersionDetail }, ...DEVELOPER_COMMON },
  }),
  route('PUT', V, updateVersion, {
    operationId: 'updateVersion',
    summary: 'Edit the public fields of a draft',
    tags,
    requestBody: { schema: UpdateVersionRequest, required: true },
    responses: {
      200: { description: 'Version', schema: VersionSchema },
      409: CONFLICT('VERSION_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('DELETE', V, deleteVersion, {
    operationId: 'deleteVersion',
    summary: 'File (or answer the in-flight) delete request: a lifecycle action, not removal of data',
    tags,
    responses: {
      200: { description: 'Deletion request and version status', schema: DeleteVersionResponse },
      409: CONFLICT('VERSION_ACTIVE, VERSION_DELETED'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('PUT', `${V}/source`, putSource, {
    operationId: 'putVersionSource',
    summary: 'Replace the source of a draft with the original submission JSON',
    tags,
    requestBody: { schema: SubmissionSchema, required: true },
    responses: {
      200: { description: 'Receipt and version', schema: SourceUploadResponse },
      409: CONFLICT('VERSION_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
      400: errorDoc('SUBMISSION_INVALID or INVALID_REQUEST'),
    },
  }),
  route('POST', `${V}/source/upload`, uploadSource, {
    operationId: 'uploadVersionSource',
    summary: 'Upload the complete source file of a draft (multipart, part "file")',
    tags,
    responses: {
      200: { description: 'Receipt and version', schema: SourceUploadResponse },
      409: CONFLICT('VERSION_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
      400: errorDoc('SUBMISSION_INVALID or INVALID_REQUEST'),
      413: errorDoc('payload_too_large'),
      415: errorDoc('unsupported_media_type'),
    },
  }),
  route('GET', `${V}/source/content`, sourceHandler('inline', false), {
    operationId: 'getVersionSourceContent',
    summary: 'The stored source, inline raw JSON (authenticated only)',
    tags,
    responses: { 200: { description: 'Source JSON', schema: NormalizedSubmission }, ...DEVELOPER_COMMON },
  }),
  route('GET', `${V}/source/download`, sourceHandler('attachment', false), {
    operationId: 'downloadVersionSource',
    summary: 'The stored source as an attachment (authenticated only)',
    tags,
    responses: {
      200: { description: 'Source JSON attachment', schema: NormalizedSubmission },
      ...DEVELOPER_COMMON,
    },
  }),
  route('POST', `${V}/requests`, createRequest, {
    operationId: 'createVersionRequest',
    summary: 'File a delete, publish or unpublish request (one in flight per version and kind)',
    tags,
    requestBody: { schema: CreateRequestBody, required: true },
    responses: {
      200: { description: 'Version request', schema: VersionRequestSchema },
      409: CONFLICT(
        'VERSION_REQUEST_IN_FLIGHT, VERSION_ACTIVE, VERSION_ALREADY_ACTIVE, VERSION_NOT_ACTIVE, VERSION_DELETED',
      ),
      ...DEVELOPER_COMMON,
    },
  }),
  route('GET', `${V}/requests`, listRequests, {
    operationId: 'listVersionRequests',
    summary: "The version's requests",
    tags,
    responses: { 200: { description: 'Requests', schema: VersionRequestList }, ...DEVELOPER_COMMON },
  }),
  route('POST', `${V}/requests/{requestId}/cancel`, cancelRequest, {
    operationId: 'cancelVersionRequest',
    summary: 'Withdraw a pending request',
    tags,
    responses: {
      200: { description: 'Canceled request', schema: VersionRequestSchema },
      409: CONFLICT('VERSION_REQUEST_NOT_CANCELABLE'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('POST', `${V}/changes`, createChange, {
    operationId: 'createVersionChange',
    summary: 'Open a same-version change proposal of a submitted or published version',
    tags,
    responses: {
      200: { description: 'Request and proposal', schema: ChangeResponse },
      409: CONFLICT('VERSION_IS_DRAFT, VERSION_REQUEST_IN_FLIGHT, VERSION_DELETED'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('POST', `${C}/source/upload`, uploadChangeSource, {
    operationId: 'uploadVersionChangeSource',
    summary: 'Upload the full submission of the proposal (multipart, part "file"): the parsed differences',
    tags,
    responses: {
      200: { description: 'Request and proposal with differences', schema: ChangeResponse },
      409: CONFLICT('CHANGE_PROPOSAL_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
      400: errorDoc('SUBMISSION_INVALID or INVALID_REQUEST'),
      413: errorDoc('payload_too_large'),
      415: errorDoc('unsupported_media_type'),
    },
  }),
  route('GET', `${C}/source/content`, sourceHandler('inline', true), {
    operationId: 'getVersionChangeSourceContent',
    summary: "The proposal's working copy, inline",
    tags,
    responses: { 200: { description: 'Working copy', schema: NormalizedSubmission }, ...DEVELOPER_COMMON },
  }),
  route('GET', `${C}/source/download`, sourceHandler('attachment', true), {
    operationId: 'downloadVersionChangeSource',
    summary: "The proposal's working copy, as an attachment",
    tags,
    responses: { 200: { description: 'Working copy', schema: NormalizedSubmission }, ...DEVELOPER_COMMON },
  }),
  route('POST', `${C}/submit`, submitChange, {
    operationId: 'submitVersionChange',
    summary: 'Submit the proposal for review (needs an actual difference)',
    tags,
    requestBody: { schema: SubmitChangeBody, required: false },
    responses: {
      200: { description: 'Request and proposal', schema: ChangeResponse },
      409: CONFLICT('CHANGE_PROPOSAL_NO_DIFFERENCE, CHANGE_PROPOSAL_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('GET', `${V}/audit`, getAudit, {
    operationId: 'getVersionAudit',
    summary: "The version's audit trail (body chosen by the simulator)",
    tags,
    responses: { 200: { description: 'Audit', schema: AuditResponse }, ...DEVELOPER_COMMON },
  }),
  route('POST', `${V}/validate`, validateVersion, {
    operationId: 'validateVersion',
    summary: 'Run the platform checks; a pass verifies the artifact (body chosen by the simulator)',
    tags,
    responses: { 200: { description: 'Checks', schema: VersionValidateResponse }, ...DEVELOPER_COMMON },
  }),
  route('POST', `${V}/submit`, submitVersion, {
    operationId: 'submitVersion',
    summary: 'Submit a draft for listing review (body chosen by the simulator)',
    tags,
    responses: {
      200: { description: 'Submitted', schema: VersionSubmitResponse },
      409: CONFLICT('VERSION_NOT_EDITABLE'),
      ...DEVELOPER_COMMON,
    },
  }),
  route('POST', '/apps/{appId}/launch', previewLaunch, {
    operationId: 'previewLaunch',
    summary:
      'A short-lived preview launch code of an own version (body chosen by the simulator: {versionId?})',
    tags,
    requestBody: { schema: PreviewLaunchRequest, required: false },
    responses: {
      200: { description: 'Launch information', schema: PreviewLaunchResponse },
      409: CONFLICT('APP_NOT_DEPLOYED'),
      ...DEVELOPER_COMMON,
    },
  }),
];
