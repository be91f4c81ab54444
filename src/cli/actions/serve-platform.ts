import path from 'node:path';
import type { Command } from 'commander';
import { defaultDataDir } from '../../main/core/app/data-dir.js';
import {
  openPlatformBackend,
  type PlatformBackend,
  type PlatformBackendOptions,
} from '../../main/core/platform/platform-backend.js';
import {
  PlatformSettingsError,
  readPlatformSettings,
  type PlatformSettings,
} from '../../main/core/platform/platform-settings.js';
import { createLogger, type Logger } from '../../main/core/logging/logger.js';
import { setDefaultMediaPriority } from '../../main/core/media-tools/tool-priority.js';
import { SecretStoreError } from '../../main/core/secrets/secret-store.js';
import { startPlatformStudio } from '../../main/host/platform-studio.js';
import type { RunningPlatformHost } from '../../main/host/platform-host.js';
import { startMetricsServer, type RunningMetricsServer } from '../../main/host/metrics-server.js';
import { boundedRequestLog } from '../../main/host/request-log.js';
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
  if (settings.mediaPriority) setDefaultMediaPriority(settings.mediaPriority);
  const problem = bindProblem(options.host, settings);
  const port = Number(options.port);
  if (problem || !Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`framewright: ${problem ?? '--port must be an integer 0..65535.'}\n`);
    process.exitCode = ExitCode.invalidInput;
    return;
  }
  const dataDir = options.dataDir ?? defaultDataDir();
  const logs = stdoutLogs();
  const logger = createLogger({
    file: path.join(dataDir, 'logs', 'platform.log'),
    echo: logs.echo,
    echoFormat: process.stdout.isTTY ? 'readable' : 'json',
  });
  try {
    await serveOnce(options, settings, port, dataDir, logger, logs, deps);
  } finally {
    logs.open();
  }
}

/**
 * The log's lines on stdout (one JSON object per line, or the readable form on a terminal), held
 * until the start-up line is printed: `--json` promises that line first.
 */
function stdoutLogs() {
  const held: string[] = [];
  let open = false;
  return {
    echo(line: string) {
      if (open) process.stdout.write(`${line}\n`);
      else held.push(line);
    },
    open() {
      open = true;
      for (const line of held.splice(0)) process.stdout.write(`${line}\n`);
    },
  };
}

async function serveOnce(
  options: ServePlatformOptions,
  settings: PlatformSettings,
  port: number,
  dataDir: string,
  logger: Logger,
  logs: { open(): void },
  deps: ServePlatformDependencies,
): Promise<void> {
  let backend;
  try {
    backend = await openPlatformBackend({ dataDir, settings, logger, timing: deps.timing });
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
      log: (line) => logger.info(line),
      requestLog: boundedRequestLog((message, fields) => logger.info(message, fields)),
      // other applications send boards to a person's Sequences (Framewright as a callee)
      ...(backend.interApp ? { interApp: backend.interApp } : {}),
    });
  } catch (error) {
    await backend.close();
    throw error;
  }
  let metricsServer: RunningMetricsServer | undefined;
  if (settings.metrics) {
    logger.addSecret(settings.metrics.token ?? '');
    try {
      metricsServer = await startMetricsServer(backend.metrics, { host: options.host, ...settings.metrics });
    } catch (error) {
      await host.close();
      await backend.close();
      throw error;
    }
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
  logs.open();
  await stopOnSignal(host, backend, (line) => logger.info(line));
  await metricsServer?.close();
}

/**
 * Waits for SIGTERM or SIGINT, then stops. SIGTERM (an orchestrator replacing the container)
 * drains first: readiness turns false, new sign-ins and uploads are refused with a retryable
 * answer, the requests in flight finish within `FRAMEWRIGHT_DRAIN_SECONDS`; a second signal, or
 * SIGINT, stops at once. Either way the backend then closes: the job engines stop at a safe point
 * and give up their leases (the next process resumes every job at once; the journal already holds
 * each paid job, so none is lost or made twice), and the journals and the secret store close. The
 * exit code stays 0.
 */
export async function stopOnSignal(
  host: RunningPlatformHost,
  backend: Pick<PlatformBackend, 'close' | 'limits'>,
  log: (line: string) => void,
  signals: Pick<NodeJS.Process, 'once' | 'removeListener'> = process,
): Promise<void> {
  const next = () =>
    new Promise<NodeJS.Signals>((resolve) => {
      const heard = (signal: NodeJS.Signals) => {
        signals.removeListener('SIGINT', heard);
        signals.removeListener('SIGTERM', heard);
        resolve(signal);
      };
      signals.once('SIGINT', heard);
      signals.once('SIGTERM', heard);
    });
  const first = await next();
  if (first === 'SIGTERM') {
    const graceMs = backend.limits.drainSeconds * 1000;
    log(`SIGTERM: draining (up to ${backend.limits.drainSeconds} s; a second signal stops at once)`);
    const again = next().then((signal) => ({ signal }));
    const outcome = await Promise.race([host.drain(graceMs), again]);
    if ('signal' in outcome) log(`${outcome.signal} again: stopping at once`);
    else if (!outcome.finished)
      log(`the grace period ended with ${outcome.cutShort} request(s) still in flight: stopping them`);
    else log('drained: nothing in flight');
  }
  await host.close();
  await backend.close();
  log('stopped');
}
