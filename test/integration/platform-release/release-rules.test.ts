import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/main/core/errors.js';
import { PlatformReleaseFeature } from '../../../src/main/core/platform-release/platform-release.js';
import { openJournal, type Journal } from '../../../src/main/core/journal/open-journal.js';
import { DeveloperClient } from '../../../src/main/core/api-clients/developer/developer-client.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { runFramewright } from '../../support/cli-runner.js';
import { devGet, writeImageArchive } from './release-support.js';
import { openPlatformSimulator } from '../../support/worlds/platform-simulator.js';
import { forwardingProxy } from '../../support/worlds/forwarding-proxy.js';

const STUDIO = 'app_sim_framewright_studio';
const HELPER = 'app_sim_storyboard_helper';

describe('platform release: validation, new versions for changed submissions, roles', () => {
  let sim: RunningSimulator;
  let dir: string;
  let journal: Journal;
  let feature: PlatformReleaseFeature;
  let image: string;

  beforeAll(async () => {
    ({ root: dir, sim } = await openPlatformSimulator({ prefix: 'fw-release-rules-' }));
    journal = openJournal({ path: ':memory:' });
    const token = sim.platform.developerToken;
    feature = new PlatformReleaseFeature({
      client: new DeveloperClient({ baseUrl: sim.platform.developerBaseUrl, token: () => token }),
      imports: journal.platformImageImports,
      sleep: async () => undefined,
    });
    image = path.join(dir, 'backend.tar');
    writeImageArchive(image, 300_000);
  });

  afterAll(async () => {
    journal?.close();
  });

  it('prints every validation problem with its field, exits 2 and creates nothing', async () => {
    const before = await devGet<{ total: number }>(
      sim.platform.developerBaseUrl,
      sim.platform.developerToken,
      `/apps/${STUDIO}/versions`,
    );
    const run = await runFramewright(
      [
        ...[
          '--data-dir',
          path.join(dir, 'cli'),
          'platform',
          '--developer-base-url',
          sim.platform.developerBaseUrl,
        ],
        ...['release', '--image', image, '--display-version', '2.x'],
      ],
      { FRAMEWRIGHT_DEVELOPER_TOKEN: sim.platform.developerToken },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^ {2}displayVersion: .*\(SUBMISSION_FIELD_INVALID\)$/m);
    expect(run.stderr + run.stdout).not.toContain(sim.platform.developerToken);
    // another application's id: the key is not that application's
    await expect(
      feature.release({ appId: HELPER, imagePath: image, displayVersion: '2.0.0', timeoutMs: 0 }),
    ).rejects.toMatchObject({
      code: 'release.submission_invalid',
      problems: [expect.objectContaining({ path: 'appKey', code: 'APP_KEY_MISMATCH' })],
    });
    const after = await devGet<{ total: number }>(
      sim.platform.developerBaseUrl,
      sim.platform.developerToken,
      `/apps/${STUDIO}/versions`,
    );
    expect(after.total).toBe(before.total);
  });

  it('refuses an --image that is not an image archive with exit 2, before any request reaches the platform', async () => {
    const seen: string[] = [];
    const proxy = await forwardingProxy(sim.platform.developerBaseUrl, {
      onRequest: (request) => void seen.push(`${request.method} ${request.pathname}`),
    });
    const notTar = path.join(dir, 'notes.tar');
    writeFileSync(notTar, 'these are release notes, not an image\n'.repeat(100));
    const tarWithoutManifest = path.join(dir, 'plain.tar');
    writeImageArchive(tarWithoutManifest, 1000);
    // the same tar without its manifest.json: cut the first member (header + one padded block)
    writeFileSync(tarWithoutManifest, readFileSync(tarWithoutManifest).subarray(1024));
    for (const file of [notTar, tarWithoutManifest]) {
      const run = await runFramewright(
        [
          ...['--data-dir', path.join(dir, 'cli-archive'), 'platform', '--developer-base-url', proxy.base],
          ...['release', '--image', file, '--display-version', '9.9.9'],
        ],
        { FRAMEWRIGHT_DEVELOPER_TOKEN: sim.platform.developerToken },
      );
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(
        /--image .*(not a tar archive|must hold manifest\.json).*Nothing was sent|nothing was sent/i,
      );
    }
    expect(seen).toEqual([]);
  });

  it('reuses the version for the same submission and makes a new one when it changes', async () => {
    const a = await feature.release({
      imagePath: image,
      displayVersion: '3.0.0',
      releaseNotes: 'first',
      timeoutMs: 0,
    });
    expect(a).toMatchObject({ versionReused: false, decision: 'pending', request: { status: 'pending' } });
    const again = await feature.release({
      imagePath: image,
      displayVersion: '3.0.0',
      releaseNotes: 'first',
      timeoutMs: 0,
    });
    expect(again).toMatchObject({ versionId: a.versionId, versionReused: true, request: a.request });
    expect(again.image.imageAssetId).toBe(a.image.imageAssetId);
    const changed = await feature.release({
      imagePath: image,
      displayVersion: '3.0.0',
      releaseNotes: 'second',
      timeoutMs: 0,
    });
    expect(changed.versionId).not.toBe(a.versionId);
    expect(changed.versionReused).toBe(false);
  });

  it('keeps roleCode and makes definitionVersion increase, refusing locally otherwise', async () => {
    const { roles } = await feature.roles();
    expect(roles.map((r) => r.roleCode)).toEqual(['studio_admin', 'studio_editor', 'studio_viewer']);
    const editorVersion = roles.find((r) => r.roleCode === 'studio_editor')!.definitionVersion;
    // a renamed role (its code gone) is refused before anything is sent
    const renamed = roles.map((r) =>
      r.roleCode === 'studio_viewer' ? { ...r, roleCode: 'studio_reader' } : r,
    );
    await expect(feature.setRoles(undefined, renamed)).rejects.toThrow(/studio_viewer is missing/);
    // a changed description without a higher definitionVersion is refused
    const same = roles.map((r) => (r.roleCode === 'studio_editor' ? { ...r, description: 'Edits.' } : r));
    const refused = await feature.setRoles(undefined, same).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('release.roles_invalid');
    expect((await feature.roles()).roles).toEqual(roles);
    // with the version raised it is sent and stored
    const raised = same.map((r) =>
      r.roleCode === 'studio_editor' ? { ...r, definitionVersion: r.definitionVersion + 1 } : r,
    );
    const done = await feature.setRoles(undefined, raised);
    expect(done.changed).toEqual(['studio_editor']);
    expect((await feature.roles()).roles.find((r) => r.roleCode === 'studio_editor')).toMatchObject({
      description: 'Edits.',
      definitionVersion: editorVersion + 1,
    });
    // the CLI: a lower definitionVersion from a file is refused (exit 2) with its field
    const file = path.join(dir, 'roles.json');
    writeFileSync(file, JSON.stringify(roles));
    const run = await runFramewright(
      [
        ...[
          '--data-dir',
          path.join(dir, 'cli'),
          'platform',
          '--developer-base-url',
          sim.platform.developerBaseUrl,
        ],
        ...['roles', '--set', file],
      ],
      { FRAMEWRIGHT_DEVELOPER_TOKEN: sim.platform.developerToken },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `[1].definitionVersion: studio_editor: ${editorVersion} is lower than the platform's ${editorVersion + 1}`,
    );
  });

  it('refuses a missing token and a token given on the command line', async () => {
    const base = [
      '--data-dir',
      path.join(dir, 'cli'),
      'platform',
      '--developer-base-url',
      sim.platform.developerBaseUrl,
    ];
    const none = await runFramewright([...base, 'status'], { FRAMEWRIGHT_DEVELOPER_TOKEN: '' });
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/--developer-token-file FILE, or set FRAMEWRIGHT_DEVELOPER_TOKEN/);
    const inline = await runFramewright(
      [...base, '--developer-token', sim.platform.developerToken, 'status'],
      {},
    );
    expect(inline.code).toBe(2);
    const ok = await runFramewright(['--json', ...base, 'status'], {
      FRAMEWRIGHT_DEVELOPER_TOKEN: sim.platform.developerToken,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).appId).toBe(STUDIO);
    expect(ok.stdout + ok.stderr).not.toContain(sim.platform.developerToken);
  });
});
