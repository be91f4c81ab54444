import path from 'node:path';
import type { SimulatorLauncher } from '../profiles/embedded-simulator.js';

/**
 * Launches the real local simulator (src/simulator) on a random loopback port, at demo pacing,
 * with its state under `<dataDir>/simulator` so that jobs survive restarts like real ones.
 * `FRAMEWRIGHT_SIMULATOR_SCENARIO` starts it in a fault scenario (demos, tests).
 */
export function defaultSimulatorLauncher(
  dataDir: string,
  timeScale = 1,
  env: NodeJS.ProcessEnv = process.env,
): SimulatorLauncher {
  return async () => {
    const { startSimulator } = await import('../../../simulator/index.js');
    return startSimulator({
      host: '127.0.0.1',
      port: 0,
      timeScale,
      dataDir: path.join(dataDir, 'simulator'),
      scenario: env.FRAMEWRIGHT_SIMULATOR_SCENARIO || undefined,
    });
  };
}
