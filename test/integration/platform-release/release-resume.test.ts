import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { DeveloperProxy } from '../../support/developer-proxy.js';
import { devGet, review, writeImageArchive } from './release-support.js';
import { openPlatformSimulator } from '../../support/worlds/platform-simulator.js';

const APP_ID = 'app_sim_framewright_studio';
const PART = 1024 * 1024;

/**
 * `framewright platform release` end to end against the simulator, through a proxy that drops the
 * connection of part 2's upload (the platform has the part, the CLI never reads its ETag); the CLI
 * is killed (SIGKILL) once the journal records part 2; the release is run again, and the publish
 * request is approved through the reviewer route while the CLI follows it.
 */
describe('platform release: three parts, a dropped connection and a crash', () => {
  let sim: RunningSimulator;
  let proxy: DeveloperProxy;
  let dir: string;
  let developerBaseUrl: string;

  beforeAll(async () => {
    ({ root: dir, sim } = await openPlatformSimulator({ prefix: 'fw-release-' }));
    const upstream = new URL(sim.platform.developerBaseUrl);
    proxy = new DeveloperProxy(upstream.origin);
    const origin = await proxy.start();
    developerBaseUrl = origin + upstream.pathname;
  });

  afterAll(async () => {
    await proxy?.close();
  });

  it('sends each part once, makes one version and one import, and the approved version serves launches', async () => {
    const token = sim.platform.developerToken;
    const image = path.join(dir, 'framewright-backend.tar');
    writeImageArchive(image, Math.floor(2.5 * PART));
    const tokenFile = path.join(dir, 'developer-token');
    writeFileSync(tokenFile, token + '\n', { mode: 0o600 });
    const dataDir = path.join(dir, 'cli');
    const args = [
      ...['--data-dir', dataDir, '--json', 'platform', '--developer-base-url', developerBaseUrl],
      ...['--developer-token-file', tokenFile, 'release', '--image', image, '--release-notes', 'resume test'],
    ];
    const versionsBefore = await devGet<{ items: { versionId: string }[] }>(
      sim.platform.developerBaseUrl,
      token,
      `/apps/${APP_ID}/versions`,
    );

    // run 1: part 2's answer is lost; the CLI re-reads the session, records part 2 from it, and dies
    proxy.dropPart(2);
    const first = await runFramewright(args, { FRAMEWRIGHT_TEST_CRASH_AT: 'after-image-part-2' });
    expect(first.code, first.stderr).toBeNull(); // killed
    const journalPath = path.join(dataDir, 'journal.sqlite');
    let journal = openJournal({ path: journalPath });
    const row = journal.database.prepare('SELECT idempotency_key FROM platform_image_imports').all() as {
      idempotency_key: string;
    }[];
    expect(row).toHaveLength(1);
    expect(journal.platformImageImports.parts(row[0]!.idempotency_key).map((p) => p.partNumber)).toEqual([
      1, 2,
    ]);
    journal.close();
    expect(proxy.dropped).toBe(1);
    expect(Object.fromEntries(proxy.partsForwarded)).toEqual({ 1: 1, 2: 1 });

    // run 2: resumes the same session (same key), sends part 3 only; the reviewer approves meanwhile
    const second = runFramewright([...args, '--timeout', '60'], {});
    let requestId: string | undefined;
    for (let i = 0; i < 400 && !requestId; i += 1) {
      const versions = await devGet<{ items: { versionId: string }[] }>(
        sim.platform.developerBaseUrl,
        token,
        `/apps/${APP_ID}/versions`,
      );
      const fresh = versions.items.filter(
        (v) => !versionsBefore.items.some((b) => b.versionId === v.versionId),
      );
      for (const v of fresh) {
        const requests = await devGet<{ items: { requestId: string; kind: string; status: string }[] }>(
          sim.platform.developerBaseUrl,
          token,
          `/apps/${APP_ID}/versions/${v.versionId}/requests`,
        );
        requestId = requests.items.find((r) => r.kind === 'publish' && r.status === 'pending')?.requestId;
      }
      if (!requestId) await new Promise((r) => setTimeout(r, 50));
    }
    expect(requestId).toBeDefined();
    // approval is a decision; the version goes live only at the later controlled apply (spec)
    expect((await review(sim.platform.reviewUrl, sim.token, requestId!, 'approve')).request.status).toBe(
      'approved',
    );
    await review(sim.platform.reviewUrl, sim.token, requestId!, 'apply');
    const run = await second;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as {
      versionId: string;
      decision: string;
      versionStatus: string;
      image: { partsSent: number[]; partsAlreadyRecorded: number[]; imageAssetId: string };
      request: { requestId: string; status: string };
    };
    expect(result).toMatchObject({
      decision: 'applied',
      versionStatus: 'active',
      request: { requestId, status: 'applied' },
      image: { partsSent: [3], partsAlreadyRecorded: [1, 2] },
    });

    // each part reached the platform once; one version, one import session
    expect(Object.fromEntries(proxy.partsForwarded)).toEqual({ 1: 1, 2: 1, 3: 1 });
    expect(proxy.importCreates).toBe(1);
    const versionsAfter = await devGet<{ items: { versionId: string }[] }>(
      sim.platform.developerBaseUrl,
      token,
      `/apps/${APP_ID}/versions`,
    );
    expect(versionsAfter.items.length).toBe(versionsBefore.items.length + 1);
    const detail = await devGet<{ recognized: { images: { imageAssetId: string }[] } }>(
      sim.platform.developerBaseUrl,
      token,
      `/apps/${APP_ID}/versions/${result.versionId}`,
    );
    expect(detail.recognized.images.map((i) => i.imageAssetId)).toEqual([result.image.imageAssetId]);

    // the application's declared roles are on the platform (a fact of the application)
    const roles = await devGet<{ roleCode: string; status: string }[]>(
      sim.platform.developerBaseUrl,
      token,
      `/apps/${APP_ID}/roles`,
    );
    expect(roles.map((r) => r.roleCode)).toEqual(
      expect.arrayContaining(['studio_admin', 'studio_editor', 'studio_viewer']),
    );

    // the new version serves launches
    const launch = await fetch(sim.platform.launchUrl, {
      method: 'POST',
      headers: { Authorization: `Bearer ${sim.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ appKey: 'framewright-studio', user: 'member' }),
    });
    expect(launch.status).toBe(200);
    expect(((await launch.json()) as { runtime: { appVersionId: string } }).runtime.appVersionId).toBe(
      result.versionId,
    );

    // the developer token and the part URLs are in no output and nowhere in the data folder
    for (const text of [first.stdout, first.stderr, run.stdout, run.stderr]) {
      expect(text).not.toContain(token);
      expect(text).not.toContain('signature=');
      expect(text).not.toContain('/uploads/image-imports/');
    }
    journal = openJournal({ path: journalPath });
    journal.close();
    for (const name of readdirSync(dataDir, { recursive: true }) as string[]) {
      const file = path.join(dataDir, name);
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue; // a folder
      }
      expect(bytes.includes(token), name).toBe(false);
      expect(bytes.includes('signature='), name).toBe(false);
    }
  });
});
