import { AudioGenerationRequest } from '../../shared/api/audio-generation.js';
import { MediaJob } from '../../shared/api/media-jobs.js';
import { findVoice, mediaSpecContractOf, VOICE_RENDER, type CatalogService } from '../catalog.js';
import type { RequestContext, RouteDef, SimulatorState } from '../context.js';
import { ApiError, invalidField } from '../errors.js';
import { parseWith, readJsonObject } from '../http.js';
import type { Identity } from '../identities.js';
import { createIdempotentJob, type NewJobSpec } from '../jobs/create-job.js';
import type { AudioRenderPlan } from '../media/render-audio.js';
import { RenderCache } from '../media/render-cache.js';
import { resolveModel } from '../models.js';
import { checkEnum, checkRange, checkText, param, rejectUndeclaredFields } from '../rules/contract-params.js';
import { derivedSeed } from '../rules/h3-rules.js';
import { ownedInputAsset } from '../rules/owned-assets.js';
import { JOB_HEADERS_DOC, jobErrorResponses } from './media.js';

const FLITE_VOICES = ['slt', 'kal', 'awb', 'rms'];

async function createAudio(rc: RequestContext): Promise<void> {
  const raw = await readJsonObject(rc.req);
  createIdempotentJob(rc, 'audio.generation', raw, () => {
    const service = resolveModel(parseWith(AudioGenerationRequest, raw).model, ['audio_generation']);
    return prepareAudioJob(raw, service, rc.state, rc.identity);
  });
}

/**
 * Validates a speech, music or Foley body (public shape, the Foley video already an owned input
 * asset of `identity`) and plans its render: the job spec of both the public
 * `/audio/generations` and the platform runtime's `/media/jobs`.
 */
export function prepareAudioJob(
  raw: Record<string, unknown>,
  service: CatalogService,
  state: SimulatorState,
  identity: Identity,
): NewJobSpec {
  const body = parseWith(AudioGenerationRequest, raw);
  const contract = mediaSpecContractOf(service) ?? {};
  rejectUndeclaredFields(raw, contract);
  const profile = contract.profile;
  const mode = checkEnum(contract, 'generationMode', body.generationMode) ?? profile ?? 'speech';
  const seed = body.seed ?? derivedSeed(raw);
  let plan: AudioRenderPlan;
  if (profile === 'speech') {
    const voiceMode = checkEnum(contract, 'voiceMode', body.voiceMode) ?? 'text';
    const text = checkText('text', body.text, {
      max: param(contract, 'text')?.maxLength ?? 600,
      required: true,
    })!;
    let voice = FLITE_VOICES[seed % FLITE_VOICES.length]!;
    if (voiceMode === 'custom_voice') {
      if (!body.speaker)
        throw invalidField('missing_field', 'speaker', 'speaker is required with voiceMode custom_voice.');
      if (!findVoice(body.speaker)) {
        throw invalidField(
          'unknown_speaker',
          'speaker',
          `speaker must be a published voice (${Object.keys(VOICE_RENDER).join(', ')}).`,
        );
      }
      voice = VOICE_RENDER[body.speaker] ?? voice;
    } else if (body.speaker !== undefined) {
      throw invalidField(
        'field_not_supported',
        'speaker',
        'speaker is only taken with voiceMode custom_voice.',
      );
    }
    if (voiceMode === 'voice_design') {
      const instruct = checkText('instruct', body.instruct, {
        max: param(contract, 'instruct')?.maxLength ?? 160,
        required: true,
      })!;
      voice =
        FLITE_VOICES[[...instruct].reduce((sum, ch) => sum + ch.codePointAt(0)!, 0) % FLITE_VOICES.length]!;
    } else if (body.instruct !== undefined) {
      throw invalidField(
        'field_not_supported',
        'instruct',
        'instruct is only taken with voiceMode voice_design.',
      );
    }
    plan = { flavor: 'speech', text, voice, seed };
  } else if (profile === 'music') {
    const prompt = checkText('prompt', body.prompt, {
      max: param(contract, 'prompt')?.maxLength,
      required: true,
    })!;
    const seconds = checkRange(contract, 'seconds', body.seconds) ?? 10;
    plan = { flavor: 'music', seconds, seed, prompt };
  } else if (profile === 'foley') {
    if (!body.input_video_asset_id)
      throw invalidField(
        'missing_field',
        'input_video_asset_id',
        'input_video_asset_id is required for Foley.',
      );
    const video = ownedInputAsset(
      state,
      identity,
      service.modelAlias,
      body.input_video_asset_id,
      'input_video_asset_id',
      'video',
    );
    const prompt = checkText('prompt', body.prompt, { max: param(contract, 'prompt')?.maxLength }) ?? '';
    const fallback = Math.min(15, Math.max(1, Math.round(video.durationSeconds ?? 5)));
    const seconds = checkRange(contract, 'seconds', body.seconds) ?? fallback;
    plan = { flavor: 'foley', seconds, seed, prompt: `${prompt} ${video.sha256}` };
  } else {
    throw new ApiError(
      400,
      'model_not_supported',
      `Model "${service.modelAlias}" has no audio profile served here.`,
    );
  }
  const key = RenderCache.keyOf({ renderer: 'audio/1', ...plan });
  return {
    service,
    pacing: 'audio',
    effectiveMediaSpec: {
      generationMode: mode,
      ...(plan.flavor === 'speech' ? {} : { seconds: plan.seconds }),
      seed,
    },
    task: { type: 'audio', key, plan },
  };
}

export const audioRoutes: RouteDef[] = [
  {
    method: 'POST',
    path: '/audio/generations',
    routeClass: 'create_job',
    handler: createAudio,
    doc: {
      operationId: 'createAudioGeneration',
      summary: 'Create a speech, music or Foley job (asynchronous-read pattern)',
      tags: ['media'],
      headers: JOB_HEADERS_DOC,
      requestBody: { contentType: 'application/json', schema: AudioGenerationRequest },
      responses: {
        200: { description: 'Idempotent replay', schema: MediaJob },
        202: { description: 'Accepted', schema: MediaJob, headers: ['Location', 'Retry-After'] },
        ...jobErrorResponses,
      },
    },
  },
];
