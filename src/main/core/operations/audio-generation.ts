import { randomUUID } from 'node:crypto';
import {
  SPEECH_TEXT_MAX,
  VOICE_DESIGN_INSTRUCT_MAX,
  type VoiceMode,
} from '../../../shared/api/audio-generation.js';
import { readMediaSpec } from '../../../shared/api/contract-vocabulary.js';
import { CatalogVoiceList, VoiceDetail, type CatalogVoice } from '../../../shared/api/discovery.js';
import type { ServiceEntry } from '../../../shared/api/discovery.js';
import type { RunResult, WaitOptions } from '../jobs/job-engine.js';
import { probeMedia, type ProbedFile } from '../media-tools/probe-media.js';
import type { PublicApiClient } from '../api-clients/public-api-client.js';
import { checkProbedFile } from './inputs.js';
import { submitJobWithInputs, type JobWithInputs, type MediaJobDeps } from './job-with-inputs.js';
import { checkField, checkText, contractParameter, publishedFields } from './contract-fields.js';
import { InputLimitError, readJson, sendWithRetry } from './service-common.js';

export type AudioProfile = 'speech' | 'music' | 'foley' | 'other';

export interface AudioDraft {
  generationMode?: string;
  voiceMode?: VoiceMode;
  text?: string;
  speaker?: string;
  instruct?: string;
  prompt?: string;
  /** A local video for Foley. */
  videoFile?: string;
  seconds?: number;
  seed?: number;
}

/** Which kind of audio a service makes, from its contract's profile (or the fields it publishes). */
export function audioProfile(service: ServiceEntry): AudioProfile {
  const profile = readMediaSpec(service.mediaSpecContract).profile;
  if (profile === 'speech' || profile === 'music' || profile === 'foley') return profile;
  const fields = publishedFields(service);
  if (fields.has('input_video_asset_id')) return 'foley';
  if (fields.has('text')) return 'speech';
  if (fields.has('prompt')) return 'music';
  return 'other';
}

/** The speech profile's limits: the contract's, never above the document's 600 and 160. */
export function speechLimits(service: ServiceEntry): { textMax: number; instructMax: number } {
  const { limits } = readMediaSpec(service.mediaSpecContract);
  return {
    textMax: Math.min(
      contractParameter(service, 'text')?.maxLength ?? limits.textMaxCharacters ?? SPEECH_TEXT_MAX,
      SPEECH_TEXT_MAX,
    ),
    instructMax: Math.min(
      contractParameter(service, 'instruct')?.maxLength ??
        limits.instructMaxCharacters ??
        VOICE_DESIGN_INSTRUCT_MAX,
      VOICE_DESIGN_INSTRUCT_MAX,
    ),
  };
}

/** The published speakers (contract `speakers` or the `speaker` parameter's values). */
export function speakersOf(service: ServiceEntry): string[] | undefined {
  return (
    readMediaSpec(service.mediaSpecContract).speakers ??
    contractParameter(service, 'speaker')?.values?.map(String)
  );
}

