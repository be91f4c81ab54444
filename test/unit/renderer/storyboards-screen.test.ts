/**
 * The Sequences screen with Storyboard Helper, rendered: "Import from Storyboard Helper" only where
 * the backend declares `capabilities.storyboards`; an imported sequence names its board and offers
 * "Send to the board" once assembled; a shot made from a panel with a verified result offers
 * "Send shot to its panel"; each send's state in words. The store is a double holding the state
 * shown (a server render would read a zustand store's initial state only).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { SequenceView } from '../../../src/shared/bridge/contract.js';
import {
  PLATFORM_CAPABILITIES,
  PUBLIC_API_CAPABILITIES,
} from '../../../src/main/core/backends/capabilities.js';
import { sequence, shot } from './sequence-fixtures.js';
import { renderMarkup, rendererModule } from './static-render.js';
import { imported, link, ready, sent } from './storyboard-fixtures.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => {
  const useStudio = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useStudio };
});

const { SequencesScreen } = await rendererModule<{ SequencesScreen: unknown }>(
  'screens/sequences/SequencesScreen.js',
);
const { SequenceEditor } = await rendererModule<{ SequenceEditor: unknown }>(
  'screens/sequences/SequenceEditor.js',
);

const noop = () => Promise.resolve(true);
function show(patch: Record<string, unknown>) {
  shown.state = {
    info: { capabilities: { ...PLATFORM_CAPABILITIES, storyboards: true } },
    profiles: [],
    services: [],
    sequences: [],
    openSequenceId: null,
    sequence: null,
    sequenceError: null,
    sequenceBusy: [],
    generateOutcome: null,
    boardLink: null,
    boardSends: {},
    ...patch,
  };
  // every action the screens read is a no-op (a server render calls none)
  shown.state = new Proxy(shown.state, {
    get: (target, key: string) => (key in target ? target[key] : noop),
  });
}
/** The sequence imported from the Lighthouse board, open. */
function showImported(view: SequenceView = imported, patch: Record<string, unknown> = {}) {
  show({
    openSequenceId: view.sequenceId,
    sequence: view,
    boardLink: { sequenceId: view.sequenceId, link },
    ...patch,
  });
}
const render = (component: unknown) => renderMarkup(component, {});

beforeEach(() => {
  show({});
});

describe('the Sequences screen with Storyboard Helper', () => {
  it('offers "Import from Storyboard Helper" only where the backend declares storyboards', () => {
    expect(render(SequencesScreen)).toContain('Import from Storyboard Helper');
    show({ info: { capabilities: { ...PLATFORM_CAPABILITIES, storyboards: false } } });
    expect(render(SequencesScreen)).not.toContain('Import from Storyboard Helper');
    show({ info: { capabilities: PUBLIC_API_CAPABILITIES } });
    expect(render(SequencesScreen)).not.toContain('board-import-open');
  });

  it('names the board, and offers Send to the board once the assembly is ready', () => {
    showImported();
    const before = render(SequenceEditor);
    expect(before).toContain('From board Lighthouse');
    expect(before).toMatch(/<button[^>]*data-testid="board-send-film"[^>]*disabled=""/);
    showImported(sequence({ ...imported, assembly: ready, assemblyCurrent: true }));
    const after = render(SequenceEditor);
    expect(after).toContain('data-testid="board-send-film"');
    expect(after).not.toMatch(/<button[^>]*data-testid="board-send-film"[^>]*disabled=""/);
  });

  it('says nothing about boards for a sequence not imported, or where storyboards are not offered', () => {
    show({ openSequenceId: 'seq-9', sequence: imported, boardLink: { sequenceId: 'seq-9', link: null } });
    expect(render(SequenceEditor)).not.toContain('board-link');
    showImported(imported, { info: { capabilities: { ...PLATFORM_CAPABILITIES, storyboards: false } } });
    expect(render(SequenceEditor)).not.toContain('board-link');
    // a link answered for another sequence is not this one's
    showImported(imported, { boardLink: { sequenceId: 'seq-other', link } });
    expect(render(SequenceEditor)).not.toContain('From board');
  });

  it('offers "Send shot to its panel" on a shot from a panel with a verified result only', () => {
    const done = {
      state: 'succeeded' as const,
      sha256: 'b'.repeat(64),
      mediaUrl: '/media/1',
      durationSeconds: 5,
    };
    showImported(
      sequence({
        ...imported,
        shots: [
          shot(done),
          shot({ shotId: 'shot-2', position: 1, label: 'Shot 2' }),
          shot({ shotId: 'shot-3', position: 2, label: 'Shot 3', ...done }),
        ],
      }),
    );
    const markup = render(SequenceEditor);
    expect(markup).toContain('data-testid="sequence-shot-send-0"');
    expect(markup).not.toContain('data-testid="sequence-shot-send-1"'); // no verified result yet
    expect(markup).not.toContain('data-testid="sequence-shot-send-2"'); // not made from a panel
  });

  it('shows each send’s state: sending, sent, replayed, or the core’s sentence', () => {
    const assembled = sequence({ ...imported, assembly: ready, assemblyCurrent: true });
    const withSend = (send: unknown) => {
      showImported(assembled, { boardSends: { 'seq-9:film': send } });
      return render(SequenceEditor);
    };
    expect(withSend({ state: 'sending' })).toContain('Sending…');
    expect(withSend({ state: 'sent', result: sent })).toContain('Sent to the board (panel pnl_1).');
    expect(withSend({ state: 'sent', result: { ...sent, replayed: true } })).toContain(
      'Already on the board (panel pnl_1): nothing new was written.',
    );
    expect(withSend({ state: 'failed', error: 'The board is gone.' })).toContain(
      'Not sent: The board is gone.',
    );
  });
});
