/**
 * Server rendering of the renderer's components in the unit project (node, no DOM): the
 * renderer's modules are the web project's (JSX, DOM), so they are imported by a path the node
 * typecheck does not follow and typed by the test that uses them; React's types declare DOM
 * interfaces of their own and stay out of the node typecheck the same way. The i18n catalogue is
 * loaded first (English), as the app does. A test that renders a module importing the bridge mocks
 * it itself: `vi.mock('../../../src/renderer/src/bridge', () => import('./fake-bridge.js'))`.
 */
type Element = { readonly element: unique symbol };

const reactModule = 'react';
const serverModule = 'react-dom/server';
const i18nModule = '../../../src/renderer/src/i18n/index.js';

const { createElement } = (await import(reactModule)) as {
  createElement(type: unknown, props: Record<string, unknown>): Element;
};
const { renderToStaticMarkup } = (await import(serverModule)) as {
  renderToStaticMarkup(element: Element): string;
};
await import(i18nModule);

/** A module of `src/renderer/src/` by its path there (e.g. `screens/queue/QueueScreen.js`). */
export async function rendererModule<T>(pathInRenderer: string): Promise<T> {
  const path = `../../../src/renderer/src/${pathInRenderer}`;
  return (await import(path)) as T;
}

/** The static markup of a component rendered with these props. */
export function renderMarkup(component: unknown, props: Record<string, unknown>): string {
  return renderToStaticMarkup(createElement(component, props));
}
