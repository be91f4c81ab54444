/**
 * Deleting a library result removes that job's files only: a folder that also holds another job's
 * result (as an older layout could leave two jobs in one folder) keeps it, and the other job
 * stays playable.
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import { h3VideoSubmission } from '../../support/engine-harness.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

let core: AppCore;

beforeAll(async () => {
  const dataDir = tempFolder('fw-library-delete-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
});
afterAll(async () => {
  await core?.close();
});

async function generate(key: string) {
  const result = await core.services.engine.submit(h3VideoSubmission(key, 'A lighthouse at dusk', 7), {
    waitSeconds: 120,
  });
  expect(result.state).toBe('succeeded');
  return result.job!;
}

describe('library delete', () => {
  it("removes the deleted job's files only, never another job's in the same folder", async () => {
    const kept = await generate('delete-keeps-other');
    const removed = await generate('delete-removes-this');
    const keptPath = kept.outputs[0]!.localPath!;
    const removedPath = removed.outputs[0]!.localPath!;
    // the new layout gives each job its own folder, under its profile
    expect(path.dirname(keptPath)).not.toBe(path.dirname(removedPath));
    expect(path.basename(path.dirname(path.dirname(keptPath)))).toBe('simulator');

    // an older layout could leave the other job's result in this job's folder
    const shared = path.join(path.dirname(removedPath), path.basename(keptPath));
    renameSync(keptPath, shared);
    core.services.journal.database
      .prepare('UPDATE outputs SET local_path = ? WHERE id = ?')
      .run(shared, kept.outputs[0]!.id);
    const before = readFileSync(shared);

    const result = await core.studio.library.deleteResult(removed.id);
    expect(result.deleted).toBe(true);
    expect(existsSync(removedPath)).toBe(false);
    expect(readFileSync(shared).equals(before)).toBe(true);
    expect(core.services.journal.jobs.getJob(kept.id)?.outputs[0]?.localPath).toBe(shared);

    // deleting the other one then leaves nothing behind
    await core.studio.library.deleteResult(kept.id);
    expect(existsSync(path.dirname(shared))).toBe(false);
  });
});
