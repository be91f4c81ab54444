import {
  startSimulator,
  type RunningSimulator,
  type SimulatorOptions,
} from '../../../src/simulator/index.js';
import { closeWhenDone } from './cleanup.js';

/** The simulator on a free loopback port at test pacing (0.02), stopped when done. */
export async function openSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  return closeWhenDone(await startSimulator({ port: 0, timeScale: 0.02, ...options }));
}
