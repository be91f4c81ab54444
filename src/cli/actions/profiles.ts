import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { isCallable, notCallableReason } from '../../shared/api/service-availability.js';
import { AppError } from '../../main/core/errors.js';
import { printJson, withCliCore } from '../cli-context.js';
import { ExitCode } from '../exit-codes.js';

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    throw new AppError(
      'usage',
      'Pipe the key on standard input, e.g. `framewright login … < key.txt`; it is never taken as an argument.',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const runServicesCommand = async (opts: { kind?: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    const found = await cli.core.catalog.discover(cli.profileId, { serviceKind: opts.kind });
    if (cli.json) {
      printJson({
        object: 'list',
        data: found.services,
        fromCache: found.fromCache,
        fetchedAt: new Date(found.fetchedAt).toISOString(),
      });
    } else {
      if (found.fromCache)
        process.stdout.write(`(offline: last known list from ${new Date(found.fetchedAt).toISOString()})\n`);
      for (const s of found.services) {
        process.stdout.write(
          `${isCallable(s) ? '✓' : '✗'} ${s.modelAlias.padEnd(28)} ${s.serviceKind}${s.serviceDisplayName ? `  ${s.serviceDisplayName}` : ''}${isCallable(s) ? '' : `  (not available: ${notCallableReason(s)})`}\n`,
        );
      }
    }
    return ExitCode.ok;
  });

export interface DebugLoginOptions {
  debug?: boolean;
  developerUrl?: string;
  app?: string;
  appVersion?: string;
  testAccount?: string;
  developerTokenFile?: string;
  portalUrl?: string;
  open?: boolean;
  pairingTimeout?: string;
}

const DEVELOPER_TOKEN_ENV = 'FRAMEWRIGHT_DEVELOPER_TOKEN';

async function developerToken(file: string | undefined): Promise<string | undefined> {
  if (file) {
    const text = await readFile(file, 'utf8').catch(() => {
      throw new AppError('usage.file', `Cannot read the developer token file ${file}.`);
    });
    const token = text.trim();
    if (!token) throw new AppError('usage.file', `The developer token file ${file} is empty.`);
    return token;
  }
  const fromEnv = process.env[DEVELOPER_TOKEN_ENV]?.trim();
  return fromEnv || undefined;
}

function openInBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // the address is printed anyway
  }
}

function minutesLeft(expiresAt: number): string {
  const minutes = Math.max(0, Math.round((expiresAt - Date.now()) / 60_000));
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

/** `login --debug`: the PKCE pairing (src/main/core/debug-pairing/). */
async function runDebugLogin(
  opts: DebugLoginOptions & { debugTokenExpires?: string },
  command: Command,
): Promise<void> {
  const globals = command.optsWithGlobals<{ profile?: string; baseUrl?: string }>();
  await withCliCore(
    command,
    async (cli) => {
      if (globals.baseUrl)
        throw new AppError(
          'usage',
          'login --debug takes --developer-url, not --base-url: the session brings its own addresses.',
        );
      if (opts.debugTokenExpires)
        throw new AppError(
          'usage',
          'Use either --debug (pairing) or --debug-token-expires (a pasted token), not both.',
        );
      if (!opts.developerUrl || !opts.app || !opts.appVersion)
        throw new AppError(
          'usage',
          'login --debug needs --developer-url URL, --app APP_ID and --app-version VERSION_ID.',
        );
      const timeoutSeconds = opts.pairingTimeout === undefined ? 300 : Number(opts.pairingTimeout);
      if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1 || timeoutSeconds > 3600)
        throw new AppError('usage', '--pairing-timeout is a whole number of seconds, 1..3600.');
      const pairing = cli.core.debugPairing;
      const started = await pairing.start({
        profileName: globals.profile ?? `debug-${opts.app}`,
        developerBaseUrl: opts.developerUrl,
        portalUrl: opts.portalUrl,
        appId: opts.app,
        versionId: opts.appVersion,
        testAccount: opts.testAccount,
        developerToken: await developerToken(opts.developerTokenFile),
        timeoutMs: timeoutSeconds * 1000,
      });
      const stop = () => pairing.cancel(started.pairingId);
      process.once('SIGINT', stop);
      try {
        process.stderr.write(
          `Approve the pairing in the developer portal${started.testAccount ? ` (as test account "${started.testAccount.displayName}")` : ''}:\n` +
            `  ${started.portalUrl}\n` +
            `Waiting for the approval on ${new URL(started.redirectUri).host} (up to ${Math.round(timeoutSeconds / 60) || 1} min; Ctrl-C cancels)…\n`,
        );
        if (opts.open) openInBrowser(started.portalUrl);
        const profile = await pairing.wait(started.pairingId);
        const session = await pairing.session(profile.id);
        if (cli.json) {
          printJson({
            ...profileJson(profile),
            expiresAt: session ? new Date(session.expiresAt).toISOString() : null,
            appId: session?.appId ?? null,
            appKey: session?.appKey ?? null,
            appVersionId: session?.appVersionId ?? null,
            testAccount: session?.testAccount ?? null,
            billed: true,
          });
        } else {
          const who = session?.testAccount
            ? `test account "${session.testAccount.displayName}"${session.testAccount.organizationName ? ` (${session.testAccount.organizationName})` : ''}`
            : 'you (the developer)';
          process.stdout.write(
            `Paired "${profile.name}" for online debugging of ${session?.appKey ?? opts.app} version ${session?.appVersionId ?? opts.appVersion}.\n` +
              `Calls act as ${who} and are billed to that account.\n` +
              `The session ends at ${session ? new Date(session.expiresAt).toISOString() : '?'} (in ${session ? minutesLeft(session.expiresAt) : '?'}); then pair again with framewright login --debug.\n` +
              `Stored in ${cli.core.profiles.keyStore().detail}. Use it with: framewright --profile "${profile.name}" video …\n`,
          );
        }
        return ExitCode.ok;
      } finally {
        process.off('SIGINT', stop);
      }
    },
    { resolveIdentity: false },
  );
}

