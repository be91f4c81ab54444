import type { Command } from 'commander';
import { builtRendererDir } from '../../main/core/app/source-paths.js';
import { lazyAction } from '../lazy-action.js';

/**
 * `framewright serve`: the studio in a browser, on loopback, against the same core as the desktop
 * app. Prints a one-time login URL (the page exchanges its code for the per-run token, kept in memory).
 */
export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('serve the studio to a browser on loopback (the browser host)')
    .option('--host <host>', 'loopback address to bind', '127.0.0.1')
    .option('--port <port>', 'port (0 picks a free one)', '0')
    .option('--renderer-dir <dir>', 'built renderer to serve', builtRendererDir)
    .option('--simulator-time-scale <x>', 'pacing of the embedded simulator (1 = demo pacing)', '1')
    .option(
      '--platform',
      'serve as a platform application (settings from PLATFORM_APP_* and FRAMEWRIGHT_PUBLIC_URL; see docs/operators.md)',
    )
    .action(lazyAction(() => import('../actions/serve.js').then((m) => m.runServeCommand)));
}
