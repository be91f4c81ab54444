import type { PlatformBackend } from '../core/app/platform-backend.js';
import { serveSignedObject } from '../core/features/read-urls/serve-signed-object.js';
import { startPlatformHost, type RunningPlatformHost } from './platform-host.js';

/**
 * The platform host over an opened platform backend: each signed-in person's bridge calls, events,
 * staged files, media and exports go to their own workspace; signed readUrls are served to the
 * platform from the person's object storage. Used by `serve --platform` and the tests.
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
  return startPlatformHost({
    ...options,
    sessions: backend.sessions,
    workspaces: backend.workspaces,
    eventsOf: (workspace) => workspace.core.events,
    studio: {
      stage: (workspace, source, fileName, purpose) =>
        workspace.core.staged.stageStream(source, fileName, purpose),
      media: (workspace, route, signature) => workspace.core.media.resolve(route, signature),
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
