import { sendJson } from '../http.js';
import { readSessionBody } from './body.js';
import { listGroups, listMembers } from './directory.js';
import { PlatformError, sessionNotFound } from './errors.js';
import { isOrganizationManager, ORGANIZATION_ID } from './fixtures.js';
import type { PlatformContext, PlatformRoute } from './router.js';
import { DirectoryGroupList, DirectoryMemberPage, EmptyBody, errorDoc, MembersListBody } from './schemas.js';

/** The manager session the directory may be read with: 404 when it does not resolve, 403 when not a manager. */
function managerSession(pc: PlatformContext): void {
  const session = pc.state.platform.sessions.usable(pc.app.appKey, pc.params.sessionId ?? '');
  if (!session) throw sessionNotFound();
  if (!isOrganizationManager(session.subject) || session.subject.organizationId !== ORGANIZATION_ID)
    throw new PlatformError(
      403,
      'ORGANIZATION_MANAGER_REQUIRED',
      'Only an organization manager session can read the organization directory.',
    );
}

async function groups(pc: PlatformContext): Promise<void> {
  await readSessionBody(pc.req, EmptyBody);
  managerSession(pc);
  sendJson(pc.res, 200, { appKey: pc.app.appKey, organizationId: ORGANIZATION_ID, items: listGroups() });
}

async function members(pc: PlatformContext): Promise<void> {
  const body = await readSessionBody(pc.req, MembersListBody);
  managerSession(pc);
  sendJson(pc.res, 200, {
    appKey: pc.app.appKey,
    organizationId: ORGANIZATION_ID,
    ...listMembers(pc.app, body),
  });
}

const DIRECTORY_ERRORS = {
  400: errorDoc('INVALID_REQUEST: unknown field, invalid JSON, negative page/pageSize, pageSize > 100'),
  401: errorDoc('Application credential missing or unknown'),
  403: errorDoc('ORGANIZATION_MANAGER_REQUIRED, or credential mismatch'),
  404: errorDoc('Session does not resolve (RUNTIME_SESSION_NOT_FOUND), or unknown groupId'),
  429: errorDoc('Rate limited (Retry-After)'),
  503: errorDoc('ORGANIZATION_DIRECTORY_UNAVAILABLE (Retry-After)'),
  504: errorDoc('Gateway timeout'),
};

export const directoryRoutes: PlatformRoute[] = [
  {
    method: 'POST',
    path: '/session/apps/{appKey}/runtime-sessions/{sessionId}/organization-directory/groups:list',
    surface: 'directory',
    appParam: 'appKey',
    handler: groups,
    doc: {
      operationId: 'listOrganizationGroups',
      summary: "The organization's group tree (manager sessions only)",
      tags: ['directory'],
      requestBody: { schema: EmptyBody, required: true },
      responses: { 200: { description: 'Groups', schema: DirectoryGroupList }, ...DIRECTORY_ERRORS },
    },
  },
  {
    method: 'POST',
    path: '/session/apps/{appKey}/runtime-sessions/{sessionId}/organization-directory/members:list',
    surface: 'directory',
    appParam: 'appKey',
    handler: members,
    doc: {
      operationId: 'listOrganizationMembers',
      summary: "A page of the organization's members (manager sessions only)",
      tags: ['directory'],
      requestBody: { schema: MembersListBody, required: true },
      responses: { 200: { description: 'Member page', schema: DirectoryMemberPage }, ...DIRECTORY_ERRORS },
    },
  },
];
