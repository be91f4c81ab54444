import { describe, expect, it, vi } from 'vitest';
import { ipcChannelForMethod } from '../../../src/shared/bridge/api.js';
import { methodNames } from '../../../src/shared/bridge/contract.js';
import { registerBridgeIpc } from '../../../src/main/shell/ipc.js';
import { shouldCheckForUpdates, startUpdateCheck } from '../../../src/main/shell/updater.js';

const APP = 'file:///app/out/renderer/index.html';

function fakeIpc() {
  const handlers = new Map<string, (event: unknown, params: unknown) => Promise<unknown>>();
  return {
    handlers,
    handle: (channel: string, handler: never) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  };
}

describe('IPC registration', () => {
  it('registers exactly one handler per contract method', () => {
    const ipc = fakeIpc();
    registerBridgeIpc(ipc as never, { dispatch: vi.fn() }, (url) => url === APP);
    expect([...ipc.handlers.keys()].sort()).toEqual(methodNames.map(ipcChannelForMethod).sort());
  });

  it('checks the sender frame before dispatching', async () => {
    const ipc = fakeIpc();
    const dispatch = vi.fn(async () => ({ ok: true as const, result: 'ok' }));
    const unregister = registerBridgeIpc(ipc as never, { dispatch }, (url) => url === APP);
    const handler = ipc.handlers.get(ipcChannelForMethod('app.info'))!;

    const fromApp = await handler({ senderFrame: { url: APP, parent: null } }, {});
    expect(fromApp).toEqual({ ok: true, result: 'ok' });
    expect(dispatch).toHaveBeenCalledWith('app.info', {});

    dispatch.mockClear();
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: APP, parent: { url: APP } },
      null,
    ]) {
      const refused = await handler({ senderFrame }, {});
      expect(refused).toMatchObject({ ok: false, error: { code: 'bridge.untrusted_sender' } });
    }
    expect(dispatch).not.toHaveBeenCalled();
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });
});

describe('update policy', () => {
  it('checks only in packaged builds, outside simulator mode, unless disabled', () => {
    expect(shouldCheckForUpdates({ isPackaged: false, activeProfileKind: 'personal', env: {} })).toBe(false);
    expect(shouldCheckForUpdates({ isPackaged: true, activeProfileKind: 'simulator', env: {} })).toBe(false);
    expect(shouldCheckForUpdates({ isPackaged: true, activeProfileKind: 'personal', env: {} })).toBe(true);
    expect(
      shouldCheckForUpdates({
        isPackaged: true,
        activeProfileKind: 'personal',
        env: { FRAMEWRIGHT_DISABLE_UPDATES: '1' },
      }),
    ).toBe(false);
  });

  it('a failing update check is logged, not thrown', async () => {
    const log = vi.fn();
    const updater = {
      autoDownload: false,
      checkForUpdatesAndNotify: vi.fn(async () => {
        throw new Error('offline');
      }),
      on: vi.fn(),
    };
    startUpdateCheck(updater, log);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(updater.autoDownload).toBe(true);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('offline'));
  });
});
