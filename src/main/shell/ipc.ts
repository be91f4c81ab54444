import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { ipcChannelForMethod, type BridgeResponse } from '../../shared/bridge/api.js';
import { methodNames } from '../../shared/bridge/contract.js';
import type { BridgeDispatcher } from '../core/bridge/dispatcher.js';

/** The answer to a call from anything but the app's own top-level frame. */
export const UNTRUSTED_SENDER: BridgeResponse = {
  ok: false,
  error: { code: 'bridge.untrusted_sender', message: 'Refused: the call did not come from the app.' },
};

/** The one sender check of every IPC channel: the app's own top-level frame, nothing else. */
export function isTrustedSender(event: IpcMainInvokeEvent, isAppUrl: (url: string) => boolean): boolean {
  const frame: WebFrameMain | null = event.senderFrame;
  return frame !== null && frame.parent === null && isAppUrl(frame.url);
}

/**
 * Registers one IPC handler per contract method. Every call first checks that it comes from the
 * app's own top-level frame (GitHub Desktop's rule: verify the sender before anything else),
 * then goes through the core dispatcher, which validates the params against the contract.
 */
export function registerBridgeIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  dispatcher: BridgeDispatcher,
  isAppUrl: (url: string) => boolean,
): () => void {
  for (const method of methodNames) {
    ipcMain.handle(ipcChannelForMethod(method), async (event, params: unknown): Promise<BridgeResponse> => {
      if (!isTrustedSender(event, isAppUrl)) return UNTRUSTED_SENDER;
      return dispatcher.dispatch(method, params);
    });
  }
  return () => {
    for (const method of methodNames) ipcMain.removeHandler(ipcChannelForMethod(method));
  };
}
