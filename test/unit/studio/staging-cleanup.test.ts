import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StagedFiles, UNNAMED_STAGED_GRACE_MS } from '../../../src/main/core/storage/staged-files.js';
import { tempJournal } from '../journal/helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

describe('staging is cleaned of files no draft names', () => {
  it('removes old unnamed files (row and poster too); keeps named ones, fresh drops and other entries', async () => {
    t = tempJournal();
    const staged = new StagedFiles(t.dir, t.journal);
    mkdirSync(path.join(staged.dir, '.posters'), { recursive: true });
    const ids = { draft: randomUUID(), submitted: randomUUID(), orphan: randomUUID(), fresh: randomUUID() };
    const now = Date.now();
    const old = new Date(now - UNNAMED_STAGED_GRACE_MS - 60_000);
    for (const [name, id] of Object.entries(ids)) {
      const file = staged.pathOf(id);
      writeFileSync(file, name);
      writeFileSync(path.join(staged.dir, '.posters', `staged-${id}.png`), 'poster');
      t.journal.localFiles.record({ path: file, sha256: 'a'.repeat(64), byteSize: 1, modifiedAt: 0 });
      if (name !== 'fresh') utimesSync(file, old, old);
    }
    writeFileSync(path.join(staged.dir, 'not-a-staged-id.txt'), 'left alone');
    // a draft being edited names one; a submitted draft (its job's details, Copy to Create) another
    t.journal.drafts.save('d1', { kind: 'studio-video', form: { firstFrame: { id: ids.draft } } });
    t.journal.drafts.save('d2', {
      kind: 'studio-video',
      submittedAt: 1,
      form: { references: [{ id: ids.submitted, fileName: 'ref.png' }] },
    });

    expect(await staged.removeUnnamed(UNNAMED_STAGED_GRACE_MS, now)).toBe(1);
    expect(existsSync(staged.pathOf(ids.orphan))).toBe(false);
    expect(existsSync(path.join(staged.dir, '.posters', `staged-${ids.orphan}.png`))).toBe(false);
    expect(t.journal.localFiles.get(staged.pathOf(ids.orphan))).toBeUndefined();
    for (const id of [ids.draft, ids.submitted, ids.fresh]) {
      expect(existsSync(staged.pathOf(id))).toBe(true);
      expect(t.journal.localFiles.get(staged.pathOf(id))).toBeDefined();
    }
    expect(existsSync(path.join(staged.dir, 'not-a-staged-id.txt'))).toBe(true);
  });
});
