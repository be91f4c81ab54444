import type { MethodName } from '../../../shared/bridge/contract.js';
import type { Capabilities, PlaygroundPanelName } from '../../../shared/bridge/domains/app.js';
import { METHOD_NAMES, PLAYGROUND_PANELS } from '../../../shared/bridge/names.js';
import { AppError } from '../errors.js';

/**
 * What each backend and host offers, declared once: `app.info` reports it and the renderer reads
 * it (never a host name).
 *
 * - The public API with a personal key (the desktop app, the browser host, the CLI): everything,
 *   with this machine's folders.
 * - The platform deployment (`serve --platform`): the same studio for a person on a server —
 *   Create with the optimizer, batch import, Sequences and every Playground panel, through the
 *   runtime — but no keys or profiles of their own (nor the local simulator's switch) and no
 *   folders of the server; results leave as platform-marked copies; Generate waits for the
 *   runtime's dry-run; the chat's images travel as readUrls, never inline.
 */
export const PUBLIC_API_CAPABILITIES: Capabilities = {
  profiles: true,
  localFolders: true,
  markedExport: false,
  promptOptimization: true,
  batchImport: true,
  sequences: true,
  storyboards: false,
  sharedCollections: false,
  admissionGatesGenerate: false,
  chatInlineImages: true,
  playgroundPanels: [...PLAYGROUND_PANELS],
};

export const PLATFORM_CAPABILITIES: Capabilities = {
  profiles: false,
  localFolders: false,
  markedExport: true,
  promptOptimization: true,
  batchImport: true,
  sequences: true,
  storyboards: false,
  sharedCollections: true,
  admissionGatesGenerate: true,
  // the runtime's chat takes media only as `inputs[]` readUrls, never inline in a message
  chatInlineImages: false,
  playgroundPanels: [...PLAYGROUND_PANELS],
};

/**
 * What a live paired debug profile (section D) adds to the public API backend on this machine:
 * Storyboard Helper through debug grants, relayed or to a local peer. Served by the root that has
 * the pairing; while the active profile is no live debug session, the same methods are refused
 * with the same words ({@link refuseMissing}) and `app.info` reports the capability off.
 */
export const DEBUG_SESSION_CAPABILITIES = { storyboards: true } as const satisfies Partial<Capabilities>;

/** The capabilities as they stand now: the backend's, plus a live debug session's when there is one. */
export function capabilitiesNow(base: Capabilities, liveDebugSession: boolean): Capabilities {
  return liveDebugSession ? { ...base, ...DEBUG_SESSION_CAPABILITIES } : base;
}

/** The bridge methods each capability carries: off, they are refused by {@link refusalsOf}. */
const METHODS_OF: Record<
  Exclude<keyof Capabilities, 'admissionGatesGenerate' | 'chatInlineImages' | 'playgroundPanels'>,
  {
    what: string;
    methods: readonly MethodName[];
  }
> = {
  profiles: {
    what: 'API keys, profiles and the local simulator',
    methods: [
      'profiles.add',
      'profiles.remove',
      'profiles.setActive',
      'profiles.test',
      'debugPairing.testAccounts',
      'debugPairing.start',
      'debugPairing.wait',
      'debugPairing.cancel',
      'debugPairing.session',
      'simulator.setScenario',
    ],
  },
  localFolders: {
    what: 'A folder of this computer',
    methods: ['library.reveal', 'collections.revealPackage'],
  },
  markedExport: { what: 'The platform-marked copy', methods: ['library.export'] },
  promptOptimization: { what: 'Prompt optimization', methods: ['video.optimize'] },
  sharedCollections: {
    what: 'Collections shared with a team',
    methods: ['collections.share', 'collections.shared.list', 'collections.shared.get'],
  },
  batchImport: { what: 'Batch import', methods: ['studio.batch.preview', 'studio.batch.submit'] },
  storyboards: {
    what: 'Storyboard Helper boards',
    methods: METHOD_NAMES.filter((m) => m.startsWith('storyboards.')),
  },
  sequences: {
    what: 'Sequences',
    methods: METHOD_NAMES.filter((m) => m.startsWith('sequences.')),
  },
};

/** The methods of each Playground panel (the synchronous calls and their journal). */
const PANEL_METHODS: Record<PlaygroundPanelName, readonly MethodName[]> = {
  chat: [
    'playground.chat.send',
    'playground.chat.cancel',
    'playground.conversations.list',
    'playground.conversations.get',
  ],
  embeddings: ['playground.embed'],
  rerank: ['playground.rerank', 'playground.rerank.loadDocuments'],
  ocr: ['playground.ocr'],
  transcription: ['playground.transcribe'],
  audio: ['playground.audio.generate'],
  image: ['playground.image.generate'],
  parse: ['playground.parse'],
};

/** The journal of billed synchronous calls, offered with any of the panels that make them. */
const BILLED_CALL_PANELS: readonly PlaygroundPanelName[] = ['embeddings', 'rerank', 'ocr', 'transcription'];

type Refusal = () => never;

/** The refusal of a capability this backend does not offer (what `refusalsOf` answers with). */
export function refusalError(what: string): AppError {
  return new AppError('platform.not_here', `${what} is not part of Framewright here.`);
}

/** Refuses, inside a method that is served, the part of it that needs `capability` (e.g. a library folder). */
export function refuseMissing(capability: keyof typeof METHODS_OF): never {
  throw refusalError(METHODS_OF[capability].what);
}

/**
 * The one place a backend's missing capabilities are refused: a handler for every method of a
 * capability that is off, answering `platform.not_here` with what is missing. A composition root
 * serves the rest and lets these stand for the methods it does not serve.
 */
export function refusalsOf(capabilities: Capabilities): Partial<Record<MethodName, Refusal>> {
  const refusals: Partial<Record<MethodName, Refusal>> = {};
  const refuse = (what: string) => (): never => {
    throw refusalError(what);
  };
  for (const [capability, { what, methods }] of Object.entries(METHODS_OF)) {
    if (capabilities[capability as keyof typeof METHODS_OF]) continue;
    for (const method of methods) refusals[method] = refuse(what);
  }
  for (const panel of PLAYGROUND_PANELS) {
    if (capabilities.playgroundPanels.includes(panel)) continue;
    for (const method of PANEL_METHODS[panel]) refusals[method] = refuse(`The Playground's ${panel}`);
  }
  if (!BILLED_CALL_PANELS.some((panel) => capabilities.playgroundPanels.includes(panel)))
    refusals['playground.calls.list'] = refuse('The journal of billed calls');
  return refusals;
}
