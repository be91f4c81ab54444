import { afterEach, describe, expect, it } from 'vitest';
import { MAX_DRAFT_FORM_BYTES, StudioDrafts } from '../../../src/main/core/creating/drafts.js';
import { StorageUsage } from '../../../src/main/core/storage/storage-usage.js';
import type { DraftForm } from '../../../src/shared/bridge/domains/studio.js';
import { tempJournal } from '../journal/helpers.js';

/**
 * Drafts on the platform (issue 37): a draft's bytes in the journal count in the person's quota,
 * a draft is bounded in size, and a refused save keeps the draft as it was.
 */

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

const FORM: DraftForm = {
  profileId: 'runtime',
  model: 'h3-video',
  generationMode: 't2v',
  prompt: 'A lighthouse at dusk',
  orientation: 'landscape',
  seconds: 5,
  resolutionTier: '768p',
  seed: null,
  references: [],
};

async function draftsWithQuota(maxBytes: number) {
  t = tempJournal();
  const usage = new StorageUsage({ maxBytes, maxFiles: 100 }, []);
  await usage.ready;
  return {
    usage,
    drafts: new StudioDrafts({ drafts: t.journal.drafts, jobs: t.journal.jobs, quota: usage }),
  };
}

describe('draft bounds and the quota', () => {
  it("counts every draft's stored bytes in the person's usage, and what an edit adds or frees", async () => {
    const { usage, drafts } = await draftsWithQuota(1024 * 1024);
    const a = drafts.createDraft(FORM);
    drafts.createDraft(FORM);
    expect(usage.view().usedBytes).toBe(t.journal.drafts.totals().bytes);
    expect(usage.view().usedBytes).toBeGreaterThan(0);
    drafts.saveDraft(a.id, { ...FORM, prompt: 'x'.repeat(50_000) });
    expect(usage.view().usedBytes).toBe(t.journal.drafts.totals().bytes);
    drafts.saveDraft(a.id, FORM);
    expect(usage.view().usedBytes).toBe(t.journal.drafts.totals().bytes);
  });

  it('refuses a save past the quota with quota.exceeded; the draft keeps what it had', async () => {
    const { usage, drafts } = await draftsWithQuota(64 * 1024);
    const draft = drafts.createDraft(FORM);
    const used = usage.view().usedBytes;
    expect(() => drafts.saveDraft(draft.id, { ...FORM, prompt: 'y'.repeat(100_000) })).toThrow(
      expect.objectContaining({ code: 'quota.exceeded' }),
    );
    expect(drafts.draft(draft.id).form.prompt).toBe(FORM.prompt);
    expect(usage.view().usedBytes).toBe(used);
    expect(() => drafts.createDraft({ ...FORM, prompt: 'z'.repeat(70_000) })).toThrow(
      expect.objectContaining({ code: 'quota.exceeded' }),
    );
    expect(t.journal.drafts.totals().drafts).toBe(1);
  });

  it('refuses a draft form past its size bound with draft.too_large, on the desktop too (no quota)', () => {
    t = tempJournal();
    const drafts = new StudioDrafts({ drafts: t.journal.drafts, jobs: t.journal.jobs });
    const draft = drafts.createDraft(FORM);
    // 12 MB of "extra" settings: what one save stored before the bound
    const huge = { ...FORM, extra: { blob: 'q'.repeat(12 * 1024 * 1024) } };
    expect(() => drafts.saveDraft(draft.id, huge)).toThrow(
      expect.objectContaining({
        code: 'draft.too_large',
        message: expect.stringMatching(/at most 1024 KiB/),
      }),
    );
    expect(() => drafts.createDraft(huge)).toThrow(expect.objectContaining({ code: 'draft.too_large' }));
    expect(drafts.draft(draft.id).form).toEqual(FORM);
    expect(t.journal.drafts.totals().bytes).toBeLessThan(MAX_DRAFT_FORM_BYTES);
    expect(drafts.listDrafts().map((d) => d.id)).toEqual([draft.id]);
  });
});
