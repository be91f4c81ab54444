import { z } from 'zod';
import { videoBatchOverProfiles } from '../../batch/batch-service.js';
import { PUBLIC_API_CAPABILITIES } from '../capabilities.js';
import { publicPlaygroundCalls } from '../playground-calls.js';
import type { StudioBackend } from '../studio-backend.js';
import { AppError } from '../../errors.js';
import type { ServiceCatalog } from '../../discovery/service-catalog.js';
import type { Journal } from '../../journal/open-journal.js';
import { getVoice, listVoices } from '../../operations/audio-generation.js';
import { submitJobWithInputs, type MediaJobDeps } from '../../operations/job-with-inputs.js';
import { StudioAdmission } from '../../creating/admission.js';
import { DraftInputs } from '../../creating/draft-inputs.js';
import { StudioDiscovery } from '../../discovery/studio-discovery.js';
import { StudioOptimize } from '../../creating/optimize.js';
import type { StudioBackendParts } from '../studio-backend.js';
import type { EventHub } from '../../events/event-hub.js';
import type { Logger } from '../../logging/logger.js';
import { submitVideo } from '../../creating/submit-video.js';

const PREVIEW_MAX_BYTES = 8 * 1024 * 1024;

export interface PublicApiBackendDeps {
  journal: Journal;
  /** The profiles' clients, the job engine (what `submitVideo` and the media jobs run on). */
  runner: MediaJobDeps;
  /** The profiles' service lists (client, journal cache, offline copy). */
  catalog: Pick<ServiceCatalog, 'discover' | 'resolve' | 'clientFor'>;
  activeProfileId: () => string;
  events: EventHub;
  logger: Logger;
}

/**
 * The public interface with a personal key as the studio's backend (the desktop app, the browser
 * host, the CLI): every capability, each input uploaded (journal-cached) under the draft's
 * profile, Generate through `submitVideo`, the admission preview, the optimizer.
 */
export function publicApiBackend(d: PublicApiBackendDeps) {
  return (parts: StudioBackendParts): StudioBackend => {
    const discovery = new StudioDiscovery({
      journal: d.journal,
      catalog: d.catalog,
      activeProfileId: d.activeProfileId,
    });
    const inputs = new DraftInputs({
      journal: d.journal,
      clientFor: (profileId) => d.runner.profiles.clientFor(profileId),
      discovery,
      drafts: parts.drafts,
      staged: parts.staged,
      events: d.events,
      logger: d.logger,
    });
    const optimize = new StudioOptimize({ journal: d.journal, inputs });
    const admission = new StudioAdmission({ inputs });
    return {
      capabilities: PUBLIC_API_CAPABILITIES,
      activeProfileId: d.activeProfileId,
      draftProfileId: (requested) => requested ?? d.activeProfileId(),
      services: (profileId, serviceKind) => discovery.services(profileId, serviceKind),
      videoServices: (profileId) => videoBatchOverProfiles(d.runner).videoServices(profileId),
      service: async (kinds, model) => (await d.catalog.resolve(d.activeProfileId(), kinds, model)).service,
      admission: (draftId) => admission.admission(draftId),
      optimize: (draftId, style) => optimize.optimize(draftId, style),
      createVideo: (submission) => submitVideo(d.runner, submission),
      createMediaJob: (job) => submitJobWithInputs(d.runner, job),
      playgroundCalls: async () =>
        publicPlaygroundCalls(d.journal, await d.catalog.clientFor(d.activeProfileId())),
      voices: async () => listVoices(await d.catalog.clientFor(d.activeProfileId())),
      voicePreview: async (voiceId, model) => {
        const client = await d.catalog.clientFor(d.activeProfileId());
        const voice = await getVoice(client, voiceId);
        if (!voice.previewAssetId)
          throw new AppError('voice.no_preview', `${voice.displayName} has no preview.`);
        const response = await client.openContent({ assetId: voice.previewAssetId, model });
        const declared = Number(response.headers.get('content-length') ?? '0');
        if (declared > PREVIEW_MAX_BYTES) {
          await response.body?.cancel();
          throw new AppError('voice.preview_too_large', 'The voice preview is too large to play here.');
        }
        const bytes = Buffer.from(await response.arrayBuffer());
        if (bytes.length > PREVIEW_MAX_BYTES)
          throw new AppError('voice.preview_too_large', 'The voice preview is too large to play here.');
        const type = z
          .string()
          .regex(/^audio\/[\w.+-]+$/)
          .safeParse((response.headers.get('content-type') ?? '').split(';')[0]);
        return {
          dataUrl: `data:${type.success ? type.data : 'audio/wav'};base64,${bytes.toString('base64')}`,
        };
      },
    };
  };
}
