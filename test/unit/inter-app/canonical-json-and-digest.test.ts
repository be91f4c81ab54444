import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalJsonBytes } from '../../../src/main/core/inter-app/canonical-json.js';
import {
  readRequestDigest,
  receivedBodyDigest,
  REQUEST_DIGEST_PATTERN,
  requestDigest,
} from '../../../src/main/core/inter-app/request-digest.js';
// the simulator's second application, an independent implementation of the same rule
import { bodyDigest as helperBodyDigest } from '../../../src/simulator/apps/storyboard-helper/grant-check.js';

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

describe('the digest of a received body: Framewright and Storyboard Helper agree (spec C)', () => {
  it('the same request gives the same digest on both callees, whatever its spelling', () => {
    const bodies = [
      '{"b":1,"a":[1,2,{"d":"é","c":null}]}',
      '{\n  "a": [1, 2, {"c": null, "d": "\\u00e9"}],\n  "b": 1.0\n}',
      '[3, 2, 1]',
      'not json: raw bytes',
      '',
    ];
    for (const text of bodies) {
      const raw = Buffer.from(text, 'utf8');
      expect(receivedBodyDigest(raw), text).toBe(helperBodyDigest(raw));
    }
    // two spellings of one object: one digest, the canonical JSON's
    expect(receivedBodyDigest(Buffer.from(bodies[0]!))).toBe(receivedBodyDigest(Buffer.from(bodies[1]!)));
    expect(receivedBodyDigest(Buffer.from(bodies[1]!))).toBe(
      requestDigest(canonicalJsonBytes({ a: [1, 2, { c: null, d: 'é' }], b: 1 })),
    );
    // a byte body is digested as its raw bytes
    expect(receivedBodyDigest(Buffer.from('not json: raw bytes'))).toBe(
      requestDigest(Buffer.from('not json: raw bytes')),
    );
  });
});
