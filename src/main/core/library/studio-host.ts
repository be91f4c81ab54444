/**
 * What the core needs from the host that shows the studio, instead of the host's name: where the
 * host serves the core's media routes to its page, and whether it can open a folder of this
 * computer. A host passes its own; the core never compares a host name.
 */
export interface StudioHost {
  /** The host's kind, only to be shown (Settings → About); never branched on. */
  readonly kind: 'electron' | 'browser';
  /** Where the host serves a media route of the core (the route is appended, then signed). */
  readonly mediaBase: string;
  /** Whether the host can show a folder of this computer in the system's file manager. */
  readonly opensFolders: boolean;
}

/** The Electron shell: media through its `framewright-media:` protocol; folders open in the file manager. */
export const ELECTRON_HOST: StudioHost = {
  kind: 'electron',
  mediaBase: 'framewright-media://media/',
  opensFolders: true,
};

/** A browser host (the loopback host, the platform deployment): media under `/media/`; no folders opened. */
export const BROWSER_HOST: StudioHost = { kind: 'browser', mediaBase: '/media/', opensFolders: false };
