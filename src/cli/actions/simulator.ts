import type { Command } from 'commander';
import { isLoopbackAddress } from '../../simulator/host-policy.js';
import { startSimulator } from '../../simulator/index.js';
import { ExitCode } from '../exit-codes.js';

interface SimulatorCommandOptions {
  host: string;
  allowRemote?: boolean;
  port: string;
  token: string[];
  timeScale: string;
  scenario?: string;
  /** Global options of the program. */
  dataDir?: string;
  json?: boolean;
}

export const runSimulatorCommand = async (_opts: unknown, command: Command) => {
  const options = command.optsWithGlobals<SimulatorCommandOptions>();
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error('--port must be an integer 0..65535.');
  if (!isLoopbackAddress(options.host) && !options.allowRemote) {
    process.stderr.write(
      `framewright: --host ${options.host} is reachable from other machines and the simulator's local test token is public; pass --allow-remote to bind there on purpose.\n`,
    );
    process.exitCode = ExitCode.invalidInput;
    return;
  }
  const timeScale = Number(options.timeScale);
  if (!Number.isFinite(timeScale) || timeScale < 0)
    throw new Error('--time-scale must be a non-negative number.');
  const simulator = await startSimulator({
    host: options.host,
    allowRemote: options.allowRemote ?? false,
    port,
    tokens: options.token,
    timeScale,
    scenario: options.scenario,
    dataDir: options.dataDir,
  });
  if (options.json) {
    process.stdout.write(
      JSON.stringify({
        baseUrl: simulator.baseUrl,
        token: simulator.token,
        platform: simulator.platform,
      }) + '\n',
    );
  } else {
    process.stdout.write(
      `Framewright simulator listening at ${simulator.baseUrl}\n` +
        `Local test token: ${simulator.token}\n` +
        (options.token.length ? `Extra identities: ${options.token.length}\n` : '') +
        (options.scenario ? `Scenario: ${options.scenario}\n` : '') +
        'Press Ctrl+C to stop.\n',
    );
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await simulator.close();
};