export const runLoginCommand = async (
  loginOptions: { debugTokenExpires?: string } & DebugLoginOptions,
  command: Command,
) => {
  if (loginOptions.debug)
    return runDebugLogin(loginOptions as DebugLoginOptions & { debugTokenExpires?: string }, command);
  // --profile and --base-url are the program's global options, read here as the login target
  const globals = command.optsWithGlobals<{ profile?: string; baseUrl?: string }>();
  const opts = { ...loginOptions, profile: globals.profile ?? '', baseUrl: globals.baseUrl ?? '' };
  await withCliCore(
    command,
    async (cli) => {
      if (!opts.profile || !opts.baseUrl) {
        throw new AppError('usage', 'login needs --profile NAME and --base-url URL (including /v1).');
      }
      const expires = opts.debugTokenExpires ? Date.parse(opts.debugTokenExpires) : undefined;
      if (opts.debugTokenExpires && Number.isNaN(expires))
        throw new AppError('usage', '--debug-token-expires must be an ISO date-time.');
      // the feature checks the URL and the key store before the key is read from standard input
      const profile = await cli.core.profiles.login({
        name: opts.profile,
        baseUrl: opts.baseUrl,
        debugTokenExpiresAt: expires,
        readSecret: readStdin,
      });
      if (cli.json) printJson(profileJson(profile));
      else
        process.stdout.write(
          `Stored the ${profile.kind === 'debug' ? 'debug token' : 'key'} for "${profile.name}" in ${cli.core.profiles.keyStore().detail}.\n`,
        );
      return ExitCode.ok;
    },
    { resolveIdentity: false },
  );
};

/** A debug profile's end, as the listing shows it. */
function debugExpiry(expiresAt: number | undefined): string {
  if (expiresAt === undefined) return '';
  const left = expiresAt - Date.now();
  return left <= 0
    ? `  ended ${new Date(expiresAt).toISOString()} (pair again: framewright login --debug)`
    : `  ends in ${minutesLeft(expiresAt)}`;
}

export const runProfilesCommand = async (opts: { use?: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    const profiles = cli.core.profiles;
    if (opts.use) await profiles.setActive(profiles.find(opts.use).id);
    const list = profiles.listing();
    if (cli.json) printJson({ object: 'list', data: list, secretStore: profiles.keyStore() });
    else {
      for (const p of list) {
        process.stdout.write(
          `${p.active ? '*' : ' '} ${p.name.padEnd(24)} ${p.kind.padEnd(10)} ${p.baseUrl ?? '(embedded)'}${p.kind !== 'simulator' ? (p.hasSecret ? `  key stored${p.secretBackend ? ` (${p.secretBackend})` : ''}` : '  no key') : ''}${debugExpiry(profiles.find(p.id).debugTokenExpiresAt)}\n`,
        );
      }
      process.stdout.write(`Secrets: ${profiles.keyStore().detail}\n`);
    }
    return ExitCode.ok;
  });

/** A stored profile as `--json` prints it: what it is and whether a secret is stored, never the secret. */
function profileJson(profile: {
  id: string;
  name: string;
  kind: string;
  baseUrl?: string | null;
  hasSecret: boolean;
}) {
  const { id, name, kind, baseUrl, hasSecret } = profile;
  return { id, name, kind, baseUrl, hasSecret };
}
