/**
 * What the studio puts on screen reads as a sentence: no word doubled ("job job_…"), no raw
 * user id where a person is named.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';

vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'));
// server rendering reads a zustand store's initial state: the status bar reads this one instead
const shown = vi.hoisted(() => ({ state: {} as Record<string, unknown> }));
vi.mock('../../../src/renderer/src/store', () => ({
  useStudio: (select: (state: Record<string, unknown>) => unknown) => select(shown.state),
}));
// the renderer's modules are the web project's (JSX, DOM): imported by name, typed here
const i18nModule = '../../../src/renderer/src/i18n/index.js';
const resultModule = '../../../src/renderer/src/screens/playground/GenerationResultView.js';
const statusModule = '../../../src/renderer/src/components/StatusBar.js';
const reactModule = 'react';
const serverModule = 'react-dom/server';
type Element = { readonly element: unique symbol };
const { createElement } = (await import(reactModule)) as {
  createElement(type: unknown, props: Record<string, unknown>): Element;
};
const { renderToStaticMarkup } = (await import(serverModule)) as {
  renderToStaticMarkup(element: Element): string;
};
await import(i18nModule);
const { GenerationResultView } = (await import(resultModule)) as { GenerationResultView: unknown };
const { StatusBar } = (await import(statusModule)) as { StatusBar: unknown };

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
    const html = renderToStaticMarkup(
      createElement(GenerationResultView, {
        result: { state: 'succeeded', jobId: 'job_9dfe12', outputs: [], message: null },
        kind: 'audio',
        testId: 'speech-result',
      }),
    );
    const text = textOf(html);
    expect(text).toContain('Job ID: job_9dfe12');
    expect(doubledWord(text)).toBeNull();
  });

  it('the status bar names a signed-in person by their directory name, else "you" — never the raw user id', () => {
    shown.state = studioState({ userId: 'usr_sim_member', organizationId: 'org_1', appRoles: ['member'] });
    let text = textOf(renderToStaticMarkup(createElement(StatusBar, {})));
    expect(text).toContain('Signed in as: you');
    expect(text).not.toContain('usr_sim_member');
    shown.state = studioState({
      userId: 'usr_sim_manager',
      displayName: 'Mei Chen',
      organizationId: 'org_1',
      appRoles: ['manager'],
    });
    text = textOf(renderToStaticMarkup(createElement(StatusBar, {})));
    expect(text).toContain('Signed in as: Mei Chen');
    expect(text).not.toContain('usr_sim_manager');
  });
});
