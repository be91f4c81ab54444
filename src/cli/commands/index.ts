import type { Command } from 'commander';
import { registerServeCommand } from './serve.js';
import { registerSimulatorCommand } from './simulator.js';

/** Every CLI command registers itself here; one file per command. */
export const commandRegistrations: ReadonlyArray<(program: Command) => void> = [
  registerServeCommand,
  registerSimulatorCommand,
];
