import { sendJson } from '../../http.js';
import { PlatformError } from '../errors.js';
import type { PlatformContext, PlatformRoute } from '../router.js';
import { errorDoc } from '../schemas.js';
import { readDeveloperBody } from './developer-auth.js';
import {
  ReviewRequest,
  ReviewResponse,
  SdkIndexConfigRequest,
  SdkIndexConfigResponse,
} from './developer-schemas.js';
import { sha256Hex, submissionBytes, type DeveloperStore, type VersionRequest } from './developer-store.js';
import type { Submission } from './developer-schemas.js';

const receiptOf = (s: Submission) => {
  const bytes = submissionBytes(s);
  return { sha256: sha256Hex(bytes), sizeBytes: bytes.length, origin: 'upload' as const };
};
import { versionProjection } from './version-routes.js';

/** Simulator-only routes need the simulator's token (the fixed local test token or a `--token`). */
function requireSimulatorToken(pc: PlatformContext): void {
  if (!pc.state.identities.resolve(pc.req.headers.authorization))
    throw new PlatformError(
      401,
      'UNAUTHENTICATED',
      "The simulator's token is required (Authorization: Bearer).",
      {
        headers: { 'WWW-Authenticate': 'Bearer' },
      },
    );
}

/**
 * The controlled apply of an approved request: publish makes the version active (the previous
 * active one inactive), unpublish leaves no active version, delete marks the version deleted
 * (its data stays), a change replaces the same version's snapshot atomically.
 */
export function applyRequest(store: DeveloperStore, request: VersionRequest): VersionRequest {
  const version = store.versions.get(request.versionId)!;
  const app = store.apps.get(request.appId)!;
  const now = store.now();
  const log = (action: string) => [
    ...version.audit,
    { at: now, action, actor: 'reviewer', details: { requestId: request.requestId } },
  ];
  if (request.kind === 'publish') {
    const previous = app.activeVersionId ? store.versions.get(app.activeVersionId) : undefined;
    if (previous && previous.versionId !== version.versionId)
      store.saveVersion({
        ...previous,
        status: 'inactive',
        updatedAt: now,
        audit: [...previous.audit, { at: now, action: 'version.superseded', actor: 'reviewer' }],
      });
    store.saveVersion({
      ...version,
      status: 'active',
      artifactVerifiedAt: version.artifactVerifiedAt ?? now,
      updatedAt: now,
      audit: log('request.publish.applied'),
    });
    store.saveApp({ ...app, activeVersionId: version.versionId, updatedAt: now });
  } else if (request.kind === 'unpublish') {
    store.saveVersion({
      ...version,
      status: 'inactive',
      updatedAt: now,
      audit: log('request.unpublish.applied'),
    });
    store.saveApp({ ...app, activeVersionId: null, updatedAt: now });
  } else if (request.kind === 'delete') {
    store.saveVersion({
      ...version,
      status: 'deleted',
      updatedAt: now,
      audit: log('request.delete.applied'),
    });
  } else {
    const proposal = store.proposals.get(request.requestId)!;
    const images = [
      ...version.images.filter((i) => !proposal.images.some((p) => p.component === i.component)),
      ...proposal.images,
    ];
    store.saveVersion({
      ...version,
      submission: proposal.workingCopy,
      images,
      source: { ...receiptOf(proposal.workingCopy), receivedAt: now },
      updatedAt: now,
      audit: log('request.change.applied'),
    });
    store.saveProposal({ ...proposal, status: 'applied', updatedAt: now });
  }
  const applied: VersionRequest = { ...request, status: 'applied', appliedAt: now, updatedAt: now };
  store.saveRequest(applied);
  return applied;
}

/** `POST /platform/_simulator/review`: a reviewer approves (applied only by a later `apply`, or `apply: true`), rejects, or applies. */
async function reviewDecision(pc: PlatformContext): Promise<void> {
  requireSimulatorToken(pc);
  const body = await readDeveloperBody(pc, ReviewRequest);
  const store = pc.state.platform.developer;
  let request = store.requests.get(body.requestId);
  if (!request) throw new PlatformError(404, 'VERSION_REQUEST_NOT_FOUND', 'No version request with this id.');
  const stateChanged = () =>
    new PlatformError(
      409,
      'VERSION_REQUEST_STATE_CHANGED',
      `The request is ${request!.status}; this decision does not apply.`,
    );
  const now = store.now();
  const proposal = store.proposals.get(request.requestId);
  if (body.decision === 'apply') {
    if (request.status !== 'approved') throw stateChanged();
    request = applyRequest(store, request);
  } else {
    if (request.status !== 'pending') throw stateChanged();
    const approved = body.decision === 'approve';
    request = { ...request, status: approved ? 'approved' : 'rejected', decidedAt: now, updatedAt: now };
    store.saveRequest(request);
    if (proposal)
      store.saveProposal({ ...proposal, status: approved ? 'approved' : 'rejected', updatedAt: now });
    if (approved && body.apply === true) request = applyRequest(store, request);
  }
  sendJson(pc.res, 200, {
    request,
    version: versionProjection(store, store.versions.get(request.versionId)!),
  });
}

/** `POST /platform/_simulator/sdk-index`: configure the private package index (unconfigured: 503). */
async function configureSdkIndex(pc: PlatformContext): Promise<void> {
  requireSimulatorToken(pc);
  const body = await readDeveloperBody(pc, SdkIndexConfigRequest);
  const store = pc.state.platform.developer;
  store.saveSdkIndex({ ...store.sdkIndex, ...body });
  sendJson(pc.res, 200, store.sdkIndex);
}

const COMMON = {
  400: errorDoc('INVALID_REQUEST'),
  401: errorDoc("UNAUTHENTICATED: the simulator's token is required"),
};

export const inspectionRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/_simulator/review',
    surface: 'developer',
    auth: 'route',
    handler: reviewDecision,
    doc: {
      operationId: 'simulatorReviewDecision',
      summary:
        "Simulator only (simulator's token): a reviewer's decision on a version request. approve applies it at once unless apply:false; apply applies an approved one later",
      tags: ['simulator'],
      requestBody: { schema: ReviewRequest, required: true },
      responses: {
        200: { description: 'The request and its version', schema: ReviewResponse },
        404: errorDoc('VERSION_REQUEST_NOT_FOUND'),
        409: errorDoc('VERSION_REQUEST_STATE_CHANGED'),
        ...COMMON,
      },
    },
  },
  {
    method: 'POST',
    path: '/_simulator/sdk-index',
    surface: 'developer',
    auth: 'route',
    handler: configureSdkIndex,
    doc: {
      operationId: 'simulatorConfigureSdkIndex',
      summary:
        "Simulator only (simulator's token): configure the private package index (configured, released)",
      tags: ['simulator'],
      requestBody: { schema: SdkIndexConfigRequest, required: true },
      responses: {
        200: { description: 'The index configuration', schema: SdkIndexConfigResponse },
        ...COMMON,
      },
    },
  },
];
