import { z } from 'zod';
import { FreeFormObject, listOf } from './common.js';

/** Service kinds named by the interface (the complete list is not shown, so clients accept others). */
export const KNOWN_SERVICE_KINDS = [
  'video_generation',
  'image_generation',
  'audio_generation',
  'document_parse',
  'text_chat',
  'vision_chat',
  'audio_transcription',
] as const;

export const ServicesQuery = z.object({ serviceKind: z.string().min(1).optional() });
export type ServicesQuery = z.infer<typeof ServicesQuery>;

/**
 * A model the gateway lists: one element of `GET /services`, the spec's `PublicService`
 * ("Resources and their fields"; the contracts are free-form objects in the spec). The one meaning
 * of "service entry" in Framewright; the bridge's view of one is `ServiceEntryView`, a use case
 * of the core is a `…Feature`.
 */
export const ServiceEntry = z
  .object({
    modelAlias: z.string(),
    serviceKind: z.string(),
    available: z.boolean().optional(),
    id: z.string().optional(),
    object: z.string().optional(),
    serviceDisplayName: z.string().optional(),
    endpoints: z.record(z.string(), z.string()).optional(),
    apiUsageContract: FreeFormObject.optional(),
    mediaSpecContract: FreeFormObject.optional(),
    promptOptimization: FreeFormObject.optional(),
  })
  .loose();
export type ServiceEntry = z.infer<typeof ServiceEntry>;

export const ServiceEntryList = listOf(ServiceEntry);
export type ServiceEntryList = z.infer<typeof ServiceEntryList>;

export const PublicModelParameter = z
  .object({ name: z.string(), type: z.string(), required: z.boolean(), description: z.string() })
  .loose();

export const PublicModel = z
  .object({
    id: z.string(),
    object: z.literal('model'),
    owned_by: z.string(),
    mediaSpecContract: z
      .object({ version: z.string(), parameters: z.array(PublicModelParameter) })
      .partial()
      .loose()
      .optional(),
  })
  .loose();
export type PublicModel = z.infer<typeof PublicModel>;

export const PublicModelList = listOf(PublicModel);
export type PublicModelList = z.infer<typeof PublicModelList>;

export const CatalogVoice = z
  .object({
    voiceId: z.string(),
    version: z.int(),
    displayName: z.string(),
    primaryLanguage: z.string(),
    supportedLanguages: z.array(z.string()),
    description: z.string().optional(),
    previewAssetId: z.string().optional(),
    tags: z.array(z.string()).optional(),
  })
  .loose();
export type CatalogVoice = z.infer<typeof CatalogVoice>;

export const CatalogVoiceList = listOf(CatalogVoice);
export type CatalogVoiceList = z.infer<typeof CatalogVoiceList>;

/** `GET /audio/voices/{voiceId}`: body not shown by the spec; the simulator answers a CatalogVoice plus extras. */
export const VoiceDetail = CatalogVoice;
export type VoiceDetail = z.infer<typeof VoiceDetail>;
