import { describe, expect, it } from 'vitest';
import type { Json } from '../client.js';
import {
  dev,
  devMultipart,
  OTHER_APP_ID,
  pairCli,
  review,
  STUDIO_ACTIVE_VERSION,
  STUDIO_APP_ID,
  STUDIO_DRAFT_VERSION,
  studioSubmission,
} from './developer-client.js';
import { expectPlatformError, runtimeCall, type PlatformClient } from './platform-client.js';
import { digest } from './debug-client.js';
import { usePlatformWorld } from './platform-fixture.js';

let client: PlatformClient;

usePlatformWorld({}, (world) => {
  ({ client } = world);
});

const A = `/apps/${STUDIO_APP_ID}`;
const versionCount = async () =>
  (await dev(client, 'GET', `${A}/versions?pageSize=100`)).data.total as number;
const createVersion = (submission: unknown, idempotencyKey: string, credential?: string) =>
  dev(client, 'POST', `${A}/versions`, { json: { submission, idempotencyKey }, credential });

describe('developer control plane: versions, sources, requests, change proposals', () => {
  it('validates a submission without creating a version, and never lets it self-certify artifact.verified', async () => {
    const before = await versionCount();
    const ok = await dev(client, 'POST', `${A}/submissions:validate`, {
      json: studioSubmission('2.0.0', { artifact: { verified: true } }),
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.data.valid).toBe(true);
    expect(ok.data.warnings.map((w: Json) => w.code)).toContain('ARTIFACT_VERIFIED_IGNORED');
    expect(ok.data.normalizedSubmission.artifact).toBeUndefined();
    const bad = await dev(client, 'POST', `${A}/submissions:validate`, {
      json: studioSubmission('two', { appKey: 'storyboard-helper' }),
    });
    expect(bad.status).toBe(200);
    expect(bad.data.valid).toBe(false);
    expect(await versionCount()).toBe(before);
  });

  it('creates a version once per key: same key and body reuses, same key other body 409, invalid 400', async () => {
    const submission = studioSubmission('2.0.0', { artifact: { verified: true } });
    const first = await createVersion(submission, 'v2-create');
    expect(first.status, first.text).toBe(200);
    expect(first.data).toMatchObject({ status: 'draft', displayVersion: '2.0.0', editable: true });
    expect(first.data.artifact.verified).toBe(false);
    const again = await createVersion(submission, 'v2-create');
    expect(again.status).toBe(200);
    expect(again.data.versionId).toBe(first.data.versionId);
    expectPlatformError(
      await createVersion(studioSubmission('2.0.1'), 'v2-create'),
      409,
      'VERSION_IDEMPOTENCY_CONFLICT',
    );
    expectPlatformError(
      await createVersion({ appKey: 'framewright-studio' }, 'v2-bad'),
      400,
      'SUBMISSION_INVALID',
    );
    expectPlatformError(
      await createVersion(studioSubmission('2.0.2', { appKey: 'storyboard-helper' }), 'v2-bad2'),
      400,
      'SUBMISSION_INVALID',
    );
  });

  it('accepts a multipart version only when the source file equals the normalized submission', async () => {
    const submission = studioSubmission('3.0.0');
    // the same content, other key order and defaults filled in: equal once normalized
    const normalized = (await dev(client, 'POST', `${A}/submissions:validate`, { json: submission })).data
      .normalizedSubmission;
    const same = await devMultipart(
      client,
      'POST',
      `${A}/versions`,
      { submission: JSON.stringify(submission), idempotencyKey: 'v3-multi' },
      { text: JSON.stringify(normalized) },
    );
    expect(same.status, same.text).toBe(200);
    const detail = await dev(client, 'GET', `${A}/versions/${same.data.versionId}`);
    expect(detail.data.sourceReceipt).toMatchObject({ origin: 'upload', fileName: 'source.json' });
    const other = await devMultipart(
      client,
      'POST',
      `${A}/versions`,
      { submission: JSON.stringify(submission), idempotencyKey: 'v3-multi-2' },
      { text: JSON.stringify(studioSubmission('3.0.1')) },
    );
    expectPlatformError(other, 400, 'SOURCE_SUBMISSION_MISMATCH');
  });

  it('edits only drafts; serves the source to authenticated callers only', async () => {
    const put = await dev(client, 'PUT', `${A}/versions/${STUDIO_DRAFT_VERSION}`, {
      json: { releaseNotes: 'Faster exports' },
    });
    expect(put.status, put.text).toBe(200);
    expectPlatformError(
      await dev(client, 'PUT', `${A}/versions/${STUDIO_ACTIVE_VERSION}`, { json: { releaseNotes: 'x' } }),
      409,
      'VERSION_NOT_EDITABLE',
    );
    const source = studioSubmission('1.1.0', { releaseNotes: 'From source' });
    const putSource = await dev(client, 'PUT', `${A}/versions/${STUDIO_DRAFT_VERSION}/source`, {
      json: source,
    });
    expect(putSource.status, putSource.text).toBe(200);
    const content = await dev(client, 'GET', `${A}/versions/${STUDIO_DRAFT_VERSION}/source/content`);
    expect(content.status).toBe(200);
    expect(content.data.releaseNotes).toBe('From source');
    expect(content.headers.get('content-disposition')).toMatch(/^inline/);
    const download = await dev(client, 'GET', `${A}/versions/${STUDIO_DRAFT_VERSION}/source/download`);
    expect(download.headers.get('content-disposition')).toMatch(
      /^attachment; filename="framewright-studio-1.1.0.json"/,
    );
    expect(download.text).toBe(content.text);
    for (const suffix of ['content', 'download'])
      expectPlatformError(
        await dev(client, 'GET', `${A}/versions/${STUDIO_DRAFT_VERSION}/source/${suffix}`, {
          credential: null,
        }),
        401,
        'DEVELOPER_UNAUTHENTICATED',
      );
    const upload = await devMultipart(
      client,
      'POST',
      `${A}/versions/${STUDIO_DRAFT_VERSION}/source/upload`,
      {},
      { text: JSON.stringify(studioSubmission('1.1.1')), name: 'app.json' },
    );
    expect(upload.status, upload.text).toBe(200);
    expect(upload.data.version.displayVersion).toBe('1.1.1');
    expect(upload.data.receipt).toMatchObject({ origin: 'upload', fileName: 'app.json' });
  });

  it('checks ownership first: versions of another application or publisher are 404', async () => {
    expectPlatformError(await dev(client, 'GET', `/apps/${OTHER_APP_ID}/versions`), 404, 'APP_NOT_FOUND');
    expectPlatformError(
      await dev(client, 'GET', `/apps/${OTHER_APP_ID}/versions/appver_sim_other_publisher_app_1`),
      404,
      'APP_NOT_FOUND',
    );
    expectPlatformError(
      await dev(client, 'POST', `/apps/${OTHER_APP_ID}/submissions:validate`, { json: {} }),
      404,
      'APP_NOT_FOUND',
    );
    expectPlatformError(
      await dev(client, 'GET', `${A}/versions/appver_sim_storyboard_helper_1`),
      404,
      'VERSION_NOT_FOUND',
    );
    expectPlatformError(
      await dev(client, 'DELETE', `${A}/versions/appver_sim_other_publisher_app_2`),
      404,
      'VERSION_NOT_FOUND',
    );
  });

  it('deletes by lifecycle request: active refused, one in flight per version and kind, cancel', async () => {
    expectPlatformError(
      await dev(client, 'DELETE', `${A}/versions/${STUDIO_ACTIVE_VERSION}`),
      409,
      'VERSION_ACTIVE',
    );
    const created = await createVersion(studioSubmission('4.0.0'), 'v4');
    const v = `${A}/versions/${created.data.versionId}`;
    const del = await dev(client, 'DELETE', v);
    expect(del.status, del.text).toBe(200);
    expect(del.data).toMatchObject({ status: 'draft', request: { kind: 'delete', status: 'pending' } });
    expect((await dev(client, 'DELETE', v)).data.request.requestId).toBe(del.data.request.requestId);
    expectPlatformError(
      await dev(client, 'POST', `${v}/requests`, { json: { kind: 'delete' } }),
      409,
      'VERSION_REQUEST_IN_FLIGHT',
    );
    const cancel = await dev(client, 'POST', `${v}/requests/${del.data.request.requestId}/cancel`);
    expect(cancel.data.status).toBe('canceled');
    expectPlatformError(
      await dev(client, 'POST', `${v}/requests/${del.data.request.requestId}/cancel`),
      409,
      'VERSION_REQUEST_NOT_CANCELABLE',
    );
    const again = await dev(client, 'POST', `${v}/requests`, {
      json: { kind: 'delete', reason: 'obsolete' },
    });
    expect(again.status).toBe(200);
    const approvedDelete = await review(client, { requestId: again.data.requestId, decision: 'approve' });
    expect(approvedDelete.data.request.status).toBe('approved');
    expect(approvedDelete.data.version.status).not.toBe('deleted');
    const decided = await review(client, { requestId: again.data.requestId, decision: 'apply' });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.data.version.status).toBe('deleted');
    // a deleted version is still readable (delete is not removal of data)
    expect((await dev(client, 'GET', v)).data.status).toBe('deleted');
    const list = await dev(client, 'GET', `${v}/requests`);
    expect(list.data.total).toBe(2);
  });

  it('refuses the CLI token for submission, publishing, review and reads of the control plane', async () => {
    const cli = await pairCli(client, STUDIO_APP_ID, { versionId: STUDIO_DRAFT_VERSION });
    const token = cli.accessToken as string;
    const v = `${A}/versions/${STUDIO_DRAFT_VERSION}`;
    expectPlatformError(
      await createVersion(studioSubmission('9.0.0'), 'cli-v', token),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    expectPlatformError(
      await dev(client, 'POST', `${v}/requests`, { json: { kind: 'publish' }, credential: token }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    expectPlatformError(
      await dev(client, 'POST', `${v}/submit`, { credential: token }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    expectPlatformError(
      await dev(client, 'PUT', `${v}/source`, { json: studioSubmission('1.1.0'), credential: token }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    expectPlatformError(
      await dev(client, 'POST', `${A}/launch`, { credential: token }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    // nor read: the CLI token is for runtime, jobs, temporary assets and app-to-app calls only
    expectPlatformError(await dev(client, 'GET', v, { credential: token }), 403, 'CLI_TOKEN_NOT_PERMITTED');
    expectPlatformError(
      await dev(client, 'GET', `${v}/source/content`, { credential: token }),
      403,
      'CLI_TOKEN_NOT_PERMITTED',
    );
    // the review route takes the simulator's token, never a developer or CLI token
    const reviewed = await client.request('POST', client.platform.reviewUrl, {
      credential: token,
      json: { requestId: 'x', decision: 'approve' },
    });
    expectPlatformError(reviewed, 401, 'UNAUTHENTICATED');
  });

  it('publishes: request, approval with apply, and the new version serves launches', async () => {
    const created = await createVersion(studioSubmission('5.0.0'), 'v5');
    const v = `${A}/versions/${created.data.versionId}`;
    const audit = await dev(client, 'GET', `${v}/audit`);
    expect(audit.data.items.map((i: Json) => i.action)).toContain('version.created');
    const validated = await dev(client, 'POST', `${v}/validate`);
    expect(validated.status).toBe(200);
    expect(validated.data.passed).toBe(false); // no imported image yet
    expect(validated.data.artifact.verified).toBe(false);
    const submitted = await dev(client, 'POST', `${v}/submit`);
    expect(submitted.data.status).toBe('submitted');
    const publish = await dev(client, 'POST', `${v}/requests`, {
      json: { kind: 'publish', reason: 'release 5' },
    });
    expect(publish.data).toMatchObject({ kind: 'publish', status: 'pending' });
    expectPlatformError(
      await dev(client, 'POST', `${v}/requests`, { json: { kind: 'publish' } }),
      409,
      'VERSION_REQUEST_IN_FLIGHT',
    );
    expect((await dev(client, 'GET', v)).data.currentRequests).toHaveLength(1);

    // approval alone changes nothing live (spec: "approval does not replace the live version until
    // the later controlled apply")
    const approvedPublish = await review(client, { requestId: publish.data.requestId, decision: 'approve' });
    expect(approvedPublish.data.request.status).toBe('approved');
    expect((await dev(client, 'GET', A)).data.activeVersionId).toBe(STUDIO_ACTIVE_VERSION);
    const decided = await review(client, { requestId: publish.data.requestId, decision: 'apply' });
    expect(decided.status, decided.text).toBe(200);
    expect(decided.data.request.status).toBe('applied');
    expect(decided.data.version).toMatchObject({ status: 'active', active: true });
    expect((await dev(client, 'GET', A)).data.activeVersionId).toBe(created.data.versionId);
    expect((await dev(client, 'GET', `${A}/versions/${STUDIO_ACTIVE_VERSION}`)).data.status).toBe('inactive');
    expectPlatformError(
      await review(client, { requestId: publish.data.requestId, decision: 'approve' }),
      409,
      'VERSION_REQUEST_STATE_CHANGED',
    );

    const session = await client.openSession(client.app(0), 'member');
    expect(session.appVersionId).toBe(created.data.versionId);
    // what the platform says of the application now names the published version, not version 1:
    // a dry-run's appContext …
    const dry = await runtimeCall(client, client.app(0), 'POST', '/media/jobs:dry-run', {
      sessionId: session.sessionId as string,
      json: {
        clientTaskId: 'dry-after-publish',
        model: 'h3-video',
        serviceKind: 'video_generation',
        params: { prompt: 'A kite over a windy beach' },
        mediaSpec: { generationMode: 't2v', resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
      },
    });
    expect(dry.status, dry.text).toBe(200);
    expect(dry.data.appContext.appVersionId).toBe(created.data.versionId);
    // … and a grant the studio issues, as its callee resolves it
    const business = { boardId: 'b-1' };
    const requestDigest = digest(business);
    const issued = await client.session(client.app(0), 'POST', '/app-grants', {
      json: {
        runtimeSessionId: session.sessionId,
        calleeAppKey: 'storyboard-helper',
        scope: 'storyboard.read',
        idempotencyKey: 'after-publish-1',
        requestDigest,
      },
    });
    expect(issued.status, issued.text).toBe(200);
    const resolved = await client.session(client.app(1), 'POST', '/app-grants:resolve', {
      json: { grant: issued.data.grant, scope: 'storyboard.read', requestDigest },
    });
    expect(resolved.status, resolved.text).toBe(200);
    expect(resolved.data.callerAppVersionId).toBe(created.data.versionId);
    const preview = await dev(client, 'POST', `${A}/launch`, { json: { versionId: STUDIO_DRAFT_VERSION } });
    expect(preview.status, preview.text).toBe(200);
    expect(preview.data.runtime.appVersionId).toBe(STUDIO_DRAFT_VERSION);
  });

  it('changes a published version only through a proposal with a real difference, replaced only at the later apply', async () => {
    const active = (await dev(client, 'GET', A)).data.activeVersionId as string;
    const v = `${A}/versions/${active}`;
    expectPlatformError(
      await dev(client, 'POST', `${A}/versions/${STUDIO_DRAFT_VERSION}/changes`),
      409,
      'VERSION_IS_DRAFT',
    );
    const change = await dev(client, 'POST', `${v}/changes`);
    expect(change.status, change.text).toBe(200);
    const c = `${v}/changes/${change.data.request.requestId}`;
    const live = await dev(client, 'GET', `${v}/source/content`);
    const same = await devMultipart(client, 'POST', `${c}/source/upload`, {}, { text: live.text });
    expect(same.status, same.text).toBe(200);
    expect(same.data.proposal.differences).toEqual([]);
    expectPlatformError(
      await dev(client, 'POST', `${c}/submit`, { json: {} }),
      409,
      'CHANGE_PROPOSAL_NO_DIFFERENCE',
    );

    const edited = { ...live.data, releaseNotes: 'Hotfix: export naming' };
    const upload = await devMultipart(
      client,
      'POST',
      `${c}/source/upload`,
      {},
      { text: JSON.stringify(edited) },
    );
    expect(upload.data.proposal.differences).toEqual([
      {
        path: 'releaseNotes',
        change: 'changed',
        before: live.data.releaseNotes,
        after: 'Hotfix: export naming',
      },
    ]);
    expect((await dev(client, 'GET', `${c}/source/content`)).data.releaseNotes).toBe('Hotfix: export naming');
    const submitted = await dev(client, 'POST', `${c}/submit`, { json: { reason: 'typo' } });
    expect(submitted.data.request.status).toBe('pending');

    const approved = await review(client, {
      requestId: change.data.request.requestId,
      decision: 'approve',
      apply: false,
    });
    expect(approved.data.request.status).toBe('approved');
    expect((await dev(client, 'GET', `${v}/source/content`)).data.releaseNotes).toBe(live.data.releaseNotes);
    const applied = await review(client, { requestId: change.data.request.requestId, decision: 'apply' });
    expect(applied.data.request.status).toBe('applied');
    expect((await dev(client, 'GET', `${v}/source/content`)).data.releaseNotes).toBe('Hotfix: export naming');
    expect(applied.data.version.versionId).toBe(active);
  });
});
