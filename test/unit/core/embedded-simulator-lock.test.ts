import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EmbeddedSimulator,
  type RunningSimulator,
  type SimulatorLauncher,
} from '../../../src/main/core/profiles/embedded-simulator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A launcher that starts a tiny loopback server standing for the simulator, and counts starts. */
function countingLauncher(): { launch: SimulatorLauncher; starts: () => number } {
  let starts = 0;
  return {
    starts: () => starts,
    launch: async (): Promise<RunningSimulator> => {
      starts += 1;
      const server = createServer((_req, res) => res.end('{}'));
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return {
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        token: 'local-test-token',
        close: () => new Promise<void>((r) => server.close(() => r())),
        setScenario: () => undefined,
      };
    },
  };
}

const lockIn = () => path.join(tempFolder('fw-simlock-'), 'simulator.lock');

/** The pid of a process that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(child.stdout.toString());
}

describe('one embedded simulator per data folder', () => {
  it('starts it once when two users of the folder ask at once; the second uses the first', async () => {
    const lockFile = lockIn();
    const first = countingLauncher();
    const second = countingLauncher();
    const a = new EmbeddedSimulator(first.launch, { lockFile });
    const b = new EmbeddedSimulator(second.launch, { lockFile });
    const [simA, simB] = await Promise.all([a.get(), b.get()]);
    expect(first.starts() + second.starts()).toBe(1);
    expect(simB.baseUrl).toBe(simA.baseUrl);
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid: number; baseUrl: string };
    expect(lock).toMatchObject({ pid: process.pid, baseUrl: simA.baseUrl });
    await Promise.all([a.close(), b.close()]);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock left by a dead process, and one whose simulator no longer answers', async () => {
    const lockFile = lockIn();
    writeFileSync(
      lockFile,
      JSON.stringify({ pid: deadPid(), host: os.hostname(), baseUrl: 'http://127.0.0.1:9/v1', token: 't' }),
    );
    const launcher = countingLauncher();
    const sim = new EmbeddedSimulator(launcher.launch, { lockFile });
    const running = await sim.get();
    expect(launcher.starts()).toBe(1);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toMatchObject({
      pid: process.pid,
      baseUrl: running.baseUrl,
    });
    await sim.close();

    // a live pid (this one) whose address answers nothing: the simulator is gone
    writeFileSync(
      lockFile,
      JSON.stringify({ pid: process.pid, host: os.hostname(), baseUrl: 'http://127.0.0.1:9/v1', token: 't' }),
    );
    const again = new EmbeddedSimulator(launcher.launch, { lockFile });
    await again.get();
    expect(launcher.starts()).toBe(2);
    await again.close();
  });

  it("the user of another process's simulator starts its own once that process has closed it", async () => {
    const lockFile = lockIn();
    const owner = countingLauncher();
    const user = countingLauncher();
    const a = new EmbeddedSimulator(owner.launch, { lockFile });
    const b = new EmbeddedSimulator(user.launch, { lockFile });
    const simA = await a.get();
    expect((await b.get()).baseUrl).toBe(simA.baseUrl);
    await a.close();
    const simB = await b.get();
    expect(user.starts()).toBe(1);
    expect(simB.baseUrl).not.toBe(simA.baseUrl);
    await b.close();
    expect(existsSync(lockFile)).toBe(false);
  });

  it('waits for a live process that is still starting its simulator, then says so plainly', async () => {
    const lockFile = lockIn();
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, host: os.hostname() }));
    const sim = new EmbeddedSimulator(countingLauncher().launch, { lockFile, waitForOtherMs: 300 });
    await expect(sim.get()).rejects.toMatchObject({ code: 'simulator.lock_timeout' });
  });
});
