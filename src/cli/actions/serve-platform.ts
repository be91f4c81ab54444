import type { Command } from 'commander';
import { defaultDataDir } from '../../main/core/app/data-dir.js';
import {
  PlatformSettingsError,
  readPlatformSettings,
  type PlatformSettings,
} from '../../main/core/app/platform-settings.js';
import { PlatformWorkspaces, type PlatformWorkspace } from '../../main/core/app/platform-workspaces.js';
import type { BridgeDispatcher } from '../../main/core/bridge/dispatcher.js';
import { ProcessMemorySecretStore } from '../../main/core/features/runtime-sessions/memory-secret-store.js';
import { ServerSessions } from '../../main/core/features/runtime-sessions/server-sessions.js';
import { createSessionService } from '../../main/core/features/runtime-sessions/session-service.js';
import type { SecretStore } from '../../main/core/secrets/secret-store.js';
import { selectSecretStore } from '../../main/core/secrets/select-secret-store.js';
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
 * Where the server-side sessions live: the machine's keychain when it has one, else this
 * process's memory (said on stderr). The encrypted file store of the platform backend replaces
 * this choice when it is wired in.
 */
async function sessionSecrets(): Promise<SecretStore> {
  const { store } = await selectSecretStore({ serviceName: 'framewright-platform', probeTimeoutMs: 3000 });
  if (store.describe().canStore) return store;
  process.stderr.write(
    'framewright: no secret store is available; sessions are kept in memory (a restart signs everyone out).\n',
  );
  return new ProcessMemorySecretStore();
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
    secrets: await sessionSecrets(),
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
