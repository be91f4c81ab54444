/**
 * Deliveries in the renderer: the formats the creator ticks become one delivery each (with its
 * own fit, the loudness target and the captions choice), progress and cancel follow the core, a
 * ready delivery opens the Library with it in the player, and the safe-area preview draws the
 * chosen format's frame with its safe areas over the assembly (the panel: deliveries-panel.test.ts).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeliveryView } from '../../../src/shared/bridge/contract.js';
import { fake } from './fake-bridge.js';
import { delivery } from './sequence-fixtures.js';
import { renderMarkup, rendererModule } from './static-render.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface State {
  deliveries: { sequenceId: string; list: DeliveryView[] } | null;
  films: DeliveryView[] | null;
  error: string | null;
  focusedFilm: string | null;
  loadDeliveries(sequenceId: string): Promise<void>;
  deliver(requests: Record<string, unknown>[]): Promise<boolean>;
  cancelDelivery(deliveryId: string): Promise<void>;
  loadFilms(): Promise<void>;
  playInLibrary(deliveryId: string): void;
}
const { useDeliveries } = await rendererModule<{
  useDeliveries: { getState(): State; setState(s: object, replace?: boolean): void };
}>('store/deliveries-store.js');
const { useStudio } = await rendererModule<{ useStudio: { getState(): { section: string } } }>(
  'store/index.js',
);
const { SafeAreaPreview } = await rendererModule<{ SafeAreaPreview: unknown }>(
  'screens/sequences/SafeAreaPreview.js',
);
const initial = useDeliveries.getState();
const state = () => useDeliveries.getState();
const calls = (method: string) => fake.calls.filter((c) => c.method === method).map((c) => c.params);

beforeEach(() => {
  useDeliveries.setState(initial, true);
  fake.reset();
});

describe('deliveries', () => {
  it('starts one delivery per chosen format and lists each as the core answers it', async () => {
    fake.answers.set('sequences.deliveries.list', () => []);
    await state().loadDeliveries('seq-1');
    let n = 0;
    fake.answers.set('sequences.deliver', (p) => delivery({ ...p, deliveryId: `d-${++n}`, createdAt: n }));
    const requests = [
      { sequenceId: 'seq-1', preset: '16x9', fit: 'pad', loudnessTarget: -14, burnCaptions: false },
      { sequenceId: 'seq-1', preset: '9x16', fit: 'crop', loudnessTarget: -14, burnCaptions: false },
    ];
    expect(await state().deliver(requests)).toBe(true);
    expect(calls('sequences.deliver')).toEqual(requests);
    expect(state().deliveries?.list.map((d) => [d.deliveryId, d.preset, d.fit])).toEqual([
      ['d-2', '9x16', 'crop'],
      ['d-1', '16x9', 'pad'],
    ]);
  });

  it('keeps the core’s sentence when a delivery cannot start, and cancels a running one', async () => {
    fake.answers.set('sequences.deliver', () => {
      throw new Error('Every shot needs its verified result before the film can be delivered.');
    });
    expect(await state().deliver([{ sequenceId: 'seq-1', preset: '1x1' }])).toBe(false);
    expect(state().error).toContain('Every shot needs its verified result');
    fake.answers.set('sequences.deliveries.list', () => [delivery({ state: 'cancelled' })]);
    fake.answers.set('sequences.deliveries.cancel', () => ({ cancelled: true }));
    await state().loadDeliveries('seq-1');
    await state().cancelDelivery('d-1');
    expect(calls('sequences.deliveries.cancel')).toEqual([{ deliveryId: 'd-1' }]);
    expect(state().deliveries?.list[0]?.state).toBe('cancelled');
  });

  it('“Play in the library” opens the Library with that film, listed among every sequence’s films', async () => {
    state().playInLibrary('d-7');
    expect(state().focusedFilm).toBe('d-7');
    expect(useStudio.getState().section).toBe('library');
    const film = delivery({ deliveryId: 'd-7', state: 'ready', mediaUrl: '/media/delivery/d-7?s=x' });
    fake.answers.set('sequences.deliveries.list', () => [film]);
    await state().loadFilms();
    expect(calls('sequences.deliveries.list')).toEqual([{}]);
    expect(state().films).toEqual([film]);
  });

  it('the preview pads a landscape film inside 9:16 and crops it to fill, with the safe areas', () => {
    const padded = renderMarkup(SafeAreaPreview, { preset: '9x16', fit: 'pad', videoUrl: '/media/a' });
    // 1376x768 scaled to 1080 wide: 602.8 high, centred in 1920
    expect(padded).toMatch(/left:0%;top:34\.30\d*%;width:100%;height:31\.39\d*%/);
    const cropped = renderMarkup(SafeAreaPreview, { preset: '9x16', fit: 'crop', videoUrl: '/media/a' });
    expect(cropped).toMatch(/top:0%;width:318\.51\d*%;height:100%/);
    // action safe 93 %, title safe 90 %, centred
    expect(padded).toMatch(/safe-area-action" style="left:3\.5\d*%;top:3\.5\d*%;width:93%;height:93%"/);
    expect(padded).toMatch(/safe-area-title" style="left:5%;top:5%;width:90%;height:90%"/);
    expect(padded).toContain('aria-label="Safe areas of 9:16"');
  });
});
