import type { IpcMain, IpcMainInvokeEvent, WebFrameMain } from 'electron';
import { ipcChannelForMethod, type BridgeResponse } from '../../shared/bridge/api.js';
import { methodNames } from '../../shared/bridge/contract.js';
import type { BridgeDispatcher } from '../core/bridge/dispatcher.js';

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
  const isTrustedSender = (event: IpcMainInvokeEvent): boolean => {
    const frame: WebFrameMain | null = event.senderFrame;
    return frame !== null && frame.parent === null && isAppUrl(frame.url);
  };
  for (const method of methodNames) {
    ipcMain.handle(ipcChannelForMethod(method), async (event, params: unknown): Promise<BridgeResponse> => {
      if (!isTrustedSender(event)) {
        return {
          ok: false,
          error: { code: 'bridge.untrusted_sender', message: 'Refused: the call did not come from the app.' },
        };
      }
      return dispatcher.dispatch(method, params);
    });
  }
  return () => {
    for (const method of methodNames) ipcMain.removeHandler(ipcChannelForMethod(method));
  };
}
