import type { Command } from 'commander';
import { defaultDataDir } from '../../main/core/app/data-dir.js';
import {
  openPlatformBackend,
  type PlatformBackendOptions,
} from '../../main/core/platform/platform-backend.js';
import {
  PlatformSettingsError,
  readPlatformSettings,
  type PlatformSettings,
} from '../../main/core/platform/platform-settings.js';
import { SecretStoreError } from '../../main/core/secrets/secret-store.js';
import { startPlatformStudio } from '../../main/host/platform-studio.js';
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

export interface ServePlatformDependencies {
  /** Engine and events timing (tests). */
  timing?: PlatformBackendOptions['timing'];
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
  let backend;
  try {
    backend = await openPlatformBackend({ dataDir, settings, timing: deps.timing });
  } catch (error) {
    // the secret store refused to open (its data key is missing, or an earlier secret file opens
    // with no credential given): the message says what to set or restore, and nothing was changed
    if (!(error instanceof SecretStoreError)) throw error;
    process.stderr.write(`framewright: ${error.message}\n`);
    process.exitCode = ExitCode.invalidInput;
    return;
  }
  let host;
  try {
    host = await startPlatformStudio(backend, {
      publicOrigin: settings.publicOrigin,
      rendererDir: options.rendererDir,
      host: options.host,
      port,
      log: (line) => process.stderr.write(`${line}\n`),
      // other applications send boards to a person's Sequences (Framewright as a callee)
      ...(backend.interApp ? { interApp: backend.interApp } : {}),
    });
  } catch (error) {
    await backend.close();
    throw error;
  }
  // every person's unfinished work goes on (batch-get with their session, else recovery references)
  await backend.resumeAll();
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
  await backend.close();
}
