import type { Database } from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration024CaptionEdits } from '../../../../src/main/core/journal/migrations/024-caption-edits.js';
import { SoundtracksRepository } from '../../../../src/main/core/journal/soundtracks-repository.js';
import { migratedTo, tables } from './schema-helpers.js';

/** A journal migrated to 024 (or 023) with a sequence and one spoken line in it. */
function journal(before = false): { db: Database; repo: SoundtracksRepository } {
  const db = migratedTo(before ? 23 : 24);
  db.prepare("INSERT INTO sequences (id, name, created_at, updated_at) VALUES ('s1', 'Film', 0, 0)").run();
  const repo = new SoundtracksRepository(db, () => 7);
  repo.addVoice({
    id: 'line',
    sequenceId: 's1',
    source: 'generated',
    text: 'The boats come home.',
    atSeconds: 2,
    gainDb: 0,
    idempotencyKey: 'k',
  });
  return { db, repo };
}

describe('migration 024-caption-edits', () => {
  it('is version 24 and adds the caption edits table only', () => {
    expect(migration024CaptionEdits.version).toBe(24);
    expect(migrations).toContain(migration024CaptionEdits);
    const added = tables(journal().db).filter((t) => !tables(journal(true).db).includes(t));
    expect(added).toEqual(['sequence_caption_edits']);
  });

  it('keeps one edit per cue of a line, replaced by the next, cleared on demand', () => {
    const { repo } = journal();
    repo.setCaptionEdit({ lineId: 'line', cueIndex: 0, cueText: 'The boats', startOffset: 0, endOffset: 1 });
    repo.setCaptionEdit({
      lineId: 'line',
      cueIndex: 0,
      cueText: 'The boats',
      startOffset: 0.1,
      endOffset: 0.9,
    });
    repo.setCaptionEdit({ lineId: 'line', cueIndex: 1, cueText: 'come home.', startOffset: 1, endOffset: 2 });
    expect([...repo.captionEdits('s1').entries()]).toEqual([
      ['line:0', { lineId: 'line', cueIndex: 0, cueText: 'The boats', startOffset: 0.1, endOffset: 0.9 }],
      ['line:1', { lineId: 'line', cueIndex: 1, cueText: 'come home.', startOffset: 1, endOffset: 2 }],
    ]);
    repo.clearCaptionEdit('line', 1);
    expect([...repo.captionEdits('s1').keys()]).toEqual(['line:0']);
    expect(repo.captionEdits('other').size).toBe(0);
  });

  it('refuses an edit that ends before it starts, and goes with its line', () => {
    const { db, repo } = journal();
    expect(() =>
      repo.setCaptionEdit({ lineId: 'line', cueIndex: 0, cueText: 'x', startOffset: 1, endOffset: 1 }),
    ).toThrow(/CHECK/);
    expect(() =>
      repo.setCaptionEdit({ lineId: 'nope', cueIndex: 0, cueText: 'x', startOffset: 0, endOffset: 1 }),
    ).toThrow(/FOREIGN KEY/);
    repo.setCaptionEdit({ lineId: 'line', cueIndex: 0, cueText: 'x', startOffset: 0, endOffset: 1 });
    repo.removeVoice('line');
    expect(db.prepare('SELECT count(*) FROM sequence_caption_edits').pluck().get()).toBe(0);
  });
});
