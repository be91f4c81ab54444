import path from 'node:path';
import type { Command } from 'commander';
import { defaultDataDir } from '../../main/core/app/data-dir.js';
import {
  PlatformSettingsError,
  readPlatformSettings,
  type PlatformSettings,
} from '../../main/core/app/platform-settings.js';
import { PlatformWorkspaces, type PlatformWorkspace } from '../../main/core/app/platform-workspaces.js';
import type { BridgeDispatcher } from '../../main/core/bridge/dispatcher.js';
import { ServerSessions } from '../../main/core/features/runtime-sessions/server-sessions.js';
import { createSessionService } from '../../main/core/features/runtime-sessions/session-service.js';
import type { SecretStore } from '../../main/core/secrets/secret-store.js';
import { EncryptedFileSecretStore } from '../../main/core/secrets/encrypted-file-secret-store.js';
import { startPlatformHost } from '../../main/host/platform-host.js';
import { ExitCode } from '../exit-codes.js';

interface ServePlatformOptions {
  host: string;
  port: string;
  rendererDir: string;
  dataDir?: string;
  json?: boolean;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** The problem with where `serve --platform` would listen, or undefined when it may. */
export function bindProblem(
  host: string,
  settings: Pick<PlatformSettings, 'secureCookies'>,
): string | undefined {
  if (LOOPBACK.has(host) || settings.secureCookies) return undefined;
  return `--host ${host} is reachable from other machines, but FRAMEWRIGHT_PUBLIC_URL is not https: cookies would travel unencrypted. Serve behind https (and set FRAMEWRIGHT_PUBLIC_URL to it) or bind to loopback.`;
}

/**
 * Where the server-side sessions (and, once jobs run, the recovery references) live: the platform
 * backend's secret store, one file encrypted under a key derived from the application credential
 * (`<dataDir>/secrets/platform-secrets.enc`, mode 0600), so a restarted backend keeps its users
 * signed in and nothing secret sits in the journal.
 */
function sessionSecrets(dataDir: string, settings: PlatformSettings): SecretStore {
  return new EncryptedFileSecretStore(
    path.join(dataDir, 'secrets', 'platform-secrets.enc'),
    settings.appCredential,
  );
}

/** Until the studio's features are wired per workspace, each call says so (nothing is lost). */
function notWiredDispatcher(): BridgeDispatcher {
  return {
    dispatch: async () => ({
      ok: false,
      error: {
        code: 'platform.not_wired',
        message: 'This studio feature is not available on the platform yet.',
      },
    }),
  };
}

export interface ServePlatformDependencies {
  workspaceDispatcher?: (workspace: Omit<PlatformWorkspace, 'dispatcher'>) => BridgeDispatcher;
}

/** `framewright serve --platform`: the backend of Framewright deployed as a platform application. */
export async function runServePlatform(
  command: Command,
  deps: ServePlatformDependencies = {},
): Promise<void> {
  const options = command.optsWithGlobals<ServePlatformOptions>();
  let settings: PlatformSettings;
  try {
    settings = readPlatformSettings();
  } catch (error) {
    if (!(error instanceof PlatformSettingsError)) throw error;
    for (const line of error.problems) process.stderr.write(`framewright: ${line}\n`);
    process.exitCode = ExitCode.invalidInput;
    return;
  }
  const problem = bindProblem(options.host, settings);
  const port = Number(options.port);
  if (problem || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`framewright: ${problem ?? '--port must be an integer 0..65535.'}\n`);
    process.exitCode = ExitCode.invalidInput;
    return;
  }
  const dataDir = options.dataDir ?? defaultDataDir();
  const sessions = new ServerSessions({
    service: createSessionService(settings),
    secrets: sessionSecrets(dataDir, settings),
  });
  const workspaces = new PlatformWorkspaces({
    dataDir,
    workspaceDispatcher: deps.workspaceDispatcher ?? notWiredDispatcher,
  });
  let host;
  try {
    host = await startPlatformHost({
      publicOrigin: settings.publicOrigin,
      sessions,
      workspaces,
      rendererDir: options.rendererDir,
      host: options.host,
      port,
      log: (line) => process.stderr.write(`${line}\n`),
    });
  } catch (error) {
    workspaces.close();
    throw error;
  }
  if (options.json) {
    process.stdout.write(JSON.stringify({ origin: settings.publicOrigin, mode: 'platform' }) + '\n');
  } else {
    process.stdout.write(
      `Framewright (platform application) listens at ${host.origin} for ${settings.publicOrigin}\n` +
        `The platform opens it at ${settings.publicOrigin}/?launchCode=<code>\n`,
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await host.close();
  workspaces.close();
}
