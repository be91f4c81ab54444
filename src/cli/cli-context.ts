import type { Command } from 'commander';
import { composeFeatures, type CoreFeatures } from '../main/core/app/compose-core.js';
import { openCoreParts } from '../main/core/app/core-parts.js';
import { defaultDataDir } from '../main/core/app/data-dir.js';
import { defaultSimulatorLauncher } from '../main/core/app/default-simulator-launcher.js';
import { errorKindOf } from '../main/core/error-kinds.js';
import type { EngineChange } from '../main/core/jobs/job-engine.js';
import { AppError } from '../main/core/errors.js';
import { ApiError } from '../main/core/api-clients/api-errors.js';
import { DraftInvalidError } from '../shared/h3/violations.js';
import { crashPointHooks } from './crash-points.js';
import { EventHub } from '../main/core/events/event-hub.js';
import { createLogger } from '../main/core/logging/logger.js';
import { publicApiBackend } from '../main/core/backends/public-api/public-api-backend.js';
import { createStudioFeatures, type StudioFeatures } from '../main/core/studio/studio-features.js';
import { EXIT_CODE_FOR_ERROR_KIND, type ExitCode } from './exit-codes.js';
import { BROWSER_HOST } from '../main/core/library/studio-host.js';

export { printJson } from './print-json.js';

/** Options every command inherits from the program. */
export interface GlobalOptions {
  dataDir?: string;
  profile?: string;
  baseUrl?: string;
  json?: boolean;
}

export interface CliCore {
  /** The core's features, built by the composition root over the opened data folder. */
  core: CoreFeatures;
  /** The profile this invocation acts as (--base-url, --profile, or the active one). */
  profileId: string;
  json: boolean;
  /** The studio's features over the same parts (drafts, staging, sequences), built on first use. */
  studio(): StudioFeatures;
  /**
   * Listens to the job engine's changes (intents, polls, download bytes) while the command runs,
   * for live progress (`progress/follow-engine.ts`); returns the way to stop listening.
   */
  onEngineChange(listener: (change: EngineChange) => void): () => void;
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
  const listeners = new Set<(change: EngineChange) => void>();
  const parts = await openCoreParts({
    dataDir,
    launchSimulator: defaultSimulatorLauncher(
      dataDir,
      Number.isFinite(timeScale) && timeScale > 0 ? timeScale : 1,
    ),
    engine: crashPointHooks(),
    onEngineChange: (change) => {
      for (const listener of listeners) {
        try {
          listener(change);
        } catch {
          // a progress display never stops the work
        }
      }
    },
  });
  try {
    const core = composeFeatures(parts);
    const profileId =
      identity.resolveIdentity === false
        ? core.profiles.activeId()
        : core.profiles.choose({ profile: options.profile, baseUrl: options.baseUrl });
    if (identity.resolveIdentity !== false) await noteDebugSession(core, profileId);
    let studio: StudioFeatures | undefined;
    const openStudio = (): StudioFeatures =>
      (studio ??= (() => {
        // no renderer listens to a command's events, and its failures reach the terminal
        const events = new EventHub();
        const logger = createLogger();
        const runner = { journal: parts.journal, profiles: parts.profiles, engine: parts.engine };
        return createStudioFeatures({
          dataDir,
          journal: parts.journal,
          libraryDir: () => parts.libraryDir,
          libraryDirs: () => parts.libraryDirs(),
          setLibraryDir: (folder) => parts.setLibraryDir(folder),
          engine: parts.engine,
          backend: publicApiBackend({
            journal: parts.journal,
            runner,
            catalog: core.catalog,
            activeProfileId: () => profileId,
            events,
            logger,
          }),
          events,
          logger,
          host: BROWSER_HOST,
        });
      })());
    return {
      core,
      profileId,
      json: Boolean(options.json),
      studio: openStudio,
      onEngineChange(listener) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      close: () => {
        core.debugPairing.cancelAll();
        return parts.close();
      },
    };
  } catch (error) {
    await parts.close();
    throw error;
  }
}

/**
 * A paired debug profile says on stderr whom its calls act as, that they are billed, and how long
 * the session has left (an expired one is refused before anything is sent, by the profile itself).
 */
async function noteDebugSession(core: CoreFeatures, profileId: string): Promise<void> {
  const session = await core.debugPairing.session(profileId).catch(() => null);
  if (!session || session.expired) return;
  const minutes = Math.max(1, Math.ceil((session.expiresAt - Date.now()) / 60_000));
  const who = session.testAccount
    ? `test account "${session.testAccount.displayName}"${session.testAccount.organizationName ? ` (${session.testAccount.organizationName})` : ''}`
    : 'you (the developer)';
  process.stderr.write(
    `Online debugging of ${session.appKey} as ${who}, billed to that account; the session ends in ${minutes} min` +
      `${minutes <= 10 ? ' — pair again soon with framewright login --debug' : ''}.\n`,
  );
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
