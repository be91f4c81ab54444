/**
 * What the studio puts on screen reads as a sentence: no word doubled ("job job_…"), no raw
 * user id where a person is named.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderMarkup, rendererModule } from './static-render.js';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
// server rendering reads a zustand store's initial state: the status bar reads this one instead
const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/store', () => ({
  useStudio: (select: (state: Record<string, unknown>) => unknown) => select(shown.state),
}));
const { GenerationResultView } = await rendererModule<{ GenerationResultView: unknown }>(
  'screens/playground/GenerationResultView.js',
);
const { StatusBar } = await rendererModule<{ StatusBar: unknown }>('components/StatusBar.js');

/** The markup's visible text: tags dropped, entities of quotes decoded, spaces collapsed. */
const textOf = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replaceAll('&#x27;', "'")
    .replace(/\s+/g, ' ')
    .trim();
const doubledWord = (text: string) => /\b(\w+)\s+\1\b/i.exec(text)?.[0] ?? null;

const studioState = (signedIn: Record<string, unknown>) => ({
  info: { signedIn },
  profiles: [],
  activeProfileId: null,
  connection: { profileId: 'runtime', state: 'connected', checkedAt: '' },
});

beforeEach(() => {
  shown.state = {};
});

describe('words on screen', () => {
  it('a generation result names its job once: "Job ID: job_…", not "job job_…"', () => {
    const html = renderMarkup(GenerationResultView, {
      result: { state: 'succeeded', jobId: 'job_9dfe12', outputs: [], message: null },
      kind: 'audio',
      testId: 'speech-result',
    });
    const text = textOf(html);
    expect(text).toContain('Job ID: job_9dfe12');
    expect(doubledWord(text)).toBeNull();
  });

  it('the status bar names a signed-in person by their directory name, else what is true of them — never the raw user id', () => {
    shown.state = studioState({ userId: 'usr_sim_member', organizationId: 'org_1', appRoles: ['member'] });
    let text = textOf(renderMarkup(StatusBar, {}));
    expect(text).toContain('Signed in as a member of your organization');
    expect(text).not.toContain('usr_sim_member');
    shown.state = studioState({
      userId: 'usr_sim_manager',
      displayName: 'Mei Chen',
      organizationId: 'org_1',
      appRoles: ['manager'],
    });
    text = textOf(renderMarkup(StatusBar, {}));
    expect(text).toContain('Signed in as: Mei Chen');
    expect(text).not.toContain('usr_sim_manager');
  });
});
