import { describe, expect, it } from 'vitest';
import {
  contentKeyedOptimization,
  runtimeOptimizationBody,
} from '../../../src/main/core/backends/platform-runtime/runtime-optimization-body.js';
import { optimizationKey } from '../../../src/main/core/creating/prompt-optimization.js';
import { limitsFor, type LocalVideoDraft } from '../../../src/main/core/creating/submit-video.js';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import { findService, publicService } from '../../../src/simulator/catalog.js';
import { RuntimeOptimizationRequest } from '../../../src/simulator/platform/sync-schemas.js';

const limits = limitsFor(publicService(findService('h3-video')!));
const sha = (c: string) => c.repeat(64);

function image(id: string, sha256: string) {
  return {
    id,
    fileName: `${id}.png`,
    mimeType: 'image/png',
    byteSize: 1000 + id.length,
    kind: 'image' as const,
    width: 1280,
    height: 720,
    path: `/tmp/${id}.png`,
    sha256,
  };
}

function draft(over: Partial<LocalVideoDraft> = {}): LocalVideoDraft {
  return {
    model: 'h3-video',
    generationMode: 'universal_reference_video',
    prompt: 'Two kites dance over the dunes at dusk',
    orientation: 'landscape',
    seconds: 5,
    resolutionTier: '768p',
    seed: null,
    references: [image('ref-a', sha('a')), image('ref-b', sha('b'))],
    ...over,
  };
}

/** A journal with no optimization recorded (the key's first attempt). */
const emptyJournal = { optimizations: { get: () => undefined } } as unknown as Journal;

/** Signed objects as the storage gives them: the URL and its expiry differ at every signing. */
const storedAt = (exp: number) =>
  ['a', 'b'].map((c) => ({
    readUrl: `https://app.example/objects/subject/${sha(c)}?exp=${exp}&sig=${c}${exp}`,
    sha256: sha(c),
    byteSize: 1005,
    mimeType: 'image/png',
  }));

describe('the runtime optimization body', () => {
  it('names each reference by role, readUrl, byteSize, sha256 and mimeType (no mediaType, no assetId) and is accepted by the runtime schema', () => {
    const keyed = contentKeyedOptimization(draft(), limits, undefined);
    const body = runtimeOptimizationBody(keyed, 'opt-0123456789', storedAt(1000));
    expect(body.referenceInputs).toEqual([
      {
        role: 'reference_image',
        readUrl: storedAt(1000)[0]!.readUrl,
        byteSize: 1005,
        sha256: sha('a'),
        mimeType: 'image/png',
      },
      {
        role: 'reference_image',
        readUrl: storedAt(1000)[1]!.readUrl,
        byteSize: 1005,
        sha256: sha('b'),
        mimeType: 'image/png',
      },
    ]);
    expect(body).toMatchObject({
      clientRequestId: 'opt-0123456789',
      model: 'h3-video',
      generationMode: 'universal_reference_video',
      originalPrompt: 'Two kites dance over the dunes at dusk',
      mediaSpec: { resolutionTier: '768p', orientation: 'landscape', seconds: 5 },
    });
    expect(RuntimeOptimizationRequest.safeParse(body).success).toBe(true);
  });

  it('a frame mode sends its frame as first_frame', () => {
    const keyed = contentKeyedOptimization(
      draft({ generationMode: 'i2v', references: [], firstFrame: image('first', sha('a')) }),
      limits,
      undefined,
    );
    const body = runtimeOptimizationBody(keyed, 'opt-0123456789', storedAt(1));
    expect(body.referenceInputs.map((r) => [r.role, r.sha256])).toEqual([['first_frame', sha('a')]]);
  });

  it('the key is stable across signings and changes with the content', () => {
    const keyOf = (d: LocalVideoDraft, style?: string) =>
      optimizationKey(emptyJournal, {
        profileId: 'platform-runtime',
        scope: 'studio-draft:d1',
        request: contentKeyedOptimization(d, limits, style),
      });
    const key = keyOf(draft());
    expect(keyOf(draft())).toBe(key);
    // the key's body carries no URL: signing again (new expiry and signature) cannot change it
    expect(JSON.stringify(contentKeyedOptimization(draft(), limits, undefined))).not.toContain('http');
    expect(keyOf(draft({ references: [image('ref-a', sha('a')), image('ref-b', sha('c'))] }))).not.toBe(key);
    expect(keyOf(draft({ prompt: 'Two kites dance over the sea at dusk' }))).not.toBe(key);
    expect(keyOf(draft(), 'film noir')).not.toBe(key);
    expect(key).toMatch(/^opt-[0-9a-f]{40}$/);
  });

  it('refuses a reference whose stored object is missing', () => {
    const keyed = contentKeyedOptimization(draft(), limits, undefined);
    expect(() => runtimeOptimizationBody(keyed, 'opt-0123456789', storedAt(1).slice(0, 1))).toThrow(
      /changed after it was checked/,
    );
  });
});
