import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { buildAudioBody } from '../../../src/main/core/operations/audio-generation.js';
import {
  audioProfile,
  getVoice,
  listVoices,
  submitAudio,
} from '../../../src/main/core/operations/audio-generation.js';
import type { validateImageDraft } from '../../../src/main/core/operations/image-generation.js';
import { submitImage } from '../../../src/main/core/operations/image-generation.js';
import { makeMp4, makePng } from '../simulator/fixtures.js';
import { astral, loseCachedAsset, type ServicesWorld, useServicesWorld } from './helpers.js';

let world: ServicesWorld;
const { recorder, refusedLocally } = useServicesWorld((opened) => (world = opened));

/** The paths of the POSTs sent since the last reset (uploads and creates; not polls or downloads). */
const posts = () => recorder.sent.filter((c) => c.method === 'POST').map((c) => c.path);

const intents = () =>
  world.core.journal.database.prepare('SELECT count(*) FROM job_intents').pluck().get() as number;

describe('audio generation', () => {
  const speech = () => world.service('cadence-speech');
  const speak = (draft: Parameters<typeof buildAudioBody>[1], alias = 'cadence-speech') =>
    submitAudio(world.core, {
      profileId: world.profileId,
      service: world.service(alias),
      draft,
      wait: { waitSeconds: 60 },
    });

  it('lists the voice catalogue and reads one voice', async () => {
    const voices = await listVoices(world.client);
    expect(voices.map((v) => v.voiceId)).toEqual(['amber', 'basalt', 'cirrus']);
    expect(voices[0]).toMatchObject({ displayName: 'Amber', supportedLanguages: ['en', 'fr'] });
    expect((await getVoice(world.client, 'amber')).sampleText).toBe('Hello, I am Amber.');
  });

  it('tells speech, music and Foley apart from the contract', () => {
    expect(audioProfile(speech())).toBe('speech');
    expect(audioProfile(world.service('cadence-music'))).toBe('music');
    expect(audioProfile(world.service('cadence-foley'))).toBe('foley');
  });

  it('speaks 600 characters with a custom voice through the journal, polling and verified download', async () => {
    const result = await speak({ voiceMode: 'custom_voice', speaker: 'basalt', text: 'a'.repeat(600) });
    expect(result.state).toBe('succeeded');
    if (result.state !== 'succeeded') return;
    const output = result.job.outputs[0]!;
    expect(output.downloadState).toBe('verified');
    expect(output.localPath!.startsWith(world.core.libraryDir)).toBe(true);
    expect(output.mimeType).toMatch(/^audio\//);
    expect(readFileSync(output.localPath!).length).toBe(output.byteSize);
    expect(result.job.serviceKind).toBe('audio_generation');
  });

  it('designs a voice with an instruction of 160 characters', async () => {
    const result = await speak({ voiceMode: 'voice_design', instruct: astral(160), text: 'Hello there.' });
    expect(result.state).toBe('succeeded');
  });

  it('refuses 601 characters of text, 161 of instruct, and mismatched voice fields before sending', async () => {
    const before = intents();
    await refusedLocally(() => speak({ text: astral(601) }), /text has 601 characters; at most 600/);
    await refusedLocally(
      () => speak({ voiceMode: 'voice_design', instruct: astral(161), text: 'x' }),
      /instruct has 161 characters; at most 160/,
    );
    await refusedLocally(() => speak({ voiceMode: 'custom_voice', text: 'x' }), /Choose a speaker/);
    await refusedLocally(
      () => speak({ voiceMode: 'custom_voice', speaker: 'nobody', text: 'x' }),
      /speaker must be one of amber, basalt, cirrus/,
    );
    await refusedLocally(
      () => speak({ speaker: 'amber', text: 'x' }),
      /only taken with voiceMode custom_voice/,
    );
    await refusedLocally(() => speak({ voiceMode: 'voice_design', text: 'x' }), /instruct is required/);
    await refusedLocally(() => speak({ text: 'x', videoFile: '/tmp/x.mp4' }), /Foley only/);
    await refusedLocally(
      () => speak({ prompt: 'calm piano', seconds: 31 }, 'cadence-music'),
      /seconds must be at most 30/,
    );
    expect(intents()).toBe(before);
  });

  it('makes music and Foley from an uploaded video', async () => {
    const music = await speak({ prompt: 'calm piano', seconds: 5 }, 'cadence-music');
    expect(music.state).toBe('succeeded');
    const video = world.file('scene.mp4', makeMp4(2));
    recorder.reset();
    const foley = await speak({ prompt: 'footsteps on gravel', videoFile: video }, 'cadence-foley');
    expect(foley.state).toBe('succeeded');
    expect(foley.body.input_video_asset_id).toEqual(expect.any(String));
    expect(recorder.sent[0]).toEqual({ method: 'POST', path: '/assets/input' });
    await refusedLocally(() => speak({ prompt: 'x' }, 'cadence-foley'), /Foley needs a video/);
  });

  it('a cached video the service no longer knows (404 asset_not_found) is forgotten, uploaded again once and the job created once', async () => {
    const video = world.file('lost-scene.mp4', makeMp4(1));
    const first = await speak({ prompt: 'rain on a window', videoFile: video }, 'cadence-foley');
    loseCachedAsset(world, 'cadence-foley', first.body.input_video_asset_id as string, 'video-lost');
    recorder.reset();
    const again = await submitAudio(world.core, {
      profileId: world.profileId,
      service: world.service('cadence-foley'),
      draft: { prompt: 'rain on a window', videoFile: video },
      idempotencyKey: 'foley-lost-1',
      wait: { waitSeconds: 60 },
    });
    expect(again.state).toBe('succeeded');
    expect(posts()).toEqual(['/audio/generations', '/assets/input', '/audio/generations']);
    expect(again.body.input_video_asset_id).not.toBe('video-lost');
    expect(world.core.journal.uploads.get(world.profileId, 'cadence-foley', 'video-lost')).toBeUndefined();
    // the first key keeps its refused body; the resend is a new attempt under the derived key
    const refused = world.core.journal.jobs.getIntent('foley-lost-1')!;
    expect(refused).toMatchObject({ state: 'rejected', errorCode: 'asset_not_found' });
    expect(JSON.parse(refused.canonicalBodyJson).input_video_asset_id).toBe('video-lost');
    const intent = world.core.journal.jobs.getIntent('foley-lost-1.r2')!;
    expect(intent.state).toBe('accepted');
    expect(JSON.parse(intent.canonicalBodyJson).input_video_asset_id).toBe(again.body.input_video_asset_id);
  });
});

describe('image generation', () => {
  const lumen = () => world.service('lumen-image');
  const generate = (draft: Parameters<typeof validateImageDraft>[1]) =>
    submitImage(world.core, {
      profileId: world.profileId,
      service: lumen(),
      draft,
      wait: { waitSeconds: 60 },
    });

  it('makes a set of images (t2i) into one library job folder, verified', async () => {
    const result = await generate({
      prompt: 'a lighthouse',
      imageCount: 3,
      orientation: 'landscape',
      qualityTier: 'high',
      seed: 7,
    });
    expect(result.state).toBe('succeeded');
    if (result.state !== 'succeeded') return;
    expect(result.job.outputs).toHaveLength(3);
    const folders = new Set(result.job.outputs.map((o) => o.localPath!.split('/').slice(0, -1).join('/')));
    expect(folders.size).toBe(1);
    for (const o of result.job.outputs) {
      expect(o.downloadState).toBe('verified');
      expect(existsSync(o.localPath!)).toBe(true);
    }
    expect(result.job.effectiveSpec).toMatchObject({ width: 1344, height: 768, imageCount: 3 });
  });

  it('i2i uploads the input images and sends their ids', async () => {
    const a = world.file('in-a.png', makePng(32, 32, [10, 200, 10]));
    const b = world.file('in-b.png', makePng(32, 32, [10, 10, 200]));
    const result = await generate({ prompt: 'blend', generationMode: 'i2i', inputImages: [a, b] });
    expect(result.state).toBe('succeeded');
    expect(result.body.input_image_asset_ids).toHaveLength(2);
  });

  it('cached input images the service no longer knows are forgotten, uploaded again once and the job created once', async () => {
    const a = world.file('lost-a.png', makePng(24, 24, [200, 10, 10]));
    const b = world.file('lost-b.png', makePng(24, 24, [200, 200, 10]));
    const first = await generate({ prompt: 'pair', generationMode: 'i2i', inputImages: [a, b] });
    const [idA] = first.body.input_image_asset_ids as string[];
    loseCachedAsset(world, 'lumen-image', idA!, 'image-lost');
    recorder.reset();
    const again = await submitImage(world.core, {
      profileId: world.profileId,
      service: lumen(),
      draft: { prompt: 'pair', generationMode: 'i2i', inputImages: [a, b] },
      idempotencyKey: 'image-lost-1',
      wait: { waitSeconds: 60 },
    });
    expect(again.state).toBe('succeeded');
    expect(posts()).toEqual(['/images/generations', '/assets/input', '/assets/input', '/images/generations']);
    expect(again.body.input_image_asset_ids).not.toContain('image-lost');
    const refused = world.core.journal.jobs.getIntent('image-lost-1')!;
    expect(refused).toMatchObject({ state: 'rejected', errorCode: 'asset_not_found' });
    expect(JSON.parse(refused.canonicalBodyJson).input_image_asset_ids).toContain('image-lost');
    expect(world.core.journal.jobs.latestResendOf('image-lost-1')?.attempt).toBe(2);
    const intent = world.core.journal.jobs.getIntent('image-lost-1.r2')!;
    expect(intent.state).toBe('accepted');
    expect(JSON.parse(intent.canonicalBodyJson).input_image_asset_ids).toEqual(
      again.body.input_image_asset_ids,
    );
  });

  it('refuses what the contract does not publish or allow, before sending', async () => {
    const png = world.file('x.png', makePng(8, 8));
    const before = intents();
    await refusedLocally(() => generate({ prompt: 'x', imageCount: 0 }), /at least 1/);
    await refusedLocally(() => generate({ prompt: 'x', imageCount: 5 }), /imageCount must be at most 4/);
    await refusedLocally(
      () => generate({ prompt: 'x', orientation: 'diagonal' }),
      /orientation must be one of square, landscape, portrait/,
    );
    await refusedLocally(
      () => generate({ prompt: 'x', outputSizeCode: '8k' }),
      /outputSizeCode must be one of 1k/,
    );
    await refusedLocally(
      () => generate({ prompt: 'x', resolutionTier: '768p' }),
      /does not take resolutionTier/,
    );
    await refusedLocally(() => generate({ prompt: '   ' }), /prompt is empty/);
    await refusedLocally(() => generate({ prompt: astral(2001) }), /2001 characters; at most 2000/);
    await refusedLocally(() => generate({ prompt: 'x', inputImages: [png] }), /t2i takes no input image/);
    await refusedLocally(
      () => generate({ prompt: 'x', generationMode: 'i2i' }),
      /needs at least one input image/,
    );
    await refusedLocally(
      () => generate({ prompt: 'x', generationMode: 'i2i', inputImages: [png, png, png, png, png] }),
      /at most 4 input images/,
    );
    expect(intents()).toBe(before);
    expect((await generate({ prompt: astral(2000) })).state).toBe('succeeded');
  });
});
