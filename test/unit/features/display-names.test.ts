import { describe, expect, it } from 'vitest';
import { DisplayNames, type MemberPages } from '../../../src/main/core/team/display-names.js';
import { ApiError } from '../../../src/main/core/api-clients/api-errors.js';

const member = (n: number) => ({
  membershipId: `mbr_${n}`,
  accountId: `acc_${n}`,
  displayName: `Person ${n}`,
  organizationRoles: [],
  appRoles: [],
});

/** A directory of `count` members answering pages of 100; records each page asked. */
function directory(count: number, refuse?: ApiError): MemberPages & { asked: number[] } {
  const asked: number[] = [];
  return {
    asked,
    async listMembers({ page, pageSize }) {
      asked.push(page);
      if (refuse) throw refuse;
      const items = Array.from({ length: count }, (_, i) => member(i + 1)).slice(
        (page - 1) * pageSize,
        page * pageSize,
      );
      return { items, page, pageSize, total: count };
    },
  };
}

const session = (accountId: string, organizationId?: string, sessionId = 'rs_1') => ({
  sessionId,
  subject: { accountId, ...(organizationId ? { organizationId } : {}) },
});

describe('the name a signed-in person is shown by', () => {
  it("is the directory's displayName, found on a later page, and asked once per session", async () => {
    const names = new DisplayNames();
    const dir = directory(250);
    expect(await names.nameOf(session('acc_230', 'org_1'), dir)).toBe('Person 230');
    expect(dir.asked).toEqual([1, 2, 3]);
    expect(await names.nameOf(session('acc_230', 'org_1'), dir)).toBe('Person 230');
    expect(dir.asked).toEqual([1, 2, 3]);
  });

  it('is null for a member the directory refuses (403), remembered: the page says "you", the directory is not asked again', async () => {
    const names = new DisplayNames();
    const dir = directory(
      10,
      new ApiError({ status: 403, apiCode: 'forbidden', message: 'no', retryable: false }),
    );
    expect(await names.nameOf(session('acc_1', 'org_1'), dir)).toBeNull();
    expect(await names.nameOf(session('acc_1', 'org_1'), dir)).toBeNull();
    expect(dir.asked).toEqual([1]);
  });

  it('is null without asking in a personal space, and when the person is not listed', async () => {
    const names = new DisplayNames();
    const dir = directory(30);
    expect(await names.nameOf(session('acc_1'), dir)).toBeNull();
    expect(dir.asked).toEqual([]);
    expect(await names.nameOf(session('acc_999', 'org_1', 'rs_2'), dir)).toBeNull();
    expect(dir.asked).toEqual([1]);
  });
});
