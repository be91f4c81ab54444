import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/** `services`, `login` and `profiles`: discovery and identities. */
export function registerProfileCommands(program: Command): void {
  program
    .command('services')
    .description('list the services visible to the profile (GET /services)')
    .option('--kind <serviceKind>', 'only this service kind (e.g. video_generation)')
    .action(lazyAction(() => import('../actions/profiles.js').then((m) => m.runServicesCommand)));

  program
    .command('login')
    .description(
      'store a personal key (or debug token) for a profile in the OS keychain; the secret is read from stdin',
    )
    .usage(
      '--profile <name> --base-url <url> [--debug-token-expires <iso>] < key.txt\n' +
        '       framewright [--profile <name>] login --debug --developer-url <url> --app <appId> --app-version <versionId> [--test-account <name>] [--developer-token-file <file>] [--portal-url <url>] [--open]',
    )
    .option(
      '--debug-token-expires <iso>',
      'store a debug token (online debugging runtime) that expires at this time',
    )
    .option(
      '--debug',
      "pair for online debugging (PKCE): the developer approves in the platform's developer portal, and the 1-hour CLI session is stored as a debug profile in the OS keychain",
    )
    .option('--developer-url <url>', "with --debug: the platform's developer API ({developer_base_url})")
    .option('--app <appId>', 'with --debug: the application to debug')
    .option(
      '--app-version <versionId>',
      'with --debug: the version of the application the session is bound to',
    )
    .option(
      '--test-account <name>',
      "with --debug: act as this test account of the application's list (its name or record id, never a user id); needs the developer token. Calls are billed to that account. Default: yourself",
    )
    .option(
      '--developer-token-file <file>',
      'with --debug: a file holding your developer portal session token (or set FRAMEWRIGHT_DEVELOPER_TOKEN); used only to read the test-account list and check the version, never stored',
    )
    .option(
      '--portal-url <url>',
      'with --debug: the developer portal page that approves the pairing (default: {origin of --developer-url}/platform/developer-portal)',
    )
    .option('--open', 'with --debug: open the portal page in the default browser (otherwise it is printed)')
    .option('--pairing-timeout <seconds>', 'with --debug: how long to wait for the approval (default 300)')
    .addHelpText(
      'after',
      '\nWith --debug, the page to open is printed on stderr; the code comes back to a listener on 127.0.0.1 and is\n' +
        'exchanged with the PKCE verifier, which never leaves this process. The profile name defaults to debug-<appId>.\n' +
        'Then: framewright --profile <name> video … (refused locally once the session has ended).',
    )
    .action(lazyAction(() => import('../actions/profiles.js').then((m) => m.runLoginCommand)));

  program
    .command('profiles')
    .description('list profiles (never their keys)')
    .option('--use <name>', 'make this profile the active one')
    .action(lazyAction(() => import('../actions/profiles.js').then((m) => m.runProfilesCommand)));
}
