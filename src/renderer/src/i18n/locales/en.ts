/** English strings. Every user-facing string of the renderer lives here and in zh-CN.ts. */
export const en = {
  app: { name: 'Framewright', skipToContent: 'Skip to content', mainNavigation: 'Sections' },
  nav: {
    create: 'Create',
    queue: 'Queue',
    library: 'Library',
    playground: 'Playground',
    settings: 'Settings',
  },
  create: {
    title: 'Create',
    emptyTitle: 'Start a video from a live service contract',
    emptyBody:
      'Pick a video service, describe your shot and add reference images, clips or audio. The form is built from the service’s live contract, and every reference is checked against its rules before anything is sent or billed.',
  },
  queue: {
    title: 'Queue',
    emptyTitle: 'No jobs yet',
    emptyBody:
      'Every generation you start appears here, live: status, stage, time queued and running, uploads and downloads. Jobs survive restarts and crashes and are never created twice.',
  },
  library: {
    title: 'Library',
    emptyTitle: 'Your verified results will live here',
    emptyBody:
      'Finished videos, images and audio land here only after their checksum is verified, with prompt, seed and settings beside them. The library works offline.',
  },
  playground: {
    title: 'Playground',
    emptyTitle: 'Every other service your key can call',
    emptyBody:
      'Chat and vision, embeddings, rerank, OCR, transcription, speech and music, images and document parsing — each driven by the service’s live contract.',
  },
  settings: {
    title: 'Settings',
    appearance: 'Appearance',
    theme: 'Theme',
    themeSystem: 'Follow the system',
    themeLight: 'Light',
    themeDark: 'Dark',
    language: 'Language',
    languageSystem: 'Follow the system',
    profiles: 'Profiles',
    profilesHint:
      'The local simulator is built in: stable fake results, no credits spent. Personal and debug profiles come next.',
    checkConnection: 'Test connection',
    about: 'About',
    version: 'Version',
    host: 'Running in',
    hostElectron: 'Desktop app',
    hostBrowser: 'Browser (loopback host)',
    dataDir: 'Data folder',
  },
  profileKind: { simulator: 'Simulator', personal: 'Personal key', debug: 'Debug token' },
  status: {
    profile: 'Profile',
    connection: 'Connection',
    starting: 'Connecting…',
    connected: 'Connected',
    offline: 'Offline',
    error: 'Connection error',
  },
  errors: { generic: 'Something went wrong: {{message}}' },
};

export type Messages = typeof en;
