import { describe, expect, it } from 'vitest';
import { runtimeJobBody } from '../../../../src/main/core/jobs/runtime-job-body.js';

const SHA = 'a'.repeat(64);

describe('runtimeJobBody', () => {
  it('puts the prompt in params, the spec in mediaSpec, no field in both and none at top level', () => {
    const body = runtimeJobBody(
      'video_generation',
      {
        model: 'h3-video',
        prompt: 'A boat',
        generationMode: 'i2v',
        resolutionTier: '768p',
        orientation: 'portrait',
        seconds: 6,
        seed: 42,
        input_image_asset_id: 'asset_1',
      },
      {
        clientTaskId: 'draft-9',
        inputs: [{ readUrl: 'https://fw.example/o/x?sig=1', role: 'first_frame', sha256: SHA, byteSize: 10 }],
        resourceAttribution: { resourceType: 'project', resourceId: 'p1' },
      },
    );
    expect(body).toEqual({
      clientTaskId: 'draft-9',
      model: 'h3-video',
      serviceKind: 'video_generation',
      params: { prompt: 'A boat' },
      mediaSpec: {
        generationMode: 'i2v',
        resolutionTier: '768p',
        orientation: 'portrait',
        seconds: 6,
        seed: 42,
      },
      inputs: [{ readUrl: 'https://fw.example/o/x?sig=1', role: 'first_frame', sha256: SHA, byteSize: 10 }],
      resourceAttribution: { resourceType: 'project', resourceId: 'p1' },
    });
  });

  it('omits inputs for text-to-video and drops public asset fields and reference items', () => {
    const body = runtimeJobBody(
      'video_generation',
      { model: 'h3-video', prompt: 'x', generationMode: 't2v', referenceInputs: [{ assetId: 'a' }] },
      { clientTaskId: 't', inputs: [] },
    );
    expect(body).not.toHaveProperty('inputs');
    expect(body.mediaSpec).toEqual({ generationMode: 't2v' });
  });

  it('puts speech content (text, speaker, instruct) in params', () => {
    const body = runtimeJobBody(
      'audio_generation',
      { model: 'cadence-speech', text: 'Hi', speaker: 'ava', instruct: 'warm', generationMode: 'speech' },
      { clientTaskId: 's' },
    );
    expect(body.params).toEqual({ text: 'Hi', speaker: 'ava', instruct: 'warm' });
    expect(body.mediaSpec).toEqual({ generationMode: 'speech' });
  });

  it('sends only the input fields the spec names (no mediaType, no purpose)', () => {
    const body = runtimeJobBody(
      'video_generation',
      { model: 'h3-video', prompt: 'x' },
      {
        clientTaskId: 't',
        inputs: [
          {
            readUrl: 'http://127.0.0.1:1/o',
            role: 'reference_image',
            mediaType: 'image',
            purpose: 'style',
          } as never,
        ],
      },
    );
    expect(body.inputs).toEqual([{ readUrl: 'http://127.0.0.1:1/o', role: 'reference_image' }]);
  });

  it('is pure: the same request gives the same bytes', () => {
    const make = () =>
      JSON.stringify(
        runtimeJobBody('image_generation', { model: 'm', prompt: 'p', seed: 1 }, { clientTaskId: 'c' }),
      );
    expect(make()).toBe(make());
  });

  it.each([
    [{ clientTaskId: '' }, /clientTaskId/],
    [{ clientTaskId: 'c', inputs: [{ readUrl: 'http://h/x', role: 'mask' }] }, /role "mask"/],
    [{ clientTaskId: 'c', inputs: [{ readUrl: '/etc/passwd', role: 'first_frame' }] }, /readUrl/],
    [
      { clientTaskId: 'c', inputs: [{ readUrl: 'http://h/x', role: 'first_frame', sha256: 'ABC' }] },
      /sha256/,
    ],
  ])('refuses a bad identity or input with a clear error (%#)', (identity, message) => {
    expect(() =>
      runtimeJobBody('video_generation', { model: 'h3-video', prompt: 'x' }, identity as never),
    ).toThrow(message);
  });

  it('refuses a request without an explicit model', () => {
    expect(() => runtimeJobBody('video_generation', { prompt: 'x' }, { clientTaskId: 'c' })).toThrow(/model/);
  });
});
