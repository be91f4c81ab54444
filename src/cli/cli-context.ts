import type { Command } from 'commander';
import { openCoreServices, type CoreServices } from '../main/core/app/core-services.js';
import { defaultDataDir } from '../main/core/app/data-dir.js';
import { defaultSimulatorLauncher } from '../main/core/app/default-simulator-launcher.js';
import { errorKindOf } from '../main/core/error-kinds.js';
import { AppError } from '../main/core/errors.js';
import { ApiError } from '../main/core/platform/api-errors.js';
import { API_KEY_ENV_VARIABLE, apiKeyFromEnvironment } from '../main/core/secrets/env-secret-store.js';
import { DraftInvalidError } from '../shared/h3/violations.js';
import { crashPointHooks } from './crash-points.js';
import { EXIT_CODE_FOR_ERROR_KIND, type ExitCode } from './exit-codes.js';

export { printJson } from './print-json.js';

/** Options every command inherits from the program. */
export interface GlobalOptions {
  dataDir?: string;
  profile?: string;
  baseUrl?: string;
  json?: boolean;
}

export interface CliCore {
  core: CoreServices;
  /** The profile this invocation acts as (--base-url, --profile, or the active one). */
  profileId: string;
  json: boolean;
  close(): Promise<void>;
}

/**
 * Opens the same core the desktop app uses, on the same data folder, and picks the identity:
 * `--base-url` with `FRAMEWRIGHT_API_KEY` (never stored), `--profile NAME`, or the active profile
 * (the local simulator when nothing else is configured).
 */
export async function openCliCore(
  command: Command,
  identity: { resolveIdentity?: boolean } = {},
): Promise<CliCore> {
  const options = command.optsWithGlobals<GlobalOptions>();
  const dataDir = options.dataDir ?? defaultDataDir();
  const timeScale = Number(process.env.FRAMEWRIGHT_SIMULATOR_TIME_SCALE ?? '1');
  const core = await openCoreServices({
    dataDir,
    launchSimulator: defaultSimulatorLauncher(
      dataDir,
      Number.isFinite(timeScale) && timeScale > 0 ? timeScale : 1,
    ),
    engine: crashPointHooks(),
  });
  try {
    let profileId: string;
    if (identity.resolveIdentity === false) {
      profileId = core.profiles.activeId();
    } else if (options.baseUrl) {
      if (options.profile) throw new AppError('usage', 'Use either --profile or --base-url, not both.');
      if (!apiKeyFromEnvironment()) {
        throw new AppError(
          'profile.no_key',
          `--base-url needs the key in ${API_KEY_ENV_VARIABLE}; it is never stored.`,
        );
      }
      profileId = core.profiles.ensureEnvironmentProfile(options.baseUrl).id;
    } else if (options.profile) {
      profileId = core.profiles.find(options.profile).id;
    } else {
      profileId = core.profiles.activeId();
    }
    return { core, profileId, json: Boolean(options.json), close: () => core.close() };
  } catch (error) {
    await core.close();
    throw error;
  }
}

/** The exit code for an error: its kind (src/main/core/error-kinds.ts), through one table. */
export function exitCodeFor(error: unknown): ExitCode {
  return EXIT_CODE_FOR_ERROR_KIND[errorKindOf(error)];
}

/** Prints an error on stderr (and as JSON on stdout with --json) and returns its exit code. */
export function reportError(error: unknown, json: boolean): ExitCode {
  const code = exitCodeFor(error);
  const message = error instanceof Error ? error.message : String(error);
  const details =
    error instanceof DraftInvalidError
      ? error.violations.map((v) => ({ code: v.code, message: v.message }))
      : error instanceof ApiError
        ? {
            status: error.status,
            code: error.apiCode,
            requestId: error.requestId,
            retryable: error.retryable,
          }
        : undefined;
  if (json) {
    process.stdout.write(
      JSON.stringify({
        error: { code: error instanceof AppError ? error.code : 'error', message, details },
        exitCode: code,
      }) + '\n',
    );
  }
  process.stderr.write(`framewright: ${message}\n`);
  if (error instanceof DraftInvalidError)
    for (const v of error.violations) process.stderr.write(`  - ${v.message}\n`);
  return code;
}

/** Runs a command body with an opened core; sets the exit code; always closes the core. */
export async function withCliCore(
  command: Command,
  body: (cli: CliCore) => Promise<ExitCode>,
  options: { resolveIdentity?: boolean } = {},
): Promise<void> {
  const json = Boolean(command.optsWithGlobals<GlobalOptions>().json);
  let cli: CliCore | undefined;
  try {
    cli = await openCliCore(command, options);
    process.exitCode = await body(cli);
  } catch (error) {
    process.exitCode = reportError(error, json);
  } finally {
    await cli?.close();
  }
}
