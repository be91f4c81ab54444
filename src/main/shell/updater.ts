import type { ProfileKind } from '../../shared/bridge/contract.js';

export interface UpdatePolicyInput {
  isPackaged: boolean;
  activeProfileKind: ProfileKind;
  env: NodeJS.ProcessEnv;
}

/**
 * Updates are checked only in packaged builds, never in development, never while the app runs
 * the local simulator (demos must not change under the presenter), and never when disabled by
 * `FRAMEWRIGHT_DISABLE_UPDATES=1`.
 */
export function shouldCheckForUpdates({ isPackaged, activeProfileKind, env }: UpdatePolicyInput): boolean {
  if (!isPackaged) return false;
  if (activeProfileKind === 'simulator') return false;
  if (env.FRAMEWRIGHT_DISABLE_UPDATES === '1') return false;
  return true;
}

export interface UpdaterLike {
  autoDownload: boolean;
  checkForUpdatesAndNotify(): Promise<unknown>;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** Starts a background update check with electron-updater; failures are logged, never fatal. */
export function startUpdateCheck(updater: UpdaterLike, log: (message: string) => void): void {
  updater.autoDownload = true;
  updater.on('error', (error) => log(`update check failed: ${error.message}`));
  updater.checkForUpdatesAndNotify().catch((error: unknown) => log(`update check failed: ${String(error)}`));
}
