/**
 * Saving a trim from the strip: `sequences.trimShot` with the open sequence, the shot and the range
 * (or null to clear); the core's answer becomes the open sequence; a refusal is kept to be shown.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SequenceView } from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';
import { sequence, shot } from './sequence-fixtures.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

const storeModule = '../../../src/renderer/src/store/index.js';
const { useStudio } = (await import(storeModule)) as {
  useStudio: {
    getState(): { sequence: SequenceView | null; sequenceError: string | null; sequenceBusy: string[] };
    setState(s: Record<string, unknown>): void;
  };
};
const actionModule = '../../../src/renderer/src/store/trim-shot-action.js';
const { saveTrim } = (await import(actionModule)) as {
  saveTrim(shotId: string, range: { inSeconds: number; outSeconds: number } | null): Promise<boolean>;
};

const open = sequence({ shots: [shot({ shotId: 'shot-1' })] });
const trimmed = sequence({
  shots: [
    shot({
      shotId: 'shot-1',
      trim: { inSeconds: 0.5, outSeconds: 3, inFrame: 12, outFrame: 72, seconds: 2.5 },
    }),
  ],
});

beforeEach(() => {
  fake.reset();
  useStudio.setState({
    openSequenceId: open.sequenceId,
    sequence: open,
    sequenceError: null,
    sequenceBusy: [],
  });
});

describe('saving a trim', () => {
  it('sends the range of the open sequence’s shot and shows the core’s answer', async () => {
    fake.answers.set('sequences.trimShot', () => trimmed);
    const saving = saveTrim('shot-1', { inSeconds: 0.5, outSeconds: 3 });
    expect(useStudio.getState().sequenceBusy).toEqual(['trim:shot-1']);
    expect(await saving).toBe(true);
    expect(fake.calls).toEqual([
      {
        method: 'sequences.trimShot',
        params: { sequenceId: open.sequenceId, shotId: 'shot-1', range: { inSeconds: 0.5, outSeconds: 3 } },
      },
    ]);
    expect(useStudio.getState().sequence).toBe(trimmed);
    expect(useStudio.getState().sequenceBusy).toEqual([]);
    // clearing sends null
    fake.answers.set('sequences.trimShot', () => open);
    expect(await saveTrim('shot-1', null)).toBe(true);
    expect(fake.calls[1]!.params.range).toBeNull();
  });

  it('keeps the core’s refusal to show it, and the strip as it was', async () => {
    fake.answers.set('sequences.trimShot', () => {
      throw new Error('The out point (6 s) is past the end of Shot 1 (5 s).');
    });
    expect(await saveTrim('shot-1', { inSeconds: 1, outSeconds: 6 })).toBe(false);
    expect(useStudio.getState().sequenceError).toMatch(/past the end of Shot 1/);
    expect(useStudio.getState().sequence).toBe(open);
    expect(useStudio.getState().sequenceBusy).toEqual([]);
  });
});
