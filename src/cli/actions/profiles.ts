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

export const runLoginCommand = async (loginOptions: { debugTokenExpires?: string }, command: Command) => {
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
      if (cli.json)
        printJson({
          id: profile.id,
          name: profile.name,
          kind: profile.kind,
          baseUrl: profile.baseUrl,
          hasSecret: profile.hasSecret,
        });
      else
        process.stdout.write(
          `Stored the ${profile.kind === 'debug' ? 'debug token' : 'key'} for "${profile.name}" in ${cli.core.profiles.keyStore().detail}.\n`,
        );
      return ExitCode.ok;
    },
    { resolveIdentity: false },
  );
};

export const runProfilesCommand = async (opts: { use?: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    const profiles = cli.core.profiles;
    if (opts.use) await profiles.setActive(profiles.find(opts.use).id);
    const list = profiles.listing();
    if (cli.json) printJson({ object: 'list', data: list, secretStore: profiles.keyStore() });
    else {
      for (const p of list) {
        process.stdout.write(
          `${p.active ? '*' : ' '} ${p.name.padEnd(24)} ${p.kind.padEnd(10)} ${p.baseUrl ?? '(embedded)'}${p.kind !== 'simulator' ? (p.hasSecret ? `  key stored${p.secretBackend ? ` (${p.secretBackend})` : ''}` : '  no key') : ''}\n`,
        );
      }
      process.stdout.write(`Secrets: ${profiles.keyStore().detail}\n`);
    }
    return ExitCode.ok;
  });
