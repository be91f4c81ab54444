import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonBytes } from '../../../src/main/core/inter-app/canonical-json.js';
import {
  readRequestDigest,
  REQUEST_DIGEST_PATTERN,
  requestDigest,
} from '../../../src/main/core/inter-app/request-digest.js';

describe('canonicalJson', () => {
  it('sorts keys at every level and writes no whitespace', () => {
    const value = { b: 1, a: { d: [3, { z: true, y: null }], c: 'x' } };
    expect(canonicalJson(value)).toBe('{"a":{"c":"x","d":[3,{"y":null,"z":true}]},"b":1}');
  });

  it('gives two spellings of the same object the same text, and leaves out undefined members', () => {
    expect(canonicalJson({ x: 1, y: 'é', z: undefined })).toBe(
      canonicalJson(JSON.parse('{ "y" : "é", "x" : 1 }')),
    );
  });

  it('writes UTF-8 bytes for non-ASCII text', () => {
    expect([...canonicalJsonBytes({ t: 'é' })]).toEqual([...Buffer.from('{"t":"é"}', 'utf8')]);
  });

  it('refuses what JSON cannot spell instead of changing it', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(RangeError);
    expect(() => canonicalJson(10n)).toThrow(TypeError);
  });
});

describe('requestDigest', () => {
  it('is sha256: and the lowercase hex of exactly the bytes given', () => {
    const bytes = Buffer.from('{"boardId":"brd_1"}', 'utf8');
    const digest = requestDigest(bytes);
    expect(digest).toMatch(REQUEST_DIGEST_PATTERN);
    expect(digest).toBe(`sha256:${createHash('sha256').update(bytes).digest('hex')}`);
  });

  it('changes with any one byte', () => {
    const a = Buffer.from('{"title":"Film"}', 'utf8');
    const b = Buffer.from(a);
    b[10] = b[10]! ^ 1;
    expect(requestDigest(a)).not.toBe(requestDigest(b));
  });

  it('digests a body-less GET over the canonical JSON of {method, path} (the storyboard-helper README example)', () => {
    const expected = `sha256:${createHash('sha256').update('{"method":"GET","path":"/boards"}').digest('hex')}`;
    expect(readRequestDigest('/boards')).toBe(expected);
    expect(readRequestDigest('/boards/brd_sim_lighthouse')).not.toBe(expected);
  });
});
