import type { Command } from 'commander';
import { registerServeCommand } from './serve.js';

/** Every CLI command registers itself here; one file per command. */
export const commandRegistrations: ReadonlyArray<(program: Command) => void> = [registerServeCommand];
