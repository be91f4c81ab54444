import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { defaultDataDir } from '../main/core/app/data-dir.js';
import { AppError } from '../main/core/errors.js';
import { PlatformReleaseFeature } from '../main/core/platform-release/platform-release.js';
import { openJournal, type Journal } from '../main/core/journal/open-journal.js';
import { DeveloperClient } from '../main/core/api-clients/developer/developer-client.js';
import type { GlobalOptions } from './cli-context.js';
import { releaseCrashHook } from './crash-points.js';
import type { ExitCode } from './exit-codes.js';

/** The options every `platform` subcommand inherits. */
export interface PlatformOptions extends GlobalOptions {
  developerBaseUrl?: string;
  developerTokenFile?: string;
  appId?: string;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * The developer portal's token: from `--developer-token-file` or `FRAMEWRIGHT_DEVELOPER_TOKEN`,
 * never a command-line value (it would stay in the shell's history and the process list). It lives
 * in this process's memory only: never written, logged or printed.
 */
export async function developerToken(options: PlatformOptions, env = process.env): Promise<string> {
  let token: string | undefined;
  if (options.developerTokenFile) {
    try {
      token = (await readFile(options.developerTokenFile, 'utf8')).trim();
    } catch {
      throw new AppError(
        'release.token_missing',
        `--developer-token-file ${options.developerTokenFile}: the file cannot be read.`,
      );
    }
  } else token = env.FRAMEWRIGHT_DEVELOPER_TOKEN?.trim();
  if (!token)
    throw new AppError(
      'release.token_missing',
      "No developer token: put the developer portal's token in a file and pass --developer-token-file FILE, or set FRAMEWRIGHT_DEVELOPER_TOKEN (never a command-line value: shell history keeps it).",
    );
  if (/\s/.test(token))
    throw new AppError(
      'release.token_missing',
      'The developer token file holds more than one token (whitespace inside).',
    );
  return token;
}

/** `{developer_base_url}`: https, or http on loopback only (the token must not travel in clear). */
export function developerBaseUrl(options: PlatformOptions, env = process.env): string {
  const value = options.developerBaseUrl ?? env.FRAMEWRIGHT_DEVELOPER_BASE_URL;
  if (!value)
    throw new AppError(
      'release.insecure_base_url',
      'No developer control plane address: pass --developer-base-url URL (ending with /api/v1/appstore/developer) or set FRAMEWRIGHT_DEVELOPER_BASE_URL.',
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('release.insecure_base_url', `--developer-base-url ${value} is not a URL.`);
  }
  if (url.username || url.password || url.search)
    throw new AppError('release.insecure_base_url', '--developer-base-url carries no credentials or query.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname)))
    throw new AppError(
      'release.insecure_base_url',
      `--developer-base-url must be https (http only on loopback): the developer token would travel unencrypted to ${url.origin}.`,
    );
  return url.href.replace(/\/+$/, '');
}

/**
 * Runs a `platform` subcommand over the developer control plane and the data folder's journal
 * alone (no profile, keychain or simulator: the developer's token is not a profile). Errors are
 * reported as everywhere (`reportError`); the journal is always closed.
 */
export async function withPlatformRelease(
  command: Command,
  body: (feature: PlatformReleaseFeature, options: PlatformOptions, json: boolean) => Promise<ExitCode>,
): Promise<void> {
  const options = command.optsWithGlobals<PlatformOptions>();
  const json = Boolean(options.json);
  let journal: Journal | undefined;
  try {
    const baseUrl = developerBaseUrl(options);
    const token = await developerToken(options);
    const client = new DeveloperClient({ baseUrl, token: () => token });
    journal = openJournal({ path: path.join(options.dataDir ?? defaultDataDir(), 'journal.sqlite') });
    const afterPartRecorded = releaseCrashHook();
    const feature = new PlatformReleaseFeature({
      client,
      imports: journal.platformImageImports,
      ...(afterPartRecorded ? { afterPartRecorded } : {}),
    });
    process.exitCode = await body(feature, options, json);
  } catch (error) {
    const { reportError } = await import('./cli-context.js');
    process.exitCode = reportError(error, json);
  } finally {
    journal?.close();
  }
}
