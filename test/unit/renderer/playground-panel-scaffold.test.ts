import { describe, expect, it, vi } from 'vitest';
import { renderMarkup, rendererModule } from './static-render.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

const { PanelScaffold } = await rendererModule<{ PanelScaffold: unknown }>(
  'screens/playground/PanelScaffold.js',
);

/** The panel state the scaffold shows (the hook's, without its functions' work). */
const panel = (state: { busy?: boolean; preparing?: boolean }) => ({
  services: [{ modelAlias: 'img-1', label: 'Image 1', available: true }],
  model: 'img-1',
  setModel: () => undefined,
  service: undefined,
  busy: false,
  preparing: false,
  error: null,
  result: null,
  run: async () => undefined,
  attempt: async () => undefined,
  ...state,
});

const runButton = (markup: string) => /<button[^>]*data-testid="image-run"[^>]*>/.exec(markup)?.[0] ?? '';

describe('a Playground panel’s Run', () => {
  const render = (state: { busy?: boolean; preparing?: boolean }) =>
    renderMarkup(PanelScaffold, {
      id: 'image',
      title: 'Images',
      hint: '',
      panel: panel(state),
      runLabel: 'Generate',
      onRun: () => undefined,
      renderResult: () => null,
    });

  it('waits while an input file is still on its way (run then, the call would go without it)', () => {
    expect(runButton(render({}))).not.toContain('disabled');
    expect(runButton(render({ preparing: true }))).toMatch(/disabled=""[^>]*aria-busy="true"/);
    expect(runButton(render({ busy: true }))).toContain('disabled');
  });
});
