import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftForm } from '../../../src/shared/bridge/domains/studio.js';
import { RuntimeOptimize } from '../../../src/main/core/backends/platform-runtime/runtime-prompt-optimization.js';
import { probeMedia } from '../../../src/main/core/media-tools/probe-media.js';
import type { StoredDraft } from '../../../src/main/core/creating/drafts.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { PROFILE } from '../runtime/runtime-world.js';
import { RuntimeCallsWorld } from './runtime-calls-world.js';

/**
 * Prompt optimization on the platform's runtime: the runtime accepts the optimization but the
 * answer is lost (the proxy drops the connection after the simulator answered) on every send of
 * the first press; pressing Optimize again replays the same key and the same body and gets the
 * result; the simulator made exactly one optimization.
 */
const DROPPED_SENDS = 4; // every send of one press (the retry module's `optimization` row)
let rig: RuntimeCallsWorld;
const frameId = randomUUID();

beforeAll(async () => {
  rig = new RuntimeCallsWorld(
    (n) => (n <= DROPPED_SENDS ? 'drop' : 'pass'),
    (method, pathname) => method === 'POST' && pathname.endsWith('/media/prompt-optimizations'),
  );
  await rig.start();
});
afterAll(async () => {
  await rig?.close();
});

function optimizer(): RuntimeOptimize {
  const fixtures = mediaFixtures();
  const form: DraftForm = {
    profileId: PROFILE,
    model: 'h3-video',
    generationMode: 'i2v',
    prompt: 'A paper kite climbs over windy dunes at golden hour',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: null,
    references: [],
    firstFrame: { id: frameId, fileName: 'first.png', mimeType: 'image/png', byteSize: 1, kind: 'image' },
  };
  const stored: StoredDraft = {
    kind: 'studio-video',
    idempotencyKey: 'draft-key',
    form,
    submittedAt: null,
    jobRowId: null,
  };
  return new RuntimeOptimize({
    journal: rig.world.journal,
    client: rig.world.client,
    session: rig.session,
    drafts: { stored: () => stored },
    staged: {
      resolve: async (id) => {
        if (id !== frameId) throw new Error(`unknown staged file ${id}`);
        const probed = await probeMedia(fixtures.firstPng);
        if (probed.kind !== 'image') throw new Error('the fixture is not an image');
        return { ...probed, kind: probed.kind, id };
      },
    },
    readUrls: rig.readUrls,
    services: (kind) => rig.services(kind),
    profileId: PROFILE,
  });
}

describe('runtime prompt optimization', () => {
  it('a dropped answer after acceptance, pressed again: one optimization, same key and body, result returned', async () => {
    const optimize = optimizer();
    await expect(optimize.optimize('draft-1', undefined)).rejects.toThrow();
    expect(rig.proxy.sent).toHaveLength(DROPPED_SENDS);
    const key = rig.proxy.sent[0]!.idempotencyKey!;
    const row = rig.world.journal.optimizations.get(key)!;
    expect(row.state).toBe('unknown');

    const result = await optimize.optimize('draft-1', undefined);
    expect(result.clientRequestId).toBe(key);
    expect(result.originalPrompt).toBe('A paper kite climbs over windy dunes at golden hour');
    expect(result.optimizedPrompt.length).toBeGreaterThan(0);
    expect(rig.world.journal.optimizations.get(key)!.state).toBe('succeeded');

    // every send: the same Idempotency-Key (= clientRequestId) and the same bytes
    const sent = rig.proxy.sent;
    expect(sent).toHaveLength(DROPPED_SENDS + 1);
    expect(new Set(sent.map((s) => s.idempotencyKey))).toEqual(new Set([key]));
    expect(new Set(sent.map((s) => s.body)).size).toBe(1);
    const body = JSON.parse(sent[0]!.body) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(body.clientRequestId).toBe(key);
    expect(body.referenceInputs).toHaveLength(1);
    expect(Object.keys(body.referenceInputs[0]).sort()).toEqual(
      ['byteSize', 'mimeType', 'readUrl', 'role', 'sha256'].sort(),
    );
    expect(body.referenceInputs[0].role).toBe('first_frame');
    expect(body.referenceInputs[0].readUrl.startsWith(`${rig.readUrls.publicOrigin}/objects/`)).toBe(true);

    // the simulator made exactly one optimization
    expect(await rig.optimizationsCreated()).toBe(1);

    // a third press answers from the journal: nothing is sent
    const again = await optimize.optimize('draft-1', undefined);
    expect(again).toEqual(result);
    expect(rig.proxy.sent).toHaveLength(DROPPED_SENDS + 1);
  });

  it('without a session nothing is stored or sent', async () => {
    const sessionId = rig.world.sessionId;
    rig.world.sessionId = null;
    try {
      const before = rig.proxy.sent.length;
      await expect(optimizer().optimize('draft-2', 'noir')).rejects.toMatchObject({
        code: 'runtime.no_session',
      });
      expect(rig.proxy.sent).toHaveLength(before);
    } finally {
      rig.world.sessionId = sessionId;
    }
  });
});
