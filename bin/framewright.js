#!/usr/bin/env node
// The `framewright` command. It runs the TypeScript sources directly through tsx's loader,
// so `npx framewright` works right after `npm install`, with no build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/main.ts');
process.exitCode = await runCli(process.argv);
