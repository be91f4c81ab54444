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
    .usage('--profile <name> --base-url <url> [--debug-token-expires <iso>] < key.txt')
    .option(
      '--debug-token-expires <iso>',
      'store a debug token (online debugging runtime) that expires at this time',
    )
    .action(lazyAction(() => import('../actions/profiles.js').then((m) => m.runLoginCommand)));

  program
    .command('profiles')
    .description('list profiles (never their keys)')
    .option('--use <name>', 'make this profile the active one')
    .action(lazyAction(() => import('../actions/profiles.js').then((m) => m.runProfilesCommand)));
}
