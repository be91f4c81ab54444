import { describe, expect, it } from 'vitest';
import { migration005Conversations } from '../../../../src/main/core/journal/migrations/005-conversations.js';
import { ConversationsRepository } from '../../../../src/main/core/journal/conversations-repository.js';
import { columns, foreignKeys, migratedTo, tables } from './schema-helpers.js';

function withProfile(db: ReturnType<typeof migratedTo>) {
  db.prepare(
    "INSERT INTO profiles (id, name, kind, created_at, updated_at) VALUES ('p', 'P', 'simulator', 0, 0)",
  ).run();
  return db;
}

describe('migration 005-conversations', () => {
  it('is version 5 and adds the conversation tables', () => {
    expect(migration005Conversations.version).toBe(5);
    const before = tables(migratedTo(4));
    const db = migratedTo(5);
    expect(tables(db).filter((t) => !before.includes(t) && !t.startsWith('conversation_search'))).toEqual([
      'conversation_messages',
      'conversations',
    ]);
    expect(columns(db, 'conversation_messages').content_json).toMatchObject({ notnull: true });
    expect(foreignKeys(db, 'conversations')).toEqual([
      { table: 'profiles', from: 'profile_id', on_delete: 'CASCADE' },
    ]);
    expect(foreignKeys(db, 'conversation_messages')).toEqual([
      { table: 'conversations', from: 'conversation_id', on_delete: 'CASCADE' },
    ]);
  });

  it('keeps turns in order, immutable, searchable by substring in any script, and cascades', () => {
    const db = withProfile(migratedTo(5));
    let clock = 1000;
    const repo = new ConversationsRepository(db, () => (clock += 1));
    const a = repo.create({ profileId: 'p', model: 'atlas-chat', title: 'Lighthouse' });
    const b = repo.create({ profileId: 'p', model: 'atlas-chat', title: 'Other', systemPrompt: 'Be brief.' });
    repo.appendTurn(a.id, [
      { role: 'user', content: 'Describe a RAINY café', text: 'Describe a RAINY café' },
      { role: 'assistant', content: 'It rains.', text: 'It rains.', finishReason: 'stop', usage: { t: 1 } },
    ]);
    repo.appendTurn(b.id, [
      { role: 'user', content: [{ type: 'text', text: '雨の中を歩く猫' }], text: '雨の中を歩く猫' },
    ]);
    const full = repo.getWithMessages(a.id)!;
    expect(full.messages.map((m) => [m.position, m.role])).toEqual([
      [0, 'user'],
      [1, 'assistant'],
    ]);
    expect(full.messages[1]).toMatchObject({ finishReason: 'stop', usage: { t: 1 } });
    expect(repo.get(b.id)!.systemPrompt).toBe('Be brief.');
    expect(repo.search('rainy cafe').map((c) => c.id)).toEqual([a.id]);
    expect(repo.search('中を歩').map((c) => c.id)).toEqual([b.id]);
    expect(repo.search('It').map((c) => c.id)).toEqual([a.id]);
    expect(repo.search('other').map((c) => c.id)).toEqual([b.id]);
    expect(repo.search('nothing here')).toEqual([]);
    expect(repo.list().map((c) => c.id)).toEqual([b.id, a.id]);
    expect(() => db.prepare("UPDATE conversation_messages SET text = 'x'").run()).toThrow(/immutable/);
    db.prepare("DELETE FROM profiles WHERE id = 'p'").run();
    expect(repo.list()).toEqual([]);
    expect(db.prepare('SELECT count(*) FROM conversation_search').pluck().get()).toBe(0);
  });

  it('appends nothing when a turn fails part-way', () => {
    const db = withProfile(migratedTo(5));
    const repo = new ConversationsRepository(db);
    const c = repo.create({ profileId: 'p', model: 'm', title: 't' });
    expect(() =>
      repo.appendTurn(c.id, [
        { role: 'user', content: 'hi', text: 'hi' },
        { role: 'nonsense' as never, content: 'x', text: 'x' },
      ]),
    ).toThrow();
    expect(repo.getWithMessages(c.id)!.messages).toEqual([]);
  });
});