/** Checks an audio draft against the speech/music/Foley contract; builds the body (video id added later). */
export function buildAudioBody(service: ServiceEntry, draft: AudioDraft): Record<string, unknown> {
  const profile = audioProfile(service);
  const body: Record<string, unknown> = { model: service.modelAlias };
  checkField(service, 'generationMode', draft.generationMode);
  if (draft.generationMode !== undefined) body.generationMode = draft.generationMode;
  if (profile === 'speech') {
    const { textMax, instructMax } = speechLimits(service);
    body.text = checkText('text', draft.text, textMax);
    const voiceMode = draft.voiceMode ?? 'text';
    checkField(service, 'voiceMode', draft.voiceMode);
    if (draft.voiceMode !== undefined) body.voiceMode = voiceMode;
    if (voiceMode === 'custom_voice') {
      if (!draft.speaker) throw new InputLimitError('speaker', 'Choose a speaker for custom_voice.');
      const speakers = speakersOf(service);
      if (speakers && !speakers.includes(draft.speaker))
        throw new InputLimitError(
          'speaker',
          `speaker must be one of ${speakers.join(', ')} (got ${draft.speaker}).`,
        );
      body.speaker = draft.speaker;
    } else if (draft.speaker !== undefined) {
      throw new InputLimitError('speaker', 'A speaker is only taken with voiceMode custom_voice.');
    }
    if (voiceMode === 'voice_design') {
      body.instruct = checkText('instruct', draft.instruct, instructMax);
    } else if (draft.instruct !== undefined) {
      throw new InputLimitError('instruct', 'instruct is only taken with voiceMode voice_design.');
    }
    if (draft.prompt !== undefined)
      throw new InputLimitError('prompt', `${service.modelAlias} speaks text; it takes no prompt.`);
    if (draft.videoFile !== undefined)
      throw new InputLimitError('input_video_asset_id', 'A video is for Foley only, not for text-to-speech.');
  } else {
    for (const field of ['text', 'speaker', 'instruct', 'voiceMode'] as const)
      if (draft[field] !== undefined)
        throw new InputLimitError(field, `${service.modelAlias} (${profile}) does not take ${field}.`);
    const promptParam = contractParameter(service, 'prompt');
    if (profile === 'music' || draft.prompt !== undefined) {
      if (profile === 'music' || promptParam?.required)
        body.prompt = checkText('prompt', draft.prompt, promptParam?.maxLength);
      else if (draft.prompt !== undefined) {
        checkField(service, 'prompt', draft.prompt);
        body.prompt = draft.prompt;
      }
    }
    if (profile === 'foley') {
      if (!draft.videoFile) throw new InputLimitError('input_video_asset_id', 'Foley needs a video.');
    } else if (draft.videoFile !== undefined) {
      throw new InputLimitError('input_video_asset_id', `${service.modelAlias} takes no video (Foley only).`);
    }
  }
  checkField(service, 'seconds', draft.seconds);
  if (draft.seconds !== undefined) body.seconds = draft.seconds;
  checkField(service, 'seed', draft.seed);
  if (draft.seed !== undefined) body.seed = draft.seed;
  return body;
}

/** `GET /audio/voices`. */
export async function listVoices(client: PublicApiClient): Promise<CatalogVoice[]> {
  const response = await sendWithRetry(() => client.listVoices(), {
    clock: client.clock,
    operation: 'List voices',
    read: true,
  });
  return (await readJson(response, CatalogVoiceList, 'List voices')).data;
}

/** `GET /audio/voices/{voiceId}` (the body beyond a CatalogVoice is not shown by the spec). */
export async function getVoice(
  client: PublicApiClient,
  voiceId: string,
): Promise<VoiceDetail & Record<string, unknown>> {
  const response = await sendWithRetry(() => client.getVoice(voiceId), {
    clock: client.clock,
    operation: 'Voice',
    read: true,
  });
  return (await readJson(response, VoiceDetail, 'Voice')) as VoiceDetail & Record<string, unknown>;
}

export interface AudioSubmission {
  profileId: string;
  service: ServiceEntry;
  draft: AudioDraft;
  idempotencyKey?: string;
  wait?: WaitOptions;
  onStep?: (step: string) => void;
}

/** Speech, music or Foley through the job engine (journal, polling, verified download into the library). */
export async function submitAudio(
  core: MediaJobDeps,
  submission: AudioSubmission,
): Promise<RunResult & { body: Record<string, unknown> }> {
  return submitJobWithInputs(core, await audioJob(submission));
}

/** An audio job (speech, music or Foley), checked against its contract (a Foley video probed), ready for a submitter. */
export async function audioJob(submission: AudioSubmission): Promise<JobWithInputs> {
  const { service, draft } = submission;
  const body = buildAudioBody(service, draft);
  const files: ProbedFile[] = [];
  if (draft.videoFile) {
    const video = checkProbedFile(service, await probeMedia(draft.videoFile), 'input_video');
    if (video.kind !== 'video')
      throw new InputLimitError('input_video_asset_id', `${video.fileName} is not a video.`);
    files.push(video);
  }
  return {
    profileId: submission.profileId,
    service,
    serviceKind: 'audio_generation',
    idempotencyKey: submission.idempotencyKey ?? `audio-${randomUUID()}`,
    files,
    bodyFor: ([videoId]) => (videoId ? { ...body, input_video_asset_id: videoId } : body),
    wait: submission.wait,
    onStep: submission.onStep,
  };
}
