import type { EventName, EventPayload, MethodName, MethodParams, MethodResult } from './contract.js';
import type { PlaygroundFile } from './domains/playground.js';
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
  stageFile(file: StageableFile, purpose?: 'composer'): Promise<DraftMedia>;
  /** The same for a Playground file (any type, at most `PLAYGROUND_MAX_FILE_BYTES`; not probed). */
  stageFile(file: StageableFile, purpose: 'playground'): Promise<PlaygroundFile>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): Unsubscribe;
  /**
   * Hears when pushed events may have been missed — the events channel came back after a drop
   * (the backend restarted, or the network did) — so the page re-reads what it shows.
   */
  onMissedEvents(listener: () => void): Unsubscribe;
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
   * the shell copies it into staging. Either way the renderer never names a path, and the file
   * lands in the core's one staging store, for Create (`composer`, the default) or the Playground.
   */
  stageFile(file: StageableFile, purpose?: StagePurpose): Promise<BridgeResponse>;
  /**
   * Hears when the events channel reconnected after a drop (events may have been missed). The
   * browser host's WebSocket can drop; Electron's IPC cannot, so its transport has none.
   */
  onMissedEvents?(listener: () => void): Unsubscribe;
}

/** What a staged file is for: Create's frames and references (probed media) or a Playground input. */
export const STAGE_PURPOSES = ['composer', 'playground'] as const;
export type StagePurpose = (typeof STAGE_PURPOSES)[number];

export function isStagePurpose(value: unknown): value is StagePurpose {
  return typeof value === 'string' && (STAGE_PURPOSES as readonly string[]).includes(value);
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
    async stageFile(file: StageableFile, purpose?: StagePurpose) {
      const response = await transport.stageFile(file, purpose);
      // main checked the answer against the contract (DraftMedia, PlaygroundFile) before either transport sent it
      if (response.ok) return response.result as never;
      throw new BridgeError(response.error);
    },
    on(event, listener) {
      return transport.subscribe((name, payload) => {
        if (name === event) listener(payload as never);
      });
    },
    onMissedEvents(listener) {
      return transport.onMissedEvents?.(listener) ?? (() => undefined);
    },
  };
}

/** IPC channel names used by the Electron transport (one channel per method). */
export const ipcChannelForMethod = (method: MethodName): string => `framewright:invoke:${method}`;
export const IPC_EVENT_CHANNEL = 'framewright:event';
/** The one extra channel: staging a user-chosen file by the path Electron knows for it. */
export const IPC_STAGE_FILE_CHANNEL = 'framewright:stage-file';
