import type { z } from 'zod';
import { readBody } from '../../http.js';
import { invalidSessionRequest } from '../errors.js';
import { PlatformError } from '../errors.js';
import type { PlatformContext } from '../router.js';
import { DEVELOPER_PUBLISHERS, DEVELOPER_TOKEN } from './developer-fixtures.js';
import type { DevApp, DevVersion } from './developer-store.js';

/** `{developer_base_url}` relative to the platform prefix. */
export const DEVELOPER_PATH = '/api/v1/appstore/developer';

/** Who called the developer control plane: the developer's own session (a CLI token is refused). */
export type DeveloperCaller = { kind: 'developer' };

/** 403 of what a CLI token may not do (upload images, submit versions, review, publish, production sessions). */
export const CLI_TOKEN_NOT_PERMITTED = 'CLI_TOKEN_NOT_PERMITTED';

/**
 * The caller of a developer route: the local developer's session token. A live CLI session is
 * recognised and refused with 403 `CLI_TOKEN_NOT_PERMITTED`: "The CLI token … permits runtime,
 * jobs, temporary assets and app-to-app calls only" (spec, section E) — it reads no application,
 * version, role or test account here. Anything else (absent, unknown, expired) is 401.
 */
export function developerCaller(pc: PlatformContext, action?: string): DeveloperCaller {
  if (pc.bearer === DEVELOPER_TOKEN) return { kind: 'developer' };
  if (pc.state.platform.cliSessions.byToken(pc.bearer))
    throw new PlatformError(
      403,
      CLI_TOKEN_NOT_PERMITTED,
      `A CLI token ${action ? `cannot ${action}: it ` : ''}permits runtime, jobs, temporary assets and app-to-app calls only; use the developer's own session.`,
    );
  throw new PlatformError(
    401,
    'DEVELOPER_UNAUTHENTICATED',
    'A developer session or a live CLI session is required (Authorization: Bearer).',
    { headers: { 'WWW-Authenticate': 'Bearer' } },
  );
}

/** The developer's own session; a CLI token is refused (403 `CLI_TOKEN_NOT_PERMITTED`) naming `action`. */
export function requireDeveloperSession(pc: PlatformContext, action: string): void {
  developerCaller(pc, action);
}

export const appNotFound = () =>
  new PlatformError(404, 'APP_NOT_FOUND', 'No application with this id is owned by the caller.');
export const versionNotFound = () =>
  new PlatformError(404, 'VERSION_NOT_FOUND', 'No version with this id exists in this application.');

/** Whether the local developer owns the application (through one of their publishers). */
export const ownsApp = (app: DevApp) => DEVELOPER_PUBLISHERS.some((p) => p.publisherId === app.publisherId);

/**
 * The application when the caller owns it;
 * nonexistent and not owned are the same 404. Checked before anything else of the request.
 */
export function ownedApp(pc: PlatformContext, caller: DeveloperCaller, appId: string): DevApp {
  const app = pc.state.platform.developer.apps.get(appId);
  if (!app || !ownsApp(app)) throw appNotFound();
  return app;
}

export function ownedVersion(pc: PlatformContext, app: DevApp, versionId: string): DevVersion {
  const version = pc.state.platform.developer.versions.get(versionId);
  if (!version || version.appId !== app.appId) throw versionNotFound();
  return version;
}

/** Authenticates, then checks ownership of `{appId}` (and `{versionId}` when the path has one). */
export function ownedTarget(
  pc: PlatformContext,
  options: { developerOnly?: string } = {},
): { caller: DeveloperCaller; app: DevApp; version?: DevVersion } {
  const caller = developerCaller(pc, options.developerOnly);
  const app = ownedApp(pc, caller, pc.params.appId ?? '');
  const version = pc.params.versionId !== undefined ? ownedVersion(pc, app, pc.params.versionId) : undefined;
  return { caller, app, version };
}

/** Largest JSON body of a developer route (submissions included). */
export const DEVELOPER_BODY_MAX_BYTES = 1024 * 1024;

/** Parses a JSON text against a schema: invalid JSON, unknown field or wrong type is 400 `INVALID_REQUEST`. */
export function parseDeveloperJson<T extends z.ZodType>(
  text: string,
  schema: T,
  options: { emptyAllowed?: boolean; arrayAllowed?: boolean } = {},
): z.infer<T> {
  let parsed: unknown;
  if (text.trim() === '' && options.emptyAllowed) parsed = {};
  else {
    try {
      parsed = JSON.parse(text);
    } catch {
      throw invalidSessionRequest('The body is not valid JSON.');
    }
  }
  if (parsed === null || typeof parsed !== 'object' || (Array.isArray(parsed) && !options.arrayAllowed))
    throw invalidSessionRequest(
      options.arrayAllowed ? 'The body must be a JSON array.' : 'The body must be a JSON object.',
    );
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.map((issue) => ({
      path: issue.path.map(String).join('.'),
      code: issue.code,
      message: issue.message,
    }));
    const first = issues[0];
    throw invalidSessionRequest(
      first ? `${first.path || 'body'}: ${first.message}` : 'The body is invalid.',
      {
        issues,
      },
    );
  }
  return result.data;
}

/** A JSON body of a developer route (invalid JSON, unknown field or wrong type: 400 `INVALID_REQUEST`). */
export async function readDeveloperBody<T extends z.ZodType>(
  pc: PlatformContext,
  schema: T,
  options: { emptyAllowed?: boolean; arrayAllowed?: boolean } = {},
): Promise<z.infer<T>> {
  const raw = await readBody(pc.req, DEVELOPER_BODY_MAX_BYTES);
  return parseDeveloperJson(raw.toString('utf8'), schema, options);
}

/** `page` (from 1) and `pageSize` (default 20, at most 100) of a list. */
export function paging(pc: PlatformContext): { page: number; pageSize: number } {
  const page = Number(pc.query.get('page') ?? '1');
  const pageSize = Number(pc.query.get('pageSize') ?? '20');
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
    throw new PlatformError(400, 'INVALID_REQUEST', 'page must be >= 1 and pageSize 1..100.');
  return { page, pageSize };
}

export function pageOf<T>(items: T[], p: { page: number; pageSize: number }) {
  return {
    items: items.slice((p.page - 1) * p.pageSize, p.page * p.pageSize),
    total: items.length,
    page: p.page,
    pageSize: p.pageSize,
  };
}
