import { describe, expect, it } from 'vitest';
import {
  PartPlanError,
  partRanges,
  planParts,
  type SessionParts,
} from '../../../../src/main/core/platform-release/part-plan.js';

const MiB = 1024 * 1024;
const SIZE = 2.5 * MiB;

function session(uploaded: SessionParts['uploadedParts'] = []): SessionParts {
  return {
    partSizeBytes: MiB,
    partCount: 3,
    uploadParts: [1, 2, 3].map((n) => ({
      partNumber: n,
      url: `https://upload.example/parts/${n}?sig=fresh`,
      method: 'PUT',
      sizeBytes: n < 3 ? MiB : 0.5 * MiB,
    })),
    uploadedParts: uploaded,
  };
}

describe('part plan', () => {
  it('cuts a file into parts of the session size, the last one the remainder', () => {
    expect(partRanges(SIZE, MiB)).toEqual([
      { partNumber: 1, offset: 0, sizeBytes: MiB },
      { partNumber: 2, offset: MiB, sizeBytes: MiB },
      { partNumber: 3, offset: 2 * MiB, sizeBytes: 0.5 * MiB },
    ]);
    expect(partRanges(MiB, MiB)).toEqual([{ partNumber: 1, offset: 0, sizeBytes: MiB }]);
  });

  it('sends every part of a new session to the URL of this read', () => {
    const plan = planParts(SIZE, session(), []);
    expect(plan.map((p) => p.action)).toEqual(['send', 'send', 'send']);
    expect(plan[2]).toMatchObject({
      url: 'https://upload.example/parts/3?sig=fresh',
      method: 'PUT',
      sizeBytes: 0.5 * MiB,
    });
  });

  it('never sends a recorded part again, and adopts a part the platform has but the journal lacks', () => {
    const plan = planParts(
      SIZE,
      session([
        { partNumber: 1, etag: '"a"', sizeBytes: MiB },
        { partNumber: 2, etag: '"b"', sizeBytes: MiB },
      ]),
      [{ partNumber: 1, etag: '"a"', sizeBytes: MiB }],
    );
    expect(plan.map((p) => [p.partNumber, p.action])).toEqual([
      [1, 'done'],
      [2, 'adopt'],
      [3, 'send'],
    ]);
    expect(plan[1]).toMatchObject({ etag: '"b"' });
  });

  it('sends again a recorded part the platform does not hold', () => {
    const plan = planParts(SIZE, session([]), [{ partNumber: 1, etag: '"a"', sizeBytes: MiB }]);
    expect(plan[0]!.action).toBe('send');
  });

  it('refuses a session that does not fit the file', () => {
    expect(() => planParts(3.5 * MiB, session(), [])).toThrow(PartPlanError);
    const wrongSize = session();
    wrongSize.uploadParts[2]!.sizeBytes = 123;
    expect(() => planParts(SIZE, wrongSize, [])).toThrow(/part 3/);
  });
});
