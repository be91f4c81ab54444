import { describe, expect, it } from 'vitest';
import { migrations } from '../../../../src/main/core/journal/migrations/index.js';
import { migration017StoryboardLinks } from '../../../../src/main/core/journal/migrations/017-storyboard-links.js';
import { StoryboardLinksRepository } from '../../../../src/main/core/journal/storyboard-links-repository.js';
import { columns, migratedTo, sequenceWithShots, tables } from './schema-helpers.js';

const link = {
  sequenceId: 's1',
  boardId: 'brd_1',
  title: 'The lighthouse keeper',
  panels: [
    { shotId: 'a', panelId: 'pnl_1', position: 0 },
    { shotId: 'b', panelId: 'pnl_2', position: 1 },
  ],
};

describe('migration 017-storyboard-links', () => {
  it('is version 17 and adds the board links with no column for a grant, session or URL', () => {
    expect(migration017StoryboardLinks.version).toBe(17);
    expect(migrations).toContain(migration017StoryboardLinks);
    const before = tables(migratedTo(16));
    const db = migratedTo(17);
    expect(
      tables(db)
        .filter((t) => !before.includes(t))
        .sort(),
    ).toEqual(['storyboard_imports', 'storyboard_sends', 'storyboard_shot_panels']);
    const all = [
      ...Object.keys(columns(db, 'storyboard_sends')),
      ...Object.keys(columns(db, 'storyboard_imports')),
      ...Object.keys(columns(db, 'storyboard_shot_panels')),
    ];
    expect(all.filter((c) => /grant|session|url|token|signature/i.test(c))).toEqual([]);
  });

  it('keeps one sequence per board and answers the link with its panels in board order', () => {
    const db = migratedTo(17);
    const repo = new StoryboardLinksRepository(db, () => 1);
    sequenceWithShots(db, 's1', ['a', 'b']);
    repo.record(link);
    expect(repo.sequenceOfBoard('brd_1')).toBe('s1');
    expect(repo.linkOf('s1')).toEqual(link);
    sequenceWithShots(db, 's2', ['c']);
    expect(() => repo.record({ ...link, sequenceId: 's2', panels: [] })).toThrow(/UNIQUE/);
  });

  it('forgets the link when the sequence or a shot goes, so the board can be imported again', () => {
    const db = migratedTo(17);
    const repo = new StoryboardLinksRepository(db, () => 1);
    sequenceWithShots(db, 's1', ['a', 'b']);
    repo.record(link);
    db.prepare("DELETE FROM sequence_shots WHERE id = 'b'").run();
    expect(repo.linkOf('s1')?.panels).toEqual([link.panels[0]]);
    db.prepare("DELETE FROM sequences WHERE id = 's1'").run();
    expect(repo.sequenceOfBoard('brd_1')).toBeUndefined();
    expect(repo.sequencesByBoard().size).toBe(0);
  });

  it('keeps each sent content until its readUrl expires, once per key', () => {
    const db = migratedTo(17);
    const repo = new StoryboardLinksRepository(db, () => 1);
    const send = {
      idempotencyKey: 'k',
      boardId: 'brd_1',
      panelId: 'p',
      writeId: 'w',
      sha256: 'c'.repeat(64),
      expiresAt: 1000,
    };
    repo.recordSend(send);
    repo.recordSend({ ...send, writeId: 'w2' });
    expect(repo.sentSha256(999)).toEqual(['c'.repeat(64)]);
    expect(repo.sentSha256(1000)).toEqual([]);
    expect(() => repo.recordSend({ ...send, idempotencyKey: 'k2', sha256: 'short' })).toThrow(/CHECK/);
  });
});
