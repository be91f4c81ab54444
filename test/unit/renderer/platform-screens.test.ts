/**
 * The renderer on the platform: only what the platform offers is in the Playground, an export of a
 * result runs once and hands the browser a download, and Create shows the dry-run's cost.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fake } from './fake-bridge.js';
import {
  PLATFORM_CAPABILITIES,
  PUBLIC_API_CAPABILITIES,
} from '../../../src/main/core/backends/capabilities.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));

interface State {
  [name: string]: unknown;
  exporting: number[];
  exportErrors: Record<number, string>;
  admission: unknown;
  draft: { id: string } | null;
  exportMarked(jobRowId: number): Promise<void>;
  checkAdmission(): Promise<void>;
}
interface Store {
  getState(): State;
  setState(state: Record<string, unknown>, replace?: boolean): void;
}
const storeModule = '../../../src/renderer/src/store/index.js';
const playgroundModule = '../../../src/renderer/src/screens/playground/PlaygroundScreen.js';
const { useStudio } = (await import(storeModule)) as { useStudio: Store };
const initial = useStudio.getState();

/** The few DOM calls a download makes, recorded (the tests run in Node). */
const clicked: { href: string; download: string }[] = [];
const fakeDocument = {
  createElement: () => {
    const link = {
      href: '',
      download: '',
      rel: '',
      click: () => clicked.push({ href: link.href, download: link.download }),
      remove: () => undefined,
    };
    return link;
  },
  body: { append: () => undefined },
};

beforeEach(() => {
  useStudio.setState(initial, true);
  fake.reset();
  clicked.length = 0;
  (globalThis as { document?: unknown }).document = fakeDocument;
});
afterEach(() => {
  delete (globalThis as { document?: unknown }).document;
});

describe('the Playground on the platform', () => {
  it('offers the panels the backend declares, in their order: every one on the platform and with a personal key, two where only two are declared', async () => {
    const { playgroundPanels } = (await import(playgroundModule)) as {
      playgroundPanels(offered?: readonly string[]): string[];
    };
    expect(playgroundPanels(['image', 'audio'])).toEqual(['audio', 'image']);
    expect(playgroundPanels(PLATFORM_CAPABILITIES.playgroundPanels)).toHaveLength(8);
    expect(playgroundPanels(PUBLIC_API_CAPABILITIES.playgroundPanels)).toContain('chat');
    expect(playgroundPanels(PUBLIC_API_CAPABILITIES.playgroundPanels)).toHaveLength(8);
    expect(playgroundPanels(undefined)).toHaveLength(8);
  });
});

describe('export of a marked copy', () => {
  it('runs once however often it is pressed, then downloads the copy under its name', async () => {
    let answer: (value: unknown) => void = () => undefined;
    fake.answers.set('library.export', () => new Promise((resolve) => (answer = resolve)));
    const first = useStudio.getState().exportMarked(7);
    const second = useStudio.getState().exportMarked(7);
    expect(useStudio.getState().exporting).toEqual([7]);
    answer({ fileName: 'abc.mp4', byteSize: 10, downloadPath: '/exports/abc.mp4' });
    await Promise.all([first, second]);
    expect(fake.calls.filter((c) => c.method === 'library.export')).toEqual([
      { method: 'library.export', params: { jobRowId: 7 } },
    ]);
    expect(clicked).toEqual([{ href: '/exports/abc.mp4', download: 'abc.mp4' }]);
    expect(useStudio.getState().exporting).toEqual([]);
  });

  it('a failed export says why, downloads nothing, and can be tried again', async () => {
    fake.answers.set('library.export', () => {
      throw new Error('The marked copy was not ready within the time Framewright waits for it.');
    });
    await useStudio.getState().exportMarked(3);
    expect(useStudio.getState().exportErrors[3]).toMatch(/not ready/);
    expect(clicked).toEqual([]);
    expect(useStudio.getState().exporting).toEqual([]);
    fake.answers.set('library.export', () => ({
      fileName: 'x.png',
      byteSize: 1,
      downloadPath: '/exports/x.png',
    }));
    await useStudio.getState().exportMarked(3);
    expect(useStudio.getState().exportErrors[3]).toBeUndefined();
    expect(clicked).toHaveLength(1);
  });
});

describe('the dry-run in Create', () => {
  it('keeps the estimated cost text and the blockers as the reason', async () => {
    useStudio.setState({ draft: { id: 'd1' }, flushDraft: async () => undefined });
    fake.answers.set('video.admission', () => ({
      admitted: false,
      admission: {
        reason: 'The balance is too low (admission)',
        estimatedCost: { text: '15.00 CREDIT for 5 seconds' },
      },
      generatedAt: '2026-11-24T00:00:00.000Z',
    }));
    await useStudio.getState().checkAdmission();
    expect(useStudio.getState().admission).toEqual({
      kind: 'answered',
      admitted: false,
      reason: 'The balance is too low (admission)',
      cost: '15.00 CREDIT for 5 seconds',
    });
  });
});
