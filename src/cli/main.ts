import { Command, CommanderError } from 'commander';
import { commandRegistrations } from './commands/index.js';
import { ExitCode } from './exit-codes.js';
import { APP_VERSION } from '../shared/app-version.js';
import { MediaSettingError, checkMediaSettings } from '../main/core/media-tools/media-settings.js';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('framewright')
    .description('Framewright — headless media studio over the same core as the desktop app.')
    .version(APP_VERSION)
    .option('--data-dir <dir>', 'data folder (journal, library); defaults to the app data folder')
    .option('--profile <name>', 'act as this profile (default: the active one, else the local simulator)')
    .option(
      '--base-url <url>',
      'a base URL including /v1, with the key in FRAMEWRIGHT_API_KEY (never stored)',
    )
    .option('--json', 'print one JSON document on stdout')
    .showHelpAfterError()
    .exitOverride();
  for (const register of commandRegistrations) register(program);
  return program;
}

/** Runs the CLI and returns the process exit code (see exit-codes.ts). */
export async function runCli(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    // a media setting with a value it does not take stops every command at start, not its first film
    checkMediaSettings();
    await program.parseAsync(argv);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return ExitCode.ok;
      return ExitCode.invalidInput;
    }
    if (error instanceof MediaSettingError) {
      process.stderr.write(`framewright: ${error.message}\n`);
      return ExitCode.invalidInput;
    }
    process.stderr.write(`framewright: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.serviceError;
  }
}
