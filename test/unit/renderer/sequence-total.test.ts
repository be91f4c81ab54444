/**
 * The Sequences strip's total is the film's length: the shots' lengths less one cross-fade per
 * join, with the cross-fade chosen for the assembly — the same figure the assembly gives its file.
 * (It used to say the shots' plain sum: 20 s for a film that assembled to 18.5 s.)
 */
import { describe, expect, it, vi } from 'vitest';
import { assemblyTimeline } from '../../../src/main/core/media-tools/assemble-shots.js';
import { sequence, shot } from './sequence-fixtures.js';
import { renderMarkup, rendererModule } from './static-render.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => {
  const useStudio = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useStudio };
});

const { SequenceEditor } = await rendererModule<{ SequenceEditor: unknown }>(
  'screens/sequences/SequenceEditor.js',
);

const noop = () => Promise.resolve(true);
function showWithCrossfade(crossfade: number) {
  const shots = [0, 1, 2, 3].map((i) =>
    shot({
      shotId: `shot-${i}`,
      position: i,
      label: `Shot ${i + 1}`,
      state: 'succeeded',
      durationSeconds: 5,
    }),
  );
  const state: Record<string, unknown> = {
    info: { capabilities: {} },
    profiles: [],
    services: [],
    openSequenceId: 'seq-1',
    sequence: sequence({ shots, totalSeconds: 20 }),
    sequenceError: null,
    sequenceBusy: [],
    sequenceCrossfade: crossfade,
    generateOutcome: null,
    boardLink: null,
    boardSends: {},
  };
  shown.state = new Proxy(state, { get: (target, key: string) => (key in target ? target[key] : noop) });
}

/** The strip's total: its text and its data-seconds. */
function total(html: string): { text: string; seconds: number } {
  const match = /<span data-testid="sequence-total" data-seconds="([^"]*)">([^<]*)<\/span>/.exec(html);
  if (!match) throw new Error('no sequence-total in the markup');
  return { seconds: Number(match[1]), text: match[2]! };
}

/** What the assembly says a film of four 5 s shots lasts with this cross-fade. */
function assembled(crossfade: number): number {
  const shots = [0, 1, 2, 3].map((i) => ({
    path: `/s${i}.mp4`,
    durationSeconds: 5,
    hasAudioTrack: true,
    title: `Shot ${i + 1}`,
  }));
  return assemblyTimeline({
    shots,
    canvas: { width: 1280, height: 720, fps: 24 },
    crossfadeSeconds: crossfade,
  }).totalSeconds;
}

describe('the Sequences strip says how long the film will last', () => {
  it('four 5 s shots with 0.5 s cross-fades: 18.5 s, as the assembled film', () => {
    showWithCrossfade(0.5);
    const shownTotal = total(renderMarkup(SequenceEditor, {}));
    expect(shownTotal.seconds).toBe(18.5);
    expect(shownTotal.text).toContain('18.5 s');
    expect(shownTotal.seconds).toBe(assembled(0.5));
  });

  it('straight cuts and 1 s cross-fades: the same figure as the assembly', () => {
    for (const crossfade of [0, 1]) {
      showWithCrossfade(crossfade);
      expect(total(renderMarkup(SequenceEditor, {})).seconds).toBe(assembled(crossfade));
    }
    showWithCrossfade(1);
    expect(total(renderMarkup(SequenceEditor, {})).text).toContain('17 s');
  });
});
