import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreParts } from '../../../src/main/core/app/core-parts.js';
import { batchIdempotencyKey } from '../../../src/main/core/batch/batch-file.js';
import {
  parseBatchText,
  prepareBatch,
  runBatch,
  videoBatchOverProfiles,
  type BatchRowOutcome,
  type PrepareBatchOptions,
} from '../../../src/main/core/batch/batch-service.js';
import { SIMULATOR_PROFILE_ID } from '../../../src/main/core/profiles/profile-directory.js';
import type { RunningSimulator } from '../../../src/simulator/index.js';
import { createdPerKey } from '../../support/engine-harness.js';
import { openDesktopCore } from '../../support/worlds/desktop-core.js';
import { openSimulator } from '../../support/worlds/simulator.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await openSimulator();
});
afterAll(async () => {
  await sim.close();
});

const options = (extra: Partial<PrepareBatchOptions> = {}): PrepareBatchOptions => ({
  profileId: SIMULATOR_PROFILE_ID,
  defaults: {
    model: 'h3-video',
    mode: 't2v',
    seconds: '5',
    orientation: 'landscape',
    resolutionTier: '768p',
  },
  ...extra,
});

async function withCore<T>(run: (core: CoreParts) => Promise<T>): Promise<T> {
  const core = await openDesktopCore(sim);
  try {
    return await run(core);
  } finally {
    await core.close();
  }
}

describe('the shared batch service (src/main/core/batch)', () => {
  it('prepares rows: rules-engine violations by code, duplicates, the same keys as the CLI, the cap', async () => {
    await withCore(async (core) => {
      const text = `Core: a fox\nCore: a whale\nCore: a fox\n${'x'.repeat(7001)}\nCore: a parrot\n`;
      const plan = await prepareBatch(videoBatchOverProfiles(core), parseBatchText(text, 'p.txt'), options());
      expect(plan.invalid.map((r) => r.row)).toEqual([4]);
      expect(plan.invalid[0]!.issues.map((i) => i.code)).toContain('prompt.too_long');
      expect(plan.rows.map((r) => [r.row, r.disposition ?? 'invalid', r.duplicateOf])).toEqual([
        [1, 'send', undefined],
        [2, 'send', undefined],
        [3, 'duplicate', 1],
        [4, 'invalid', undefined],
        [5, 'send', undefined],
      ]);
      expect(plan.toSend[0]!.key).toBe(
        batchIdempotencyKey(SIMULATOR_PROFILE_ID, undefined, {
          model: 'h3-video',
          generationMode: 't2v',
          prompt: 'Core: a fox',
          seconds: 5,
          orientation: 'landscape',
          resolutionTier: '768p',
          seed: null,
          firstFrameSha256: null,
          lastFrameSha256: null,
        }),
      );
      const capped = await prepareBatch(
        videoBatchOverProfiles(core),
        parseBatchText('a cat\na dog\na cow\n', 'c.txt'),
        {
          ...options(),
          maxNewRows: 1,
        },
      );
      expect(capped.rows.map((r) => r.disposition)).toEqual(['send', 'capped', 'capped']);
    });
  });

  it('refuses modes and frame columns its caller does not support, and non-TXT/CSV files', async () => {
    await withCore(async (core) => {
      const csv = 'prompt,mode,first_frame\nA red square,i2v,red.png\n';
      const plan = await prepareBatch(
        videoBatchOverProfiles(core),
        parseBatchText(csv, 'f.csv'),
        options({ modes: ['t2v'] }),
      );
      expect(plan.invalid[0]!.issues.map((i) => i.code)).toEqual(
        expect.arrayContaining(['batch.frames_unsupported', 'batch.mode_unsupported']),
      );
      expect(() => parseBatchText('a', 'p.md')).toThrow(/\.txt .* or \.csv/);
      expect(() => parseBatchText('# only a comment\n', 'p.txt')).toThrow(/no prompts/);
    });
  });

  it('runs rows with bounded concurrency, the first alone; a second run creates nothing new', async () => {
    await withCore(async (core) => {
      const rows = parseBatchText('Run: one\nRun: two\nRun: three\n', 'r.txt');
      const plan = await prepareBatch(videoBatchOverProfiles(core), rows, options());
      const outcomes: [number, BatchRowOutcome['kind'], string | undefined][] = [];
      let inFlight = 0;
      let most = 0;
      const result = await runBatch(videoBatchOverProfiles(core), plan.toSend, {
        profileId: SIMULATOR_PROFILE_ID,
        concurrency: 2,
        timeoutSeconds: 60,
        wait: true,
        onStep: (_row, step) => {
          if (step === 'discovery') most = Math.max(most, ++inFlight);
        },
        onRow: (row, outcome) => {
          inFlight -= 1;
          outcomes.push([
            row.row,
            outcome.kind,
            outcome.kind === 'result' ? outcome.result.state : undefined,
          ]);
        },
      });
      expect(result.stoppedBy).toBeUndefined();
      expect(outcomes.sort((a, b) => a[0] - b[0])).toEqual([
        [1, 'result', 'succeeded'],
        [2, 'result', 'succeeded'],
        [3, 'result', 'succeeded'],
      ]);
      expect(most).toBeLessThanOrEqual(2);
      const created = await createdPerKey(sim.baseUrl, sim.token);
      for (const row of plan.toSend) expect(created.get(row.key)).toBe(1);

      const again = await prepareBatch(videoBatchOverProfiles(core), rows, options());
      expect(again.rows.every((r) => r.known)).toBe(true);
      expect(again.toSend.map((r) => r.key)).toEqual(plan.toSend.map((r) => r.key));
    });
  });

  it('a 402 on the first row: no further row is started, nothing is created', async () => {
    const broke = 'core-batch-broke-identity-0123456789';
    const own = await openSimulator({ tokens: [broke] });
    own.setScenario('insufficient_balance');
    const core = await openDesktopCore(own);
    try {
      const plan = await prepareBatch(
        videoBatchOverProfiles(core),
        parseBatchText('Broke: a\nBroke: b\nBroke: c\n', 'b.txt'),
        options(),
      );
      const kinds: string[] = [];
      const result = await runBatch(videoBatchOverProfiles(core), plan.toSend, {
        profileId: SIMULATOR_PROFILE_ID,
        concurrency: 3,
        timeoutSeconds: 30,
        wait: false,
        onRow: (row, outcome) => kinds.push(`${row.row}:${outcome.kind}`),
      });
      expect(result.stoppedBy).toMatch(/row 1 .*HTTP 402/);
      expect(kinds.sort()).toEqual(['1:error', '2:not_submitted', '3:not_submitted']);
      expect((await createdPerKey(own.baseUrl, own.token)).size).toBe(0);
    } finally {
      await core.close();
      await own.close();
    }
  });
});
