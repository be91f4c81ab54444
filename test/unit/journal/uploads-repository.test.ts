import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REUSE_SAFETY_MARGIN_MS } from '../../../src/main/core/journal/uploads-repository.js';
import type { NewUpload } from '../../../src/main/core/journal/uploads-repository.js';
import { tempJournal, SHA_A, SHA_B } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const HOUR = 3_600_000;
/** Fingerprints of two credentials of one profile. */
const KEY_A = '1'.repeat(64);
const KEY_B = '2'.repeat(64);
/** The lookup of the `base` upload's bytes, profile, credential, model and field. */
const QUERY = {
  sha256: SHA_A,
  profileId: 'p1',
  credentialFingerprint: KEY_A,
  model: 'h3',
  uploadField: 'image' as const,
};

function setup() {
  t = tempJournal();
  t.journal.profiles.create({ id: 'p1', name: 'One', kind: 'simulator' });
  t.journal.profiles.create({
    id: 'p2',
    name: 'Two',
    kind: 'personal',
    baseUrl: 'https://api.example.com/v1',
  });
  const base: NewUpload = {
    sha256: SHA_A,
    byteSize: 100,
    profileId: 'p1',
    credentialFingerprint: KEY_A,
    model: 'h3',
    uploadField: 'image',
    assetId: 'asset-1',
    publicationId: 'pub',
    assetKind: 'image',
    mimeType: 'image/png',
    reused: false,
    expiresAt: t.clock.now + 24 * HOUR,
  };
  return { uploads: t.journal.uploads, base };
}

describe('UploadsRepository', () => {
  it('reuses a still-valid asset only for the same bytes, profile, credential, model and field', () => {
    const { uploads, base } = setup();
    const recorded = uploads.record(base);
    expect(recorded).toMatchObject({ assetId: 'asset-1', reused: false, uploadedAt: t.clock.now });
    const query = QUERY;
    expect(uploads.findReusable(query)?.assetId).toBe('asset-1');
    expect(uploads.findReusable({ ...query, profileId: 'p2' })).toBeUndefined();
    expect(uploads.findReusable({ ...query, credentialFingerprint: KEY_B })).toBeUndefined();
    expect(uploads.findReusable({ ...query, model: 'other' })).toBeUndefined();
    expect(uploads.findReusable({ ...query, sha256: SHA_B })).toBeUndefined();
    expect(uploads.findReusable({ ...query, uploadField: 'audio' })).toBeUndefined();
  });

  it('does not reuse an asset that expired or expires within the safety margin', () => {
    const { uploads, base } = setup();
    uploads.record({ ...base, expiresAt: t.clock.now + DEFAULT_REUSE_SAFETY_MARGIN_MS + 1 });
    const query = QUERY;
    expect(uploads.findReusable(query)).toBeDefined();
    t.clock.now += 2;
    expect(uploads.findReusable(query)).toBeUndefined();
    expect(uploads.findReusable({ ...query, safetyMarginMs: 0 })).toBeDefined();
  });

  it('prefers the asset valid longest, updates a reused asset in place and prunes expired ones', () => {
    const { uploads, base } = setup();
    uploads.record({ ...base, assetId: 'short', expiresAt: t.clock.now + 2 * HOUR });
    uploads.record({ ...base, assetId: 'long', expiresAt: t.clock.now + 20 * HOUR });
    const query = QUERY;
    expect(uploads.findReusable(query)?.assetId).toBe('long');
    const again = uploads.record({
      ...base,
      assetId: 'short',
      reused: true,
      expiresAt: t.clock.now + 30 * HOUR,
    });
    expect(again).toMatchObject({ assetId: 'short', reused: true });
    expect(uploads.findReusable(query)?.assetId).toBe('short');
    t.clock.now += 25 * HOUR;
    expect(uploads.pruneExpired()).toBe(1);
    expect(uploads.get('p1', 'h3', 'long')).toBeUndefined();
    expect(uploads.forget(again.id)).toBe(true);
    expect(uploads.findReusable(query)).toBeUndefined();
  });
});
