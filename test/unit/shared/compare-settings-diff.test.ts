import { describe, expect, test } from 'vitest';
import {
  compareSettings,
  referenceEntries,
  settingsThatDiffer,
} from '../../../src/shared/compare/settings-diff.js';
import { jobDetail } from '../../support/job-detail.js';

const detail = jobDetail;

const image = (fileName: string, sha256: string) => ({
  id: '00000000-0000-4000-8000-000000000001',
  fileName,
  mimeType: 'image/png',
  byteSize: 100,
  kind: 'image' as const,
  sha256,
  role: 'reference_image',
  posterUrl: null,
});

describe('the settings that differ between two jobs', () => {
  test('two jobs differing in seed and seconds: exactly those rows, with the effective fields that follow', () => {
    const a = detail();
    const b = detail({ rowId: 2, requested: { seed: 7, seconds: 10 } });
    expect(settingsThatDiffer(a, b)).toEqual([
      { name: 'seconds', group: 'request', label: 'Seconds', a: '5', b: '10', differs: true },
      { name: 'seed', group: 'request', label: 'Seed', a: '42', b: '7', differs: true },
      { name: 'effective-seconds', group: 'effective', label: 'seconds', a: '5', b: '10', differs: true },
    ]);
  });

  test('two equal jobs have no differing row; all their settings are still listed as equal', () => {
    const a = detail();
    const b = detail({ rowId: 2, jobId: 'job_2', requestId: 'req_2' });
    expect(settingsThatDiffer(a, b)).toEqual([]);
    const all = compareSettings(a, b);
    expect(all.map((r) => r.name)).toEqual([
      'model',
      'generationMode',
      'prompt',
      'seconds',
      'orientation',
      'resolutionTier',
      'seed',
      'effective-fps',
      'effective-width',
      'effective-height',
      'effective-seconds',
      'effective-audio.channels',
      'effective-audio.codec',
      'timing-queued',
      'timing-running',
      'timing-elapsed',
    ]);
    expect(all.every((r) => !r.differs)).toBe(true);
  });

  test('a reference whose sha256 changed is a row naming its label, with both hashes', () => {
    const a = detail({
      requested: { generationMode: 'universal_reference_video' },
      references: [image('red.png', 'aa')],
    });
    const b = detail({
      requested: { generationMode: 'universal_reference_video' },
      references: [image('red.png', 'bb')],
    });
    expect(settingsThatDiffer(a, b)).toEqual([
      {
        name: 'reference-image-1',
        group: 'reference',
        label: 'Image 1',
        a: 'red.png · sha256 aa',
        b: 'red.png · sha256 bb',
        differs: true,
      },
    ]);
    // the same bytes under another file name are the same reference
    const c = detail({
      requested: { generationMode: 'universal_reference_video' },
      references: [image('copy.png', 'aa')],
    });
    expect(settingsThatDiffer(a, c)).toEqual([]);
  });

  test('references are labelled by kind and order; a reference only one job has is a row', () => {
    const frames = detail({
      references: [
        { ...image('first.png', 'f1'), role: 'first_frame' },
        { ...image('last.png', 'l1'), role: 'last_frame' },
      ],
    });
    expect(referenceEntries(frames).map((r) => r.label)).toEqual(['First frame', 'Last frame']);
    const two = detail({ references: [image('red.png', 'aa'), image('blue.png', 'bb')] });
    const one = detail({ references: [image('red.png', 'aa')] });
    expect(settingsThatDiffer(one, two)).toEqual([
      expect.objectContaining({
        name: 'reference-image-2',
        label: 'Image 2',
        a: null,
        b: 'blue.png · sha256 bb',
      }),
    ]);
  });

  test('without the draft, references come from the request body (asset ids, and a sent sha256)', () => {
    const a = detail({
      requested: {
        input_image_asset_id: 'asset_first',
        referenceInputs: [{ role: 'reference_audio', assetId: 'asset_a', sha256: 'cc' }],
      },
    });
    expect(referenceEntries(a)).toEqual([
      { label: 'First frame', fileName: null, sha256: null, assetId: 'asset_first' },
      { label: 'Audio 1', fileName: null, sha256: 'cc', assetId: 'asset_a' },
    ]);
    // asset ids are never their own rows: the inputs are compared by label
    const b = detail({ requested: { input_image_asset_id: 'asset_other' } });
    expect(settingsThatDiffer(a, b).map((r) => r.name)).toEqual([
      'reference-first-frame',
      'reference-audio-1',
    ]);
  });

  test('timings differ only at the precision shown (0.1 s); other request fields get their own row', () => {
    const a = detail({ queuedSeconds: 1.01, requested: { watermark: false } });
    const b = detail({ queuedSeconds: 1.04, runningSeconds: 20, requested: { watermark: true } });
    expect(settingsThatDiffer(a, b).map((r) => [r.name, r.a, r.b])).toEqual([
      ['watermark', 'false', 'true'],
      ['timing-running', '11.3 s', '20.0 s'],
    ]);
  });
});
