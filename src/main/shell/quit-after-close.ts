/** What the quit handler needs of Electron's `app` (a fake in tests). */
export interface QuittingApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

export interface Closable {
  close(): Promise<void>;
}

/**
 * Holds the first quit until the core has stopped its runs and closed the journal (at most
 * `limitMs`), then quits for real; nothing is half recorded and unfinished jobs continue at the
 * next start. `take` hands over the core once (it returns nothing afterwards, or before start-up).
 */
export function quitAfterClose(app: QuittingApp, take: () => Closable | undefined, limitMs = 5_000): void {
  app.on('before-quit', (event) => {
    const closing = take();
    if (!closing) return;
    event.preventDefault();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, limitMs);
    });
    void Promise.race([closing.close(), limit])
      .catch(() => undefined)
      .finally(() => {
        clearTimeout(timer);
        app.quit();
      });
  });
}
