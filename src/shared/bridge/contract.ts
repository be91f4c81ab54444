import { z } from 'zod';

/**
 * The one typed contract between the renderer and the main-process core.
 *
 * Every request/response method and every pushed event is declared here once, with a schema.
 * From this single definition:
 *  - the Electron shell registers one IPC handler per method (src/main/shell/ipc.ts),
 *  - the preload exposes exactly these methods as `window.framewright` (src/preload/index.ts),
 *  - the browser host serves the same methods over HTTP and events over WebSocket (src/main/host/),
 *  - the core validates every call against `params` before a handler sees it (src/main/core/bridge/).
 * The renderer is untrusted input: params are parsed strictly on the main side.
 */

export const ThemePreference = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof ThemePreference>;

export const LocalePreference = z.enum(['system', 'en', 'zh-CN']);
export type LocalePreference = z.infer<typeof LocalePreference>;

export const ProfileKind = z.enum(['simulator', 'personal', 'debug']);
export type ProfileKind = z.infer<typeof ProfileKind>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /** Which host the renderer runs in: the Electron shell or the loopback browser host. */
  host: z.enum(['electron', 'browser']),
  platform: z.string(),
  nodeVersion: z.string(),
  dataDir: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const UiSettings = z.object({
  theme: ThemePreference,
  locale: LocalePreference,
});
export type UiSettings = z.infer<typeof UiSettings>;

export const ProfileSummary = z.object({
  id: z.string(),
  name: z.string(),
  kind: ProfileKind,
  /** Base URL including /v1; for the simulator, the embedded server's loopback address once started. */
  baseUrl: z.string().nullable(),
  /** Whether a secret is stored for the profile. The secret itself never crosses the bridge. */
  hasSecret: z.boolean(),
});
export type ProfileSummary = z.infer<typeof ProfileSummary>;

export const ConnectionState = z.object({
  profileId: z.string(),
  state: z.enum(['starting', 'connected', 'offline', 'error']),
  detail: z.string().optional(),
  checkedAt: z.string(),
});
export type ConnectionState = z.infer<typeof ConnectionState>;

const NoParams = z.object({}).strict();

export const bridgeContract = {
  methods: {
    'app.info': { params: NoParams, result: AppInfo },
    'settings.get': { params: NoParams, result: UiSettings },
    'settings.update': { params: UiSettings.partial().strict(), result: UiSettings },
    'profiles.list': {
      params: NoParams,
      result: z.object({ activeProfileId: z.string(), profiles: z.array(ProfileSummary) }),
    },
    'connection.get': { params: NoParams, result: ConnectionState },
    'connection.check': { params: NoParams, result: ConnectionState },
  },
  events: {
    'connection.changed': ConnectionState,
    'settings.changed': UiSettings,
  },
} as const;

export type BridgeContract = typeof bridgeContract;
export type MethodName = keyof BridgeContract['methods'];
export type EventName = keyof BridgeContract['events'];
export type MethodParams<M extends MethodName> = z.input<BridgeContract['methods'][M]['params']>;
export type MethodResult<M extends MethodName> = z.output<BridgeContract['methods'][M]['result']>;
export type EventPayload<E extends EventName> = z.output<BridgeContract['events'][E]>;

export const methodNames = Object.keys(bridgeContract.methods) as MethodName[];
export const eventNames = Object.keys(bridgeContract.events) as EventName[];

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && Object.hasOwn(bridgeContract.methods, name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(bridgeContract.events, name);
}
