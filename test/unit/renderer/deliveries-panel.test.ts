/**
 * The Deliveries panel of a sequence, rendered: each format with its own fit, the loudness targets
 * and the captions choice, a delivery's progress with its cancel button, each with an accessible
 * name.
 */
import { describe, expect, it, vi } from 'vitest';
import { delivery, sequence } from './sequence-fixtures.js';
import { renderMarkup, rendererModule } from './static-render.js';

const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
vi.mock('../../../src/renderer/src/store', () => {
  const useStudio = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useStudio };
});
vi.mock('../../../src/renderer/src/store/deliveries-store', () => {
  const useDeliveries = (selector: (s: Record<string, unknown>) => unknown) => selector(shown.state);
  return { useDeliveries };
});

const { DeliveriesPanel } = await rendererModule<{ DeliveriesPanel: unknown }>(
  'screens/sequences/DeliveriesPanel.js',
);

const noop = () => Promise.resolve(true);
function show(patch: Record<string, unknown>) {
  const state: Record<string, unknown> = {
    deliveries: null,
    busy: false,
    error: null,
    ...patch,
  };
  shown.state = new Proxy(state, { get: (target, key: string) => (key in target ? target[key] : noop) });
}

describe('the Deliveries panel', () => {
  it('the panel offers each format with its fit, the loudness targets and captions, with accessible names', () => {
    show({
      sequence: sequence({ assemblable: true }),
      deliveries: {
        sequenceId: sequence().sequenceId,
        list: [delivery({ sequenceId: sequence().sequenceId, progress: 0.42 })],
      },
    });
    const html = renderMarkup(DeliveriesPanel, {});
    for (const preset of ['16x9', '9x16', '1x1']) {
      expect(html).toContain(`data-testid="delivery-preset-${preset}"`);
      expect(html).toContain(`data-testid="delivery-fit-${preset}"`);
    }
    expect(html).toContain('Deliver 9:16 (1080×1920)');
    expect(html).toContain('aria-label="Fit of 9:16"');
    expect(html).toContain('Broadcast, −23 LUFS');
    expect(html).toContain('Burn captions into the picture');
    expect(html).toContain('aria-label="Cancel the 16:9 delivery"');
    expect(html).toContain('aria-label="Rendering 16:9: 42 %"');
  });

  it('a ready delivery shows its measured loudness and a link to play it in the library', () => {
    show({
      sequence: sequence({ assemblable: true }),
      deliveries: {
        sequenceId: sequence().sequenceId,
        list: [
          delivery({
            sequenceId: sequence().sequenceId,
            preset: '9x16',
            state: 'ready',
            fit: 'crop',
            measuredLufs: -14.2,
            fileName: 'harbour-9x16.mp4',
            mediaUrl: '/media/delivery/d-1?s=x',
          }),
        ],
      },
    });
    const html = renderMarkup(DeliveriesPanel, {});
    expect(html).toContain('-14.2 LUFS measured (target -14)');
    expect(html).toContain('aria-label="Play the 9:16 delivery in the library"');
    expect(html).not.toContain('delivery-cancel');
  });
});
