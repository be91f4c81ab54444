import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../../src/main/core/app/app-core.js';
import { defaultSimulatorLauncher } from '../../../src/main/core/app/default-simulator-launcher.js';
import { SIDECAR_NAME } from '../../../src/main/core/jobs/library-layout.js';
import { downloadOutputs } from '../../../src/main/core/jobs/download-outputs.js';
import type { AnnouncedOutput } from '../../../src/main/core/journal/outputs-repository.js';
import { PublicApiClient } from '../../../src/main/core/api-clients/public-api-client.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { acceptedJobRow } from '../../support/journal-rows.js';
import { startHostileServer } from '../../support/hostile-server.js';
import { MemorySecretStore } from '../../unit/secrets/fakes.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';

/**
 * A result stored without an announced sha256 or byteSize to check is "not verifiable", never
 * "verified": in the job view the studio shows (Queue, Library) and in the folder's sidecar.
 */

const BYTES = Buffer.from('the bytes of a result');
const SHA = createHash('sha256').update(BYTES).digest('hex');
let core: AppCore;
let server: Awaited<ReturnType<typeof startHostileServer>>;

beforeAll(async () => {
  server = await startHostileServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(BYTES.length) });
    res.end(BYTES);
  });
  const dataDir = tempFolder('fw-nv-');
  core = await createAppCore({
    dataDir,
    host: BROWSER_HOST,
    launchSimulator: defaultSimulatorLauncher(dataDir, 0.02),
    secretStore: new MemorySecretStore(),
    resumeOnStart: false,
  });
  core.services.journal.profiles.create({ id: 'p', name: 'P', kind: 'personal', baseUrl: server.base });
});
afterAll(async () => {
  await core.close();
  await server.close();
});

let n = 0;
async function downloaded(announced: Partial<AnnouncedOutput>) {
  n += 1;
  const journal = core.services.journal;
  const job = acceptedJobRow(journal, {
    outputs: [{ assetId: `a${n}`, mimeType: 'video/mp4', ...announced }],
  });
  const client = new PublicApiClient({
    profileId: 'p',
    kind: 'personal',
    baseUrl: server.base,
    secret: async () => 'k',
  });
  const done = await downloadOutputs(journal, client, job, core.services.libraryDir, { retryDelayMs: 1 });
  const view = (await core.dispatcher.dispatch('jobs.get', { jobRowId: job.id })) as {
    ok: boolean;
    result: { outputs: { verified: boolean; verification: string | null }[] };
  };
  expect(view.ok).toBe(true);
  const sidecar = JSON.parse(
    readFileSync(path.join(path.dirname(done.outputs[0]!.localPath!), SIDECAR_NAME), 'utf8'),
  ) as { outputs: { verification: string }[] };
  return { view: view.result.outputs[0]!, sidecar: sidecar.outputs[0]!.verification };
}

describe('not verifiable', () => {
  it('sha256 and byteSize announced and matched: verified', async () => {
    const { view, sidecar } = await downloaded({ sha256: SHA, byteSize: BYTES.length });
    expect([view.verified, view.verification, sidecar]).toEqual([true, 'verified', 'verified']);
  });

  it('no sha256 announced: stored, but shown as not verifiable', async () => {
    const { view, sidecar } = await downloaded({ byteSize: BYTES.length });
    expect([view.verified, view.verification, sidecar]).toEqual([true, 'not_verifiable', 'not verifiable']);
  });

  it('no byteSize announced: not verifiable either', async () => {
    const { view, sidecar } = await downloaded({ sha256: SHA });
    expect([view.verification, sidecar]).toEqual(['not_verifiable', 'not verifiable']);
  });

  it('nothing announced: not verifiable', async () => {
    const { view } = await downloaded({});
    expect(view.verification).toBe('not_verifiable');
  });
});
