import { createBridgeClient, type BridgeTransport, type FramewrightBridge } from '../../../shared/bridge/api';
import { createHttpTransport } from './http-transport';

declare global {
  interface Window {
    /** Set by the Electron preload; absent when the studio is served by the browser host. */
    framewright?: BridgeTransport;
  }
}

/** The one bridge the renderer uses, whichever host it runs in. */
export const bridge: FramewrightBridge = createBridgeClient(window.framewright ?? createHttpTransport());
