import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import type { AppCore } from '../../main/core/app/app-core.js';
import { defaultDataDir } from '../../main/core/app/data-dir.js';
import { defaultSimulatorLauncher } from '../../main/core/app/default-simulator-launcher.js';
import { startBrowserHost } from '../../main/host/browser-host.js';
import { openingCoreParts } from '../../main/host/opening-core.js';
import { BROWSER_HOST } from '../../main/core/library/studio-host.js';

interface ServeOptions {
  host: string;
  port: string;
  rendererDir: string;
  simulatorTimeScale: string;
  dataDir?: string;
  json?: boolean;
  platform?: boolean;
}

export const runServeCommand = async (_opts: unknown, command: Command) => {
  const options = command.optsWithGlobals<ServeOptions>();
  if (options.platform) {
    const { runServePlatform } = await import('./serve-platform.js');
    return runServePlatform(command);
  }
  const dataDir = options.dataDir ?? defaultDataDir();
  const timeScale = Number(options.simulatorTimeScale);
  if (!Number.isFinite(timeScale) || timeScale <= 0)
    throw new Error('--simulator-time-scale must be a positive number.');
  // The host listens, and the page loads, while the core (the bridge contract's schemas, the
  // journal, the keychain probe) is still opening: bridge calls wait for it.
  const opening: Promise<AppCore> = import('../../main/core/app/app-core.js').then(({ createAppCore }) =>
    createAppCore({
      dataDir,
      host: BROWSER_HOST,
      launchSimulator: defaultSimulatorLauncher(dataDir, timeScale),
    }),
  );
  let host;
  try {
    host = await startBrowserHost({
      ...openingCoreParts(opening),
      rendererDir: options.rendererDir,
      host: options.host,
      port: Number(options.port),
    });
  } catch (error) {
    await opening.then((core) => core.close()).catch(() => undefined);
    throw error;
  }
  const launchUrl = host.issueLaunchUrl();
  if (options.json) {
    process.stdout.write(
      JSON.stringify({ origin: host.origin, launchUrl, token: host.token, dataDir }) + '\n',
    );
  } else {
    process.stdout.write(
      `Framewright studio is served at ${host.origin}\nOpen this one-time link: ${launchUrl}\n` +
        'Press Enter here for another one-time link (each signs in one browser tab).\n',
    );
  }
  let core: AppCore;
  try {
    core = await opening;
  } catch (error) {
    // the address was printed, but nothing can be served: say why and end, as before it listened
    await host.close();
    throw error;
  }
  // the token lives in each tab's memory, so a new tab needs a new link: one per line typed
  const lines = createInterface({ input: process.stdin });
  lines.on('line', () => {
    const another = host.issueLaunchUrl();
    process.stdout.write(
      options.json ? JSON.stringify({ launchUrl: another }) + '\n' : `Open this one-time link: ${another}\n`,
    );
  });
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  lines.close();
  process.stdin.destroy();
  await host.close();
  await core.close();
};
