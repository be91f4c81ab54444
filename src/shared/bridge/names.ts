/**
 * The bridge's names and constants, without its schemas: what the renderer may import at runtime.
 *
 * The schemas (zod) stay in the contract (./contract.ts, ./domains/) and run in main, which
 * validates every call and answer; the renderer takes only types from there (ESLint enforces it),
 * so that its first chunk carries no schema library. The domain files build their enums from the
 * lists below, and contract.ts checks at compile time that METHOD_NAMES and EVENT_NAMES are
 * exactly its methods and events.
 */
import { SIMULATOR_SCENARIOS } from '../api/simulator-scenarios.js';

/** The built-in simulator's fault scenarios (for demos and tests); null is normal operation. */
export { SIMULATOR_SCENARIOS };

/** A job's statuses, declared once in the API's import-free module. */
export { JOB_STATUSES, TERMINAL_JOB_STATUSES, isTerminalJobStatus } from '../api/job-statuses.js';

export const METHOD_NAMES = [
  'app.info',
  'settings.get',
  'settings.update',
  'profiles.list',
  'connection.get',
  'connection.check',
  'sharedLinks.revoke',
  'services.list',
  'profiles.add',
  'profiles.remove',
  'profiles.setActive',
  'profiles.test',
  'debugPairing.testAccounts',
  'debugPairing.start',
  'debugPairing.wait',
  'debugPairing.cancel',
  'debugPairing.session',
  'simulator.getScenario',
  'simulator.setScenario',
  'files.get',
  'drafts.create',
  'drafts.get',
  'drafts.save',
  'drafts.list',
  'video.optimize',
  'video.admission',
  'video.submit',
  'video.variations',
  'jobs.list',
  'jobs.get',
  'library.list',
  'library.mark',
  'library.delete',
  'library.reveal',
  'library.export',
  'library.notes.list',
  'library.notes.add',
  'library.notes.update',
  'library.notes.delete',
  'collections.list',
  'collections.get',
  'collections.create',
  'collections.rename',
  'collections.delete',
  'collections.addItems',
  'collections.removeItems',
  'collections.reorder',
  'collections.share',
  'collections.toSequence',
  'collections.exportPackage',
  'collections.revealPackage',
  'collections.shared.list',
  'collections.shared.get',
  'studio.batch.preview',
  'studio.batch.submit',
  'studio.settings.get',
  'studio.settings.update',
  'playground.services',
  'playground.files.put',
  'playground.chat.send',
  'playground.chat.cancel',
  'playground.conversations.list',
  'playground.conversations.get',
  'playground.calls.list',
  'playground.embed',
  'playground.rerank',
  'playground.rerank.loadDocuments',
  'playground.ocr',
  'playground.transcribe',
  'playground.voices',
  'playground.voices.preview',
  'playground.audio.generate',
  'playground.image.generate',
  'playground.parse',
  'projects.list',
  'projects.create',
  'projects.rename',
  'projects.archive',
  'projects.fileDraft',
  'team.access',
  'team.groups',
  'team.members',
  'team.usage',
  'sequences.list',
  'sequences.get',
  'sequences.create',
  'sequences.rename',
  'sequences.delete',
  'sequences.addShot',
  'sequences.moveShot',
  'sequences.removeShot',
  'sequences.restoreShot',
  'sequences.trimShot',
  'sequences.continueShot',
  'sequences.bridgeShots',
  'sequences.generate',
  'sequences.assemble',
  'sequences.soundtrack.get',
  'sequences.soundtrack.setMusic',
  'sequences.soundtrack.generateMusic',
  'sequences.soundtrack.setLevels',
  'sequences.soundtrack.addVoice',
  'sequences.soundtrack.updateVoice',
  'sequences.soundtrack.removeVoice',
  'sequences.captions.update',
  'sequences.captions.export',
  'sequences.deliver',
  'sequences.deliveries.list',
  'sequences.deliveries.cancel',
  'storyboards.list',
  'storyboards.import',
  'storyboards.linkOf',
  'storyboards.send',
] as const;
export type MethodName = (typeof METHOD_NAMES)[number];

export const EVENT_NAMES = [
  'connection.changed',
  'settings.changed',
  'jobs.changed',
  'downloads.progress',
  'uploads.progress',
  'intents.changed',
  'playground.chat.delta',
  'sequences.changed',
  'sequences.assembly',
  'sequences.delivery',
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

export function isMethodName(name: unknown): name is MethodName {
  return typeof name === 'string' && (METHOD_NAMES as readonly string[]).includes(name);
}
export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && (EVENT_NAMES as readonly string[]).includes(name);
}

/** `settings.theme`. */
export const THEME_PREFERENCES = ['system', 'light', 'dark'] as const;
/** `settings.locale`. */
export const LOCALE_PREFERENCES = ['system', 'en', 'zh-CN'] as const;

/** The largest file the Playground takes (the transcription limit; also bounds OCR, parse and Foley inputs here). */
export const PLAYGROUND_MAX_FILE_BYTES = 25 * 1024 * 1024;
/** Bytes per `playground.files.put` chunk (base64 keeps a call well under the host's 1 MiB body). */
export const PLAYGROUND_CHUNK_BYTES = 512 * 1024;
/** The billed synchronous operations whose calls the journal keeps (`service_calls`). */
export const SERVICE_CALL_OPERATIONS = ['embeddings', 'rerank', 'ocr', 'transcription'] as const;
export type ServiceCallOperationName = (typeof SERVICE_CALL_OPERATIONS)[number];

/** The largest job limit one import accepts. */
export const BATCH_MAX_JOBS = 10_000;

/** "Generate ×N": how many variations of a draft one press makes (the studio's own bound). */
export const VARIATION_COUNT_MIN = 2;
export const VARIATION_COUNT_MAX = 8;

/** The Playground's panels, one per service family (what a backend's capabilities offer). */
export const PLAYGROUND_PANELS = [
  'chat',
  'embeddings',
  'rerank',
  'ocr',
  'transcription',
  'audio',
  'image',
  'parse',
] as const;
