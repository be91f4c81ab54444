import type { EventName, EventPayload, MethodName, MethodParams, MethodResult } from './contract.js';
import type { DraftMedia } from './domains/studio.js';

/** Error shape every bridge failure takes, on both transports. */
export interface BridgeErrorShape {
  code: string;
  message: string;
  details?: unknown;
}

/** Thrown in the renderer when a bridge call fails; carries the main side's code. */
export class BridgeError extends Error implements BridgeErrorShape {
  readonly code: string;
  readonly details?: unknown;
  constructor(shape: BridgeErrorShape) {
    super(shape.message);
    this.name = 'BridgeError';
    this.code = shape.code;
    this.details = shape.details;
  }
}

export type Unsubscribe = () => void;

/**
 * What the renderer sees as `window.framewright`, whichever host it runs in.
 * Derived from the contract: adding a method there adds it here.
 */
export interface FramewrightBridge {
  invoke<M extends MethodName>(method: M, params: MethodParams<M>): Promise<MethodResult<M>>;
  /** Hands a file the creator dropped or picked to the core; answers its probed facts and staging id. */
  stageFile(file: StageableFile): Promise<DraftMedia>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): Unsubscribe;
}

/** The envelope both transports use for a method's answer. */
export type BridgeResponse<T = unknown> = { ok: true; result: T } | { ok: false; error: BridgeErrorShape };

/**
 * What a host exposes to the page as `window.framewright`: the Electron preload (over IPC) or the
 * renderer's HTTP/WebSocket transport (browser host). Answers are envelopes, because errors do not
 * survive Electron's context bridge as objects; `createBridgeClient` turns them into a typed API.
 */
export interface BridgeTransport {
  /** The contract's method names, exactly. */
  readonly methods: readonly MethodName[];
  invoke(method: MethodName, params: unknown): Promise<BridgeResponse>;
  subscribe(listener: (event: EventName, payload: unknown) => void): Unsubscribe;
  /**
   * Stages a file the creator dropped or picked (a DOM `File`). The browser host streams its
   * bytes to `POST /bridge/files`; the Electron preload passes only the path that
   * `webUtils.getPathForFile` gives for a real user-chosen File (a page-made File has none), and
   * the shell copies it into staging. Either way the renderer never names a path.
   */
  stageFile(file: StageableFile): Promise<BridgeResponse>;
}

/** A DOM `File` as far as the shared layer needs to know it. */
export interface StageableFile extends Blob {
  readonly name: string;
}

/** Turns a transport into the typed API the renderer uses. */
export function createBridgeClient(transport: BridgeTransport): FramewrightBridge {
  return {
    async invoke(method, params) {
      const response = await transport.invoke(method, params);
      if (response.ok) return response.result as never;
      throw new BridgeError(response.error);
    },
    async stageFile(file) {
      const response = await transport.stageFile(file);
      // main checked the answer against the contract's DraftMedia before either transport sent it
      if (response.ok) return response.result as DraftMedia;
      throw new BridgeError(response.error);
    },
    on(event, listener) {
      return transport.subscribe((name, payload) => {
        if (name === event) listener(payload as never);
      });
    },
  };
}

/** IPC channel names used by the Electron transport (one channel per method). */
export const ipcChannelForMethod = (method: MethodName): string => `framewright:invoke:${method}`;
export const IPC_EVENT_CHANNEL = 'framewright:event';
/** The one extra channel: staging a user-chosen file by the path Electron knows for it. */
export const IPC_STAGE_FILE_CHANNEL = 'framewright:stage-file';
