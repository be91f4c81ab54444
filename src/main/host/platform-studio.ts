import type { PlatformBackend } from '../core/platform/platform-backend.js';
import { serveSignedObject } from '../core/storage/serve-signed-object.js';
import { startPlatformHost, type RunningPlatformHost } from './platform-host.js';

/**
 * The platform host over an opened platform backend: each signed-in person's bridge calls, events,
 * staged files, media and exports go to their own workspace; signed readUrls are served to the
 * platform from the person's object storage. Used by `serve --platform` and the tests.
 *
 * A workspace a request reaches (opened again after the idle close, or first opened by the
 * backend's own work) gets its person's job events consumer: the request's session is active.
 */
export function startPlatformStudio(
  backend: PlatformBackend,
  options: {
    publicOrigin: string;
    rendererDir: string;
    host?: string;
    port?: number;
    log?: (line: string) => void;
  },
): Promise<RunningPlatformHost> {
  const { limits } = backend;
  return startPlatformHost({
    ...options,
    sessions: backend.sessions,
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
