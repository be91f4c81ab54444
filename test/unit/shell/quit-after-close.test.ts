import { afterEach, describe, expect, it, vi } from 'vitest';
import { quitAfterClose, type QuittingApp } from '../../../src/main/shell/quit-after-close.js';

function fakeApp() {
  let listener: ((event: { preventDefault(): void }) => void) | undefined;
  const quit = vi.fn<() => void>();
  const app: QuittingApp & { quit: typeof quit } = {
    on: (_event, l) => {
      listener = l;
    },
    quit,
  };
  const beforeQuit = () => {
    const event = { preventDefault: vi.fn() };
    listener!(event);
    return event;
  };
  return { app, beforeQuit };
}

function handOnce<T>(value: T) {
  let held: T | undefined = value;
  return () => {
    const out = held;
    held = undefined;
    return out;
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('quitting the app', () => {
  it('holds the quit until the core is closed, then quits once; the second before-quit passes', async () => {
    const { app, beforeQuit } = fakeApp();
    let finishClose!: () => void;
    const close = vi.fn(() => new Promise<void>((resolve) => (finishClose = resolve)));
    quitAfterClose(app, handOnce({ close }));

    const first = beforeQuit();
    expect(first.preventDefault).toHaveBeenCalled();
    expect(close).toHaveBeenCalledTimes(1);
    await Promise.resolve();
    expect(app.quit).not.toHaveBeenCalled(); // the journal is still being closed

    finishClose();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    // app.quit() fires before-quit again: now it goes through
    const second = beforeQuit();
    expect(second.preventDefault).not.toHaveBeenCalled();
    expect(close).toHaveBeenCalledTimes(1);
  });

  it('a close that hangs or fails does not keep the app open past the limit', async () => {
    vi.useFakeTimers();
    const hanging = fakeApp();
    quitAfterClose(hanging.app, handOnce({ close: () => new Promise<void>(() => undefined) }), 5_000);
    hanging.beforeQuit();
    await vi.advanceTimersByTimeAsync(4_999);
    expect(hanging.app.quit).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(hanging.app.quit).toHaveBeenCalledTimes(1);

    const failing = fakeApp();
    quitAfterClose(failing.app, handOnce({ close: () => Promise.reject(new Error('disk gone')) }));
    failing.beforeQuit();
    await vi.advanceTimersByTimeAsync(0);
    expect(failing.app.quit).toHaveBeenCalledTimes(1);
  });

  it('before the core exists, quitting is not held', () => {
    const { app, beforeQuit } = fakeApp();
    quitAfterClose(app, () => undefined);
    expect(beforeQuit().preventDefault).not.toHaveBeenCalled();
    expect(app.quit).not.toHaveBeenCalled();
  });
});
