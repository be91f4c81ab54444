import { afterEach, describe, expect, it } from 'vitest';
import { openJournal } from '../../../src/main/core/journal/open-journal.js';
import { tempJournal, SHA_A, SHA_B } from './helpers.js';

let t: ReturnType<typeof tempJournal>;
afterEach(() => t.cleanup());

describe('settings, drafts, discovery cache and local files', () => {
  it('settings store JSON values per key', () => {
    t = tempJournal();
    const { settings } = t.journal;
    expect(settings.get('defaultProfile')).toBeUndefined();
    settings.set('defaultProfile', 'sim');
    settings.set('library', { folder: '/x', sidecars: true });
    settings.set('defaultProfile', 'work');
    expect(settings.get('defaultProfile')).toBe('work');
    expect(settings.all()).toEqual({ defaultProfile: 'work', library: { folder: '/x', sidecars: true } });
    expect(settings.delete('library')).toBe(true);
    expect(settings.get('library')).toBeUndefined();
  });

  it('drafts survive closing and reopening the journal, newest first', () => {
    t = tempJournal();
    t.journal.drafts.save('d1', { prompt: 'first' });
    t.clock.now += 10;
    t.journal.drafts.save('d2', { prompt: 'second' });
    t.clock.now += 10;
    t.journal.drafts.save('d1', { prompt: 'first, edited' });
    t.journal.close();
    const reopened = openJournal({ path: t.file });
    try {
      expect(reopened.drafts.list().map((d) => [d.id, d.body])).toEqual([
        ['d1', { prompt: 'first, edited' }],
        ['d2', { prompt: 'second' }],
      ]);
      expect(reopened.drafts.delete('d2')).toBe(true);
      expect(reopened.drafts.get('d2')).toBeUndefined();
    } finally {
      reopened.close();
    }
  });

  it('caches discovery per profile and resource', () => {
    t = tempJournal();
    const { profiles, discovery } = t.journal;
    profiles.create({ id: 'p1', name: 'One', kind: 'simulator' });
    profiles.create({ id: 'p2', name: 'Two', kind: 'simulator' });
    discovery.put('p1', 'services', { object: 'list', data: [1] });
    discovery.put('p2', 'services', { object: 'list', data: [2] });
    t.clock.now += 5;
    discovery.put('p1', 'services', { object: 'list', data: [3] });
    expect(discovery.get('p1')).toEqual({
      profileId: 'p1',
      resource: 'services',
      fetchedAt: t.clock.now,
      body: { object: 'list', data: [3] },
    });
    expect(discovery.get('p2')?.body).toEqual({ object: 'list', data: [2] });
    expect(discovery.get('p1', 'models')).toBeUndefined();
  });

  it('local files: the recorded hash counts only while size and mtime are unchanged', () => {
    t = tempJournal();
    const { localFiles } = t.journal;
    localFiles.record({
      path: '/in/cat.png',
      sha256: SHA_A,
      byteSize: 10,
      modifiedAt: 1000.7,
      detectedMime: 'image/png',
      kind: 'image',
      probe: { width: 10 },
    });
    expect(localFiles.getCurrent('/in/cat.png', { byteSize: 10, modifiedAt: 1000.7 })).toMatchObject({
      sha256: SHA_A,
      detectedMime: 'image/png',
      probe: { width: 10 },
    });
    expect(localFiles.getCurrent('/in/cat.png', { byteSize: 10, modifiedAt: 2000 })).toBeUndefined();
    expect(localFiles.getCurrent('/in/cat.png', { byteSize: 11, modifiedAt: 1000.7 })).toBeUndefined();
    localFiles.record({ path: '/in/cat.png', sha256: SHA_B, byteSize: 11, modifiedAt: 2000 });
    expect(localFiles.findBySha256(SHA_A)).toEqual([]);
    expect(localFiles.get('/in/cat.png')).toMatchObject({
      sha256: SHA_B,
      detectedMime: undefined,
      probe: undefined,
    });
    expect(() => localFiles.record({ path: '/x', sha256: 'XYZ', byteSize: 1, modifiedAt: 0 })).toThrow(
      /64 lowercase hex/,
    );
  });
});
