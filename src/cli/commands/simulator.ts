import type { Command } from 'commander';
import { SIMULATOR_SCENARIOS } from '../../shared/api/simulator-scenarios.js';
import { lazyAction } from '../lazy-action.js';
import { collect } from './option-values.js';

/**
 * `framewright simulator`: the local simulator of the Public Model and Media API in the
 * foreground, on loopback unless told otherwise. With --json the first stdout line is
 * `{"baseUrl":"http://127.0.0.1:PORT/v1","token":"...","platform":{...}}` (the platform object:
 * runtime and session base URLs, the launch URL, the fixture applications and people).
 */
export function registerSimulatorCommand(program: Command): void {
  program
    .command('simulator')
    .description('run the local simulator of the model gateway (same paths and shapes, synthetic media)')
    .option('--host <host>', 'address to bind (loopback by default; others need --allow-remote)', '127.0.0.1')
    .option('--allow-remote', 'allow a --host reachable from other machines (the local test token is public)')
    .option('--port <port>', 'port (0 picks a free one)', '0')
    .option('--token <token>', 'an extra bearer token, its own identity (repeatable)', collect, [])
    .option('--time-scale <x>', 'job pacing multiplier (1 = demo pacing, tests use e.g. 0.01)', '1')
    .option('--scenario <name>', `fault scenario from the start (${SIMULATOR_SCENARIOS.join(', ')})`)
    .action(lazyAction(() => import('../actions/simulator.js').then((m) => m.runSimulatorCommand)));
}
