import { z } from 'zod';
import { LOCALE_PREFERENCES, PLAYGROUND_PANELS, THEME_PREFERENCES } from '../names.js';

/** App, settings, profiles and connection: the shell's own methods. */

export const ThemePreference = z.enum(THEME_PREFERENCES);
export type ThemePreference = z.infer<typeof ThemePreference>;

export const LocalePreference = z.enum(LOCALE_PREFERENCES);
export type LocalePreference = z.infer<typeof LocalePreference>;

export const ProfileKind = z.enum(['simulator', 'personal', 'debug']);
export type ProfileKind = z.infer<typeof ProfileKind>;

export const PlaygroundPanelName = z.enum(PLAYGROUND_PANELS);
export type PlaygroundPanelName = z.infer<typeof PlaygroundPanelName>;

/**
 * What this backend and host offer. The renderer shows, hides and enables by these and never by a
 * host name; the core declares them in one place (`src/main/core/app/capabilities.ts`).
 */
export const Capabilities = z.object({
  /** Profiles, API keys and the local simulator's scenario switch (a person's own keys). */
  profiles: z.boolean(),
  /** Folders on this machine: the data folder shown, library folders chosen, a result revealed. */
  localFolders: z.boolean(),
  /** The platform-marked copy of a result, downloaded from the platform. */
  markedExport: z.boolean(),
  /** Create's prompt optimizer. */
  promptOptimization: z.boolean(),
  /** Create's batch import of prompts from a file. */
  batchImport: z.boolean(),
  /** The Sequences screen. */
  sequences: z.boolean(),
  /** Storyboards in, films out: boards of Storyboard Helper imported as sequences, films sent back (platform grants). */
  storyboards: z.boolean(),
  /**
   * Collections shared with a project, read by the organization's managers (the platform: a team's
   * people are there; on this machine nobody else reads them).
   */
  sharedCollections: z.boolean(),
  /** Generate waits for the backend's admission check to accept the form (the platform's dry-run). */
  admissionGatesGenerate: z.boolean(),
  /**
   * The chat may send an attached image inline (a data: URL in the message) where the model allows
   * it; off, attachments always travel as stored media (the platform runtime's `inputs[]` readUrls).
   */
  chatInlineImages: z.boolean(),
  /** The Playground panels offered, in the order shown. */
  playgroundPanels: z.array(PlaygroundPanelName),
});
export type Capabilities = z.infer<typeof Capabilities>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  /**
   * Which host the renderer runs in: the Electron shell, the loopback browser host, or the
   * platform host (Framewright deployed as a platform application for a team).
   */
  host: z.enum(['electron', 'browser', 'platform']),
  /** The operating system the core runs on (`process.platform`); "platform" names the deployment only. */
  os: z.string(),
  nodeVersion: z.string(),
  dataDir: z.string(),
  /** What this backend and host offer (see {@link Capabilities}). */
  capabilities: Capabilities,
  /**
   * On the platform: who is signed in, from the RuntimeSession (never an id of the session itself);
   * absent elsewhere.
   */
  signedIn: z
    .object({
      userId: z.string(),
      /**
       * The person's name as the organization's directory lists them, when the session may read
       * it (a manager's); null otherwise — the page then says "you", never a raw user id.
       */
      displayName: z.string().nullable().optional(),
      organizationId: z.string().nullable(),
      appRoles: z.array(z.string()),
    })
    .optional(),
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

export const NoParams = z.object({}).strict();

export const appMethods = {
  'app.info': { params: NoParams, result: AppInfo },
  'settings.get': { params: NoParams, result: UiSettings },
  'settings.update': { params: UiSettings.partial().strict(), result: UiSettings },
  'profiles.list': {
    params: NoParams,
    result: z.object({ activeProfileId: z.string(), profiles: z.array(ProfileSummary) }),
  },
  'connection.get': { params: NoParams, result: ConnectionState },
  'connection.check': { params: NoParams, result: ConnectionState },
  /**
   * Ends every signed link (readUrl) to this person's files at once: films sent to a board, a
   * generation's inputs, an export's source. Links signed afterwards work; nobody else's change.
   */
  'sharedLinks.revoke': { params: NoParams, result: z.object({ revokedAt: z.string() }) },
} as const;

export const appEvents = {
  'connection.changed': ConnectionState,
  'settings.changed': UiSettings,
} as const;
