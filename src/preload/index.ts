import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import {
  IPC_EVENT_CHANNEL,
  IPC_STAGE_FILE_CHANNEL,
  ipcChannelForMethod,
  isStagePurpose,
  type BridgeResponse,
  type BridgeTransport,
} from '../shared/bridge/api.js';
import { isEventName, isMethodName, METHOD_NAMES } from '../shared/bridge/names.js';

/**
 * Exposes exactly the bridge contract to the page as `window.framewright`, nothing else:
 * no ipcRenderer, no Node, no arbitrary channels.
 */
const transport: BridgeTransport = {
  methods: Object.freeze([...METHOD_NAMES]),
  invoke(method, params) {
    if (!isMethodName(method)) {
      return Promise.resolve<BridgeResponse>({
        ok: false,
        error: { code: 'bridge.unknown_method', message: `Unknown bridge method "${String(method)}".` },
      });
    }
    return ipcRenderer.invoke(ipcChannelForMethod(method), params) as Promise<BridgeResponse>;
  },
  stageFile(file, purpose) {
    // only a File the user dropped or picked has a path; one made by page script has none
    let filePath = '';
    try {
      filePath = webUtils.getPathForFile(file as File);
    } catch {
      filePath = '';
    }
    if (!filePath) {
      return Promise.resolve<BridgeResponse>({
        ok: false,
        error: {
          code: 'file.no_path',
          message: 'Only files dropped or picked from the desktop can be added.',
        },
      });
    }
    const forWhat = isStagePurpose(purpose) ? purpose : 'composer';
    return ipcRenderer.invoke(IPC_STAGE_FILE_CHANNEL, filePath, forWhat) as Promise<BridgeResponse>;
  },
  subscribe(listener) {
    const handler = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (isEventName(name)) listener(name, payload);
    };
    ipcRenderer.on(IPC_EVENT_CHANNEL, handler);
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, handler);
    };
  },
};

contextBridge.exposeInMainWorld('framewright', transport);
