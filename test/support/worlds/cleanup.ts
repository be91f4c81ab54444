/**
 * The one cleanup registry of every test world. What a test opens is closed when it is done: a
 * thing opened inside a test (or its `beforeEach`) when that test ends, a thing opened in a
 * `beforeAll` or at a file's top level when the file's tests end. The drains run from `setup.ts`
 * (vitest's setup file), after the test's own hooks, newest first (a world before its folder).
 * This file knows no test runner (the setup file tells it whether a test is running), so a
 * Playwright spec may import a module that uses it.
 */
type Cleanup = () => unknown;
type Scope = 'test' | 'file';

const pending: Record<Scope, Cleanup[]> = { test: [], file: [] };
let insideTest: () => boolean = () => false;

/** How the registry tells a running test from a file's set-up (the runner's setup file says). */
export function tellTestsBy(isTestRunning: () => boolean): void {
  insideTest = isTestRunning;
}

/** Runs `cleanup` when the current test (or, outside a test, the current file) is done. */
export function whenDone(cleanup: Cleanup): void {
  pending[insideTest() ? 'test' : 'file'].push(cleanup);
}

/**
 * Closes `thing` when done. Its `close` becomes once-only, so a test that closes it itself (or
 * restarts on the same data) closes nothing twice.
 */
export function closeWhenDone<T extends { close(): Promise<void> | void }>(thing: T): T {
  const close = thing.close.bind(thing);
  let closing: Promise<void> | undefined;
  Object.defineProperty(thing, 'close', {
    configurable: true,
    writable: true,
    value: () => (closing ??= Promise.resolve().then(close)),
  });
  whenDone(() => thing.close());
  return thing;
}

/** Runs a scope's cleanups, newest first; every one runs even if one fails (the first error is thrown). */
export async function drain(scope: Scope): Promise<void> {
  const cleanups = pending[scope].splice(0).reverse();
  let failure: unknown;
  for (const cleanup of cleanups) {
    try {
      await cleanup();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}
