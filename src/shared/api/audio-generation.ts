import { z } from 'zod';

export const SPEECH_TEXT_MAX = 600;
export const VOICE_DESIGN_INSTRUCT_MAX = 160;

export const VoiceMode = z.enum(['text', 'custom_voice', 'voice_design']);
export type VoiceMode = z.infer<typeof VoiceMode>;

/**
 * `POST /audio/generations`. Which fields apply (speech, music, video Foley) and their limits
 * come from the service contract; the response follows the asynchronous-read pattern (MediaJob).
 */
export const AudioGenerationRequest = z.object({
  model: z.string().min(1),
  generationMode: z.string().min(1).optional(),
  voiceMode: VoiceMode.default('text'),
  /** TTS content (speech profile: at most 600 characters). */
  text: z.string().optional(),
  /** Required with `custom_voice`: a published speaker. */
  speaker: z.string().min(1).optional(),
  /** Required with `voice_design` (speech profile: at most 160 characters). */
  instruct: z.string().optional(),
  /** Foley or music description. */
  prompt: z.string().optional(),
  /** Foley only. */
  input_video_asset_id: z.string().min(1).optional(),
  seconds: z.int().optional(),
  seed: z.int().optional(),
});
export type AudioGenerationRequest = z.infer<typeof AudioGenerationRequest>;
