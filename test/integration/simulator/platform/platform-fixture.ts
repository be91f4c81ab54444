import { afterAll, beforeAll } from 'vitest';
import type { RunningSimulator, SimulatorOptions } from '../../../../src/simulator/index.js';
import type { Json } from '../client.js';
import { removeScratch } from '../fixtures.js';
import { startPlatformSimulator, type PlatformApp, type PlatformClient } from './platform-client.js';
import { LoopbackStorage } from './storage-server.js';

/** The fixture people of the simulated platform. */
export type PlatformPerson = 'manager' | 'member' | 'personal';

/** What every platform test file starts from: one simulator, its two applications, sessions, storage. */
export interface PlatformWorld {
  sim: RunningSimulator;
  /** Validates every JSON answer against the platform OpenAPI document. */
  client: PlatformClient;
  /** The first fixture application (Framewright as deployed on the platform). */
  studio: PlatformApp;
  /** The second fixture application (the one the studio depends on). */
  helper: PlatformApp;
  /** A RuntimeSession of the studio for each person named in `sessions` (in that order). */
  sessions: Partial<Record<PlatformPerson, Json>>;
  /** The application's own storage on loopback, started; `readUrl` inputs are put there. */
  storage: LoopbackStorage;
}

export interface PlatformWorldOptions {
  /** Options of `startSimulator` (time scale 0.01 unless given). */
  simulator?: SimulatorOptions;
  /** People for whom the studio is opened and its launch code exchanged before the tests. */
  sessions?: PlatformPerson[];
}

/**
 * Starts one platform world for the test file (in `beforeAll`) and closes it with its storage and
 * scratch files (in `afterAll`); `onOpen` receives it before the first test.
 */
export function usePlatformWorld(
  options: PlatformWorldOptions,
  onOpen: (world: PlatformWorld) => void,
): void {
  const storage = new LoopbackStorage();
  let sim: RunningSimulator | undefined;
  beforeAll(async () => {
    const started = await startPlatformSimulator(options.simulator);
    sim = started.sim;
    const { client } = started;
    const studio = client.app(0);
    const sessions: PlatformWorld['sessions'] = {};
    for (const person of options.sessions ?? []) sessions[person] = await client.openSession(studio, person);
    await storage.start();
    onOpen({ sim, client, studio, helper: client.app(1), sessions, storage });
  });
  afterAll(async () => {
    await sim?.close();
    await storage.stop();
    removeScratch();
  });
}
