/**
 * The platform's side of every platform world: the simulator (on its own data folder, at platform
 * test pacing 0.01) with Framewright's fixture application, and what the platform's people and
 * administrators do there — open the application (a launch code), lose or regain access, move the
 * clock. Stopped, and its folder removed, when done.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import type { SimulatorOptions, RunningSimulator } from '../../../src/simulator/index.js';
import { launchCodeOf, platformJobsOfSession } from '../platform-simulator.js';
import { openSimulator } from './simulator.js';
import { tempFolder } from './temp-folder.js';

/** Framewright's application at the simulated platform. */
export const APP_KEY = 'framewright-studio';

export type PlatformUser = 'member' | 'personal' | 'manager';

export interface PlatformSimulatorWorld {
  /** A fresh folder of this world (the simulator's data is in `sim/`). */
  root: string;
  sim: RunningSimulator;
  /** Framewright's fixture application (its key and credential). */
  app: RunningSimulator['platform']['apps'][number];
  /** Opens the application for a fixture person, as the application center does. */
  launchCode(user: PlatformUser | string): Promise<string>;
  /** An administrator changes a person's access to the application (`revoked` ends their sessions). */
  setAccess(user: PlatformUser | string, access: 'granted' | 'revoked'): Promise<void>;
  /** Moves the simulator's clock. */
  advance(seconds: number): Promise<void>;
  /** The platform's jobs of a session's person (one events snapshot). */
  jobsOfSession(sessionId: string): Promise<{ platformJobId: string; clientTaskId: string }[]>;
}

export async function openPlatformSimulator(
  options: SimulatorOptions & { prefix?: string } = {},
): Promise<PlatformSimulatorWorld> {
  const { prefix = 'fw-platform-', ...simulatorOptions } = options;
  const root = tempFolder(prefix);
  const sim = await openSimulator({ timeScale: 0.01, dataDir: path.join(root, 'sim'), ...simulatorOptions });
  const app = sim.platform.apps.find((a) => a.appKey === APP_KEY)!;
  const asSimulator = { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' };
  return {
    root,
    sim,
    app,
    launchCode: (user) => launchCodeOf(sim, APP_KEY, user),
    async setAccess(user, access) {
      const res = await fetch(new URL('/v1/_simulator/platform/access', sim.platform.launchUrl), {
        method: 'POST',
        headers: asSimulator,
        body: JSON.stringify({ appKey: APP_KEY, user, access }),
      });
      if (res.status !== 200) throw new Error(`access: HTTP ${res.status}`);
    },
    async advance(seconds) {
      const res = await fetch(`${sim.baseUrl}/_simulator/clock`, {
        method: 'POST',
        headers: asSimulator,
        body: JSON.stringify({ advanceSeconds: seconds }),
      });
      if (!res.ok) throw new Error(`clock: ${res.status}`);
    },
    jobsOfSession: (sessionId) => platformJobsOfSession(sim, APP_KEY, sessionId),
  };
}

/** A free loopback port, so a host's public origin is known before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Where a `serve --platform` backend of a world lives: its data folder under `root`, a stub
 * renderer page, and a free loopback port with its origin.
 */
export async function backendPlace(
  root: string,
): Promise<{ dataDir: string; rendererDir: string; port: number; origin: string }> {
  const rendererDir = path.join(root, 'renderer');
  mkdirSync(rendererDir, { recursive: true });
  writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Framewright</title>');
  const port = await freePort();
  return { dataDir: path.join(root, 'data'), rendererDir, port, origin: `http://127.0.0.1:${port}` };
}
