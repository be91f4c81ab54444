import type { Command } from 'commander';
import { lazyAction } from '../lazy-action.js';

/**
 * `framewright platform release|status|roles`: Framewright's own developers release it to the
 * platform through the developer control plane (application-platform-api.md, section E).
 *
 * The developer portal's token is read from `--developer-token-file FILE` or the environment
 * variable `FRAMEWRIGHT_DEVELOPER_TOKEN`, never from a command-line value: a value typed on the
 * command line stays in the shell's history and is visible to every user of the machine in the
 * process list.
 */
export function registerPlatformCommands(program: Command): void {
  const platform = program
    .command('platform')
    .description(
      "release Framewright to the platform (developer control plane); see docs/platform-development.md, 'Releasing Framewright'",
    )
    .option(
      '--developer-base-url <url>',
      '{developer_base_url} ending with /api/v1/appstore/developer (or FRAMEWRIGHT_DEVELOPER_BASE_URL)',
    )
    .option(
      '--developer-token-file <file>',
      "a file holding the developer portal's token (or FRAMEWRIGHT_DEVELOPER_TOKEN); never a command-line value",
    )
    .option(
      '--app-id <appId>',
      'the application (default: the developer’s application with the key framewright-studio)',
    );

  platform
    .command('release')
    .description(
      'validate the submission, create the version (idempotent), import --image in parts (resumable), submit, request publishing and follow it',
    )
    .requiredOption('--image <file>', "the backend's container image archive (docker-archive or oci-archive)")
    .option('--display-version <semver>', 'the version shown to people (default: this Framewright’s version)')
    .option('--release-notes <text>', 'release notes (part of the submission: a change makes a new version)')
    .option('--reason <text>', 'the reason given with the publish request')
    .option('--timeout <seconds>', 'how long to follow the publish request before exiting 5 (pending)', '600')
    .action(lazyAction(() => import('../actions/platform-release.js').then((m) => m.runPlatformRelease)));

  platform
    .command('status')
    .description("list the application's versions and their requests")
    .action(lazyAction(() => import('../actions/platform-status.js').then((m) => m.runPlatformStatus)));

  platform
    .command('roles')
    .description(
      'show the role definitions; with --set FILE replace them (roleCode never changes, definitionVersion increases)',
    )
    .option('--set <file>', 'a JSON file with the complete array of role definitions')
    .action(lazyAction(() => import('../actions/platform-roles.js').then((m) => m.runPlatformRoles)));
}
