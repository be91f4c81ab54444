/**
 * The browser host's world: a fresh data folder with a stand-in built renderer, and the real core
 * over it (no simulator, no keychain, nothing resumed at start); closed and removed when done.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { UnavailableSecretStore } from '../../../src/main/core/secrets/unavailable-secret-store.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { closeWhenDone } from './cleanup.js';
import { tempFolder } from './temp-folder.js';

export interface HostTestWorld {
  dataDir: string;
  /** Holds an index.html whose title is "studio". */
  rendererDir: string;
  core: AppCore;
  close(): Promise<void>;
}

export async function openHostTestWorld(prefix: string): Promise<HostTestWorld> {
  const dataDir = tempFolder(prefix);
  const rendererDir = path.join(dataDir, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>studio</title>');
  const core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: () => Promise.reject(new Error('no simulator in this test')),
    secretStore: new UnavailableSecretStore('not needed in this test'),
    resumeOnStart: false,
  });
  return closeWhenDone({ dataDir, rendererDir, core, close: () => core.close() });
}
