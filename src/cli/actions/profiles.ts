import type { Command } from 'commander';
import { isCallable, notCallableReason } from '../../shared/api/service-availability.js';
import { discoverServices } from '../../main/core/video/discovery.js';
import { AppError } from '../../main/core/errors.js';
import { normaliseBaseUrl } from '../../main/core/journal/profiles-repository.js';
import { SecretStoreError } from '../../main/core/secrets/secret-store.js';
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
    const client = await cli.core.profiles.clientFor(cli.profileId);
    const found = await discoverServices(cli.core.journal, client, { serviceKind: opts.kind });
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
      // the options are checked first, then the key store, and only then is the key read: no one
      // types or pipes a key that cannot be kept
      const baseUrl = normaliseBaseUrl(opts.baseUrl);
      const kind = opts.debugTokenExpires ? 'debug' : 'personal';
      const expires = opts.debugTokenExpires ? Date.parse(opts.debugTokenExpires) : undefined;
      if (opts.debugTokenExpires && Number.isNaN(expires))
        throw new AppError('usage', '--debug-token-expires must be an ISO date-time.');
      const keychain = cli.core.secrets.describe();
      if (!keychain.canStore) throw new SecretStoreError('unavailable', keychain.detail);
      const secret = await readStdin();
      const existing = cli.core.journal.profiles.getByName(opts.profile);
      let profile;
      if (existing) {
        if (existing.kind !== kind) {
          throw new AppError(
            'usage',
            `The profile "${existing.name}" is a ${existing.kind} profile; credentials of different kinds are never mixed.`,
          );
        }
        // the key is stored first; the base URL changes with it, or not at all
        profile = await cli.core.credentials.replaceCredential(existing.id, {
          baseUrl,
          secret,
          ...(expires !== undefined ? { debugTokenExpiresAt: expires } : {}),
        });
      } else {
        profile = await cli.core.credentials.createProfile({
          name: opts.profile,
          kind,
          baseUrl,
          debugTokenExpiresAt: expires,
          secret,
        });
      }
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
          `Stored the ${kind === 'debug' ? 'debug token' : 'key'} for "${profile.name}" in ${cli.core.secrets.describe().detail}.\n`,
        );
      return ExitCode.ok;
    },
    { resolveIdentity: false },
  );
};

export const runProfilesCommand = async (opts: { use?: string }, command: Command) =>
  withCliCore(command, async (cli) => {
    if (opts.use) cli.core.profiles.setActive(cli.core.profiles.find(opts.use).id);
    const active = cli.core.profiles.activeId();
    const list = cli.core.profiles.list().map((p) => ({
      ...cli.core.profiles.summary(p, null),
      // which key store holds the key (recorded when it was stored; read only from there)
      secretBackend: p.secretBackend ?? null,
      active: p.id === active,
    }));
    if (cli.json) printJson({ object: 'list', data: list, secretStore: cli.core.secrets.describe() });
    else {
      for (const p of list) {
        process.stdout.write(
          `${p.active ? '*' : ' '} ${p.name.padEnd(24)} ${p.kind.padEnd(10)} ${p.baseUrl ?? '(embedded)'}${p.kind !== 'simulator' ? (p.hasSecret ? `  key stored${p.secretBackend ? ` (${p.secretBackend})` : ''}` : '  no key') : ''}\n`,
        );
      }
      process.stdout.write(`Secrets: ${cli.core.secrets.describe().detail}\n`);
    }
    return ExitCode.ok;
  });
