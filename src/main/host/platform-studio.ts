import type { PlatformBackend } from '../core/platform/platform-backend.js';
import type { PlatformWorkspace } from '../core/platform/platform-workspaces.js';
import type { PlatformWorkspaceCore } from '../core/platform/platform-workspace-parts.js';
import type { SentBoard } from '../core/inter-app/sequence-create-body.js';
import {
  createSequenceCreateCallee,
  type SequenceCreateCalleeOptions,
} from '../core/inter-app/sequence-create-callee.js';
import { DEFAULT_CALL_PACING } from './call-pacing.js';
import { serveSignedObject } from '../core/storage/serve-signed-object.js';
import { startPlatformHost, type PlatformHostOptions, type RunningPlatformHost } from './platform-host.js';

/**
 * The platform host over an opened platform backend: each signed-in person's bridge calls, events,
 * staged files, media and exports go to their own workspace; signed readUrls are served to the
 * platform from the person's object storage. Used by `serve --platform` and the tests.
 *
 * A workspace a request reaches (opened again after the idle close, or first opened by the
 * backend's own work) gets its person's job events consumer: the request's session is active.
 *
 * With `interApp`, other applications create sequences in a person's workspace through
 * `POST /inter-app/2026-01/sequences` (a grant per call, resolved with this application's own
 * credential; the person is the grant's subject, so it is the workspace their cookie reaches).
 */
export interface PlatformStudioInterApp {
  /** This application's key (the grant's callee must be it). */
  appKey: string;
  /** The session-service client's `resolveGrant` (this application's credential). */
  resolveGrant: SequenceCreateCalleeOptions<PlatformWorkspace<PlatformWorkspaceCore>>['resolveGrant'];
  /** Board → sequence in the person's workspace (the storyboards feature); answers its id. */
  importBoard(
    workspace: PlatformWorkspace<PlatformWorkspaceCore>,
    board: SentBoard,
  ): Promise<{ sequenceId: string }>;
}

export function startPlatformStudio(
  backend: PlatformBackend,
  options: {
    publicOrigin: string;
    rendererDir: string;
    host?: string;
    port?: number;
    log?: (line: string) => void;
    requestLog?: PlatformHostOptions['requestLog'];
    interApp?: PlatformStudioInterApp;
  },
): Promise<RunningPlatformHost> {
  const { limits } = backend;
  const { interApp, ...hostOptions } = options;
  return startPlatformHost({
    ...hostOptions,
    ...(interApp
      ? {
          interApp: createSequenceCreateCallee({
            appKey: interApp.appKey,
            resolveGrant: (use) => interApp.resolveGrant(use),
            // the grant's person; not the wrapper below: no session of theirs starts events here
            workspaceOf: (subject) => backend.workspaces.workspaceOf(subject),
            importBoard: (workspace, board) =>
              workspace.core.inUse(() => interApp.importBoard(workspace, board)),
            warn: (message, fields) => backend.logger.warn(message, fields),
          }),
        }
      : {}),
    sessions: backend.sessions,
    readiness: () => backend.readiness(),
    metrics: backend.metrics,
    trustedProxies: backend.trustedProxies,
    workspaces: {
      workspaceOf(subject) {
        const workspace = backend.workspaces.workspaceOf(subject);
        workspace.core.startEvents();
        return workspace;
      },
    },
    sessionCaps: {
      uploads: limits.uploadsPerSession,
      calls: limits.callsPerSession,
      sockets: limits.socketsPerSession,
    },
    callPacing: {
      ...DEFAULT_CALL_PACING,
      callsPerSecond: limits.callsPerSecond,
      burstCalls: limits.callsPerSecond * 3,
    },
    eventsOf: (workspace) => workspace.core.events,
    studio: {
      stage: (workspace, source, fileName, purpose) =>
        workspace.core.inUse(() => workspace.core.staged.stageStream(source, fileName, purpose)),
      media: (workspace, route, signature) =>
        workspace.core.inUse(() => workspace.core.media.resolve(route, signature)),
      exportedFile: (workspace, name) => workspace.core.exportedFile(name),
      serveObject: (req, res) =>
        serveSignedObject(req, res, {
          signingKey: backend.signingKey,
          storageFor: (subjectKey) => backend.storageFor(subjectKey),
        }),
      signedIn: (workspace) => workspace.core.startEvents(),
    },
  });
}
