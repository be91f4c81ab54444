import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openPlatformBackend,
  type PlatformBackend,
} from '../../../src/main/core/platform/platform-backend.js';
import { DEFAULT_PLATFORM_LIMITS } from '../../../src/main/core/platform/platform-settings.js';
import { MemorySecretStore } from '../../support/memory-secret-store.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * The backend's housekeeping timer (issue 27 §4): staging is swept for open workspaces on the
 * timer, not only when a workspace opens; and opening workspaces calls nothing on the platform.
 */

let root: string;
let platform: http.Server;
let platformCalls = 0;
let backend: PlatformBackend;

beforeAll(async () => {
  root = tempFolder('fw-housekeeping-');
  // a platform that counts every call (none is expected)
  platform = http.createServer((req, res) => {
    platformCalls += 1;
    res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => platform.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  backend = await openPlatformBackend({
    dataDir: path.join(root, 'data'),
    secrets: new MemorySecretStore(),
    settings: {
      runtimeBaseUrl: `${base}/runtime`,
      sessionBaseUrl: `${base}/session`,
      appKey: 'framewright-studio',
      appCredential: 'test-credential',
      publicOrigin: 'http://127.0.0.1:1',
      secureCookies: false,
      limits: { ...DEFAULT_PLATFORM_LIMITS, sweepIntervalSeconds: 0.2 },
    },
  });
});
afterAll(async () => {
  await backend?.close();
  await new Promise<void>((resolve) => platform.close(() => resolve()));
});

describe('the platform backend’s readiness (/readyz)', () => {
  it('is not ready before start-up resume, ready after, and not ready when the data folder cannot be written', async () => {
    expect(await backend.readiness()).toBe('start-up resume has not run');
    await backend.resumeAll();
    expect(await backend.readiness()).toBeUndefined();
    // a write that fails, as on a read-only volume (root ignores mode bits: a folder stands where the probe file goes)
    const dataDir = path.join(root, 'data');
    const probe = path.join(dataDir, `.readiness-${process.pid}`);
    mkdirSync(probe);
    writeFileSync(path.join(probe, 'keep'), '');
    expect(await backend.readiness()).toMatch(/^the data folder is not writable \(E[A-Z]+\)$/);
    rmSync(probe, { recursive: true });
    expect(await backend.readiness()).toBeUndefined();
  });
});

describe('the platform backend’s housekeeping', () => {
  it('sweeps an open workspace’s staging on its timer: an old file no draft names goes, a young one stays', async () => {
    const subject = { tenantId: 'tnt_a', accountId: 'acc_a', userId: 'usr_a', organizationId: 'org_a' };
    const workspace = backend.workspaces.workspaceOf(subject);
    // let the sweep made at open pass first: the files below are written after it
    await workspace.core.housekeeping();
    const staging = path.join(workspace.dir, 'staging');
    mkdirSync(staging, { recursive: true });
    const old = path.join(staging, randomUUID());
    const young = path.join(staging, randomUUID());
    writeFileSync(old, 'dropped two days ago');
    writeFileSync(young, 'dropped just now');
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    utimesSync(old, twoDaysAgo, twoDaysAgo);

    const until = Date.now() + 5_000;
    while (existsSync(old) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    expect(existsSync(old)).toBe(false);
    expect(existsSync(young)).toBe(true);
    // opening the workspace and sweeping it called nothing on the platform
    expect(platformCalls).toBe(0);
  });
});
