import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/main/core/logging/logger.js';
import { StudioBatch } from '../../../src/main/core/batch/studio-batch.js';
import {
  RUNTIME_PROFILE_ID,
  RuntimeCreate,
} from '../../../src/main/core/backends/platform-runtime/runtime-create.js';
import { platformJobsOfSession } from '../../support/platform-simulator.js';
import { RuntimeWorld } from './runtime-world.js';

/**
 * "Import prompts" on the platform: StudioBatch over the runtime's video services and
 * RuntimeCreate (no draft per row: the row's body, its key as clientTaskId). One runtime job per
 * row, never created twice.
 */
const world = new RuntimeWorld();
let sessionId: string;

beforeAll(async () => {
  await world.start();
  sessionId = await world.signIn('member');
});
afterAll(async () => {
  await world.close();
});

const silent = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;

function studioBatch(): StudioBatch {
  const create = new RuntimeCreate({
    client: world.client,
    session: world.sessions.current,
    drafts: {
      stored: () => {
        throw new Error('a batch row has no draft');
      },
    },
    staged: { resolve: () => Promise.reject(new Error('a t2v row stages nothing')) },
    readUrls: {
      storage: undefined as never,
      signingKey: Buffer.alloc(32),
      publicOrigin: 'http://127.0.0.1:1',
      subjectKey: 'member',
    },
    projects: { draftProject: () => undefined },
    engine: world.engine,
  });
  return new StudioBatch({
    videoServices: () => create.videoServices(),
    createVideo: (submission) => create.create(submission),
    jobs: world.journal.jobs,
    engine: world.engine,
    activeProfileId: () => RUNTIME_PROFILE_ID,
    logger: silent,
    waitSeconds: () => 30,
  });
}

const params = {
  file: {
    name: 'prompts.txt',
    text: 'A lighthouse at dusk\nA fox crossing a snowy field\nRain on a tin roof, close up\n',
  },
  defaults: {
    model: 'h3-video',
    generationMode: 't2v' as const,
    seconds: 5,
    orientation: 'landscape',
    resolutionTier: '768p',
    seed: null,
  },
};

describe('a batch of prompts on the platform runtime', () => {
  it('creates one runtime job per row, each under its row key as clientTaskId; the same file again creates nothing', async () => {
    const batch = studioBatch();
    const first = await batch.submit(params);
    expect(first.rows.map((r) => r.state)).toEqual(['accepted', 'accepted', 'accepted']);
    expect(first.accepted).toBe(3);

    const jobs = await platformJobsOfSession(world.sim, world.app.appKey, sessionId);
    expect(jobs).toHaveLength(3);
    expect(new Set(jobs.map((j) => j.clientTaskId))).toEqual(
      new Set(first.rows.map((r) => r.idempotencyKey)),
    );
    for (const row of first.rows) {
      const intent = world.journal.jobs.getIntent(row.idempotencyKey)!;
      const body = JSON.parse(intent.canonicalBodyJson) as Record<string, unknown>;
      expect(body.clientTaskId).toBe(row.idempotencyKey);
      expect(body.resourceAttribution).toBeUndefined();
    }

    // a re-import of the same file (a new StudioBatch, as after a reload)
    const again = await studioBatch().submit(params);
    expect(again.rows.map((r) => r.state)).toEqual(['already_sent', 'already_sent', 'already_sent']);
    expect(await platformJobsOfSession(world.sim, world.app.appKey, sessionId)).toHaveLength(3);
  });
});
