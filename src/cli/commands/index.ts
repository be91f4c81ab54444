import type { Command } from 'commander';
import { registerJobCommands } from './jobs.js';
import { registerProfileCommands } from './profiles.js';
import { registerServeCommand } from './serve.js';
import { registerSimulatorCommand } from './simulator.js';
import { registerVideoCommand } from './video.js';

/** Every CLI command registers itself here; one file per command. */
export const commandRegistrations: ReadonlyArray<(program: Command) => void> = [
  registerServeCommand,
  registerSimulatorCommand,
  registerProfileCommands,
  registerVideoCommand,
  registerJobCommands,
];
