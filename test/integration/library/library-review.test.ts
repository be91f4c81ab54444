import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CollectionView,
  JobNoteView,
  JobView,
  SequenceView,
  ServicesList,
} from '../../../src/shared/bridge/contract.js';
import { reindexLibrary } from '../../../src/main/core/library/reindex-library.js';
import { t2vForm } from '../../support/studio-core.js';
import { openStudioCore, type StudioCore } from '../../support/worlds/desktop-core.js';

let studio: StudioCore;
let takes: JobView[];

const call = <T>(method: string, params: unknown = {}) => studio.call<T>(method, params);
const refusal = (method: string, params: unknown) =>
  call(method, params).then(
    () => undefined,
    (error: { code?: string; message?: string }) => ({ code: error.code, message: error.message }),
  );
const ids = (items: JobView[]) => items.map((v) => v.rowId);

interface Sidecar {
  notes?: { id: string; atSeconds: number; text: string; rect: unknown }[];
  collections?: { id: string; name: string; position: number }[];
}
function sidecarOf(take: JobView): Sidecar {
  const library = path.join(studio.core.dataDir, 'library');
  const found = readdirSync(library, { recursive: true, encoding: 'utf8' }).find(
    (name) => path.basename(name) === 'framewright.json' && name.includes(take.jobId),
  );
  return JSON.parse(readFileSync(path.join(library, found!), 'utf8')) as Sidecar;
}

async function untilVerified(rowIds: number[]): Promise<JobView[]> {
  const end = Date.now() + 30_000;
  for (;;) {
    const jobs = await Promise.all(rowIds.map((jobRowId) => call<JobView>('jobs.get', { jobRowId })));
    if (jobs.every((j) => j.status === 'succeeded' && j.outputs.every((o) => o.verified))) return jobs;
    if (jobs.some((j) => j.status === 'failed') || Date.now() > end)
      throw new Error(`jobs ended ${jobs.map((j) => j.status).join(',')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  studio = await openStudioCore('fw-library-review-');
  const list = await call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  const model = list.services.find((s) => s.available)!.modelAlias;
  const rowIds: number[] = [];
  for (const prompt of ['A heron lands, take one', 'A heron lands, take two', 'A heron lands, take three']) {
    const draft = await call<{ id: string }>('drafts.create', { form: t2vForm(model, prompt, 7) });
    const submitted = await call<{ jobRowId: number }>('video.submit', { draftId: draft.id });
    rowIds.push(submitted.jobRowId);
  }
  takes = await untilVerified(rowIds);
});
afterAll(() => studio?.close());

describe('notes at a frame (issue 41)', () => {
  it('pins notes to times of a result, in time order, with a rectangle; edits and deletes them; refuses bad ones', async () => {
    const [take] = takes as [JobView];
    const late = await call<JobNoteView>('library.notes.add', {
      jobRowId: take.rowId,
      atSeconds: 3.2,
      text: '  The hand melts here  ',
      rect: { x: 0.25, y: 0.3, width: 0.2, height: 0.4 },
    });
    expect(late).toMatchObject({
      atSeconds: 3.2,
      text: 'The hand melts here',
      rect: { x: 0.25, width: 0.2 },
    });
    const early = await call<JobNoteView>('library.notes.add', {
      jobRowId: take.rowId,
      atSeconds: 0.5,
      text: 'Nice light',
    });
    expect(early.rect).toBeNull();
    const listed = await call<{ items: JobNoteView[] }>('library.notes.list', { jobRowId: take.rowId });
    expect(listed.items.map((n) => n.text)).toEqual(['Nice light', 'The hand melts here']);

    // a change of one field keeps the others; null removes the rectangle
    const moved = await call<JobNoteView>('library.notes.update', { noteId: late.id, atSeconds: 3.4 });
    expect(moved).toMatchObject({ atSeconds: 3.4, text: 'The hand melts here', rect: { y: 0.3 } });
    expect(
      (await call<JobNoteView>('library.notes.update', { noteId: late.id, rect: null })).rect,
    ).toBeNull();

    // bad input: a clear refusal, nothing changed
    expect(
      await refusal('library.notes.add', { jobRowId: take.rowId, atSeconds: 60, text: 'past the end' }),
    ).toMatchObject({
      code: 'library.invalid_note',
      message: expect.stringMatching(/past its end/),
    });
    expect(
      await refusal('library.notes.add', {
        jobRowId: take.rowId,
        atSeconds: 1,
        text: 'off the frame',
        rect: { x: 0.9, y: 0, width: 0.2, height: 0.2 },
      }),
    ).toMatchObject({ code: 'bridge.invalid_params' });
    expect(
      await refusal('library.notes.add', { jobRowId: take.rowId, atSeconds: 1, text: '   ' }),
    ).toMatchObject({
      code: 'bridge.invalid_params',
    });
    expect(await refusal('library.notes.update', { noteId: 'no-such-note', text: 'x' })).toMatchObject({
      code: 'library.note_not_found',
    });
    expect(
      (await call<{ items: JobNoteView[] }>('library.notes.list', { jobRowId: take.rowId })).items,
    ).toHaveLength(2);

    // the sidecar holds them (a reindex restores them)
    expect(sidecarOf(take).notes?.map((n) => [n.atSeconds, n.text])).toEqual([
      [0.5, 'Nice light'],
      [3.4, 'The hand melts here'],
    ]);

    // searchable with the prompts
    const found = await call<{ items: JobView[] }>('library.list', { query: 'melts' });
    expect(ids(found.items)).toEqual([take.rowId]);

    expect(await call('library.notes.delete', { noteId: early.id })).toEqual({ deleted: true });
    expect(await call('library.notes.delete', { noteId: early.id })).toEqual({ deleted: false });
    expect(sidecarOf(take).notes?.map((n) => n.text)).toEqual(['The hand melts here']);
  });
});

describe('collections (issue 41)', () => {
  it('gathers takes from a selection in order, reorders by hand, filters the library, and refuses what is not a result', async () => {
    const [one, two, three] = takes as [JobView, JobView, JobView];
    const selects = await call<CollectionView>('collections.create', {
      name: '  Selects  for   the heron ',
      jobRowIds: [three.rowId, one.rowId, three.rowId],
    });
    expect(selects).toMatchObject({ name: 'Selects for the heron', jobRowIds: [three.rowId, one.rowId] });
    const client = await call<CollectionView>('collections.create', { name: 'For the client' });

    // a take may be in several collections
    await call('collections.addItems', { collectionId: client.id, jobRowIds: [one.rowId, two.rowId] });
    const added = await call<CollectionView>('collections.addItems', {
      collectionId: selects.id,
      jobRowIds: [two.rowId, one.rowId],
    });
    expect(added.jobRowIds).toEqual([three.rowId, one.rowId, two.rowId]);

    const reordered = await call<CollectionView>('collections.reorder', {
      collectionId: selects.id,
      jobRowIds: [one.rowId, two.rowId, three.rowId],
    });
    expect(reordered.jobRowIds).toEqual([one.rowId, two.rowId, three.rowId]);
    // an order that is not exactly its takes is refused, and the order stays
    expect(
      await refusal('collections.reorder', { collectionId: selects.id, jobRowIds: [one.rowId, two.rowId] }),
    ).toMatchObject({ code: 'collection.invalid' });
    expect(
      await refusal('collections.reorder', {
        collectionId: selects.id,
        jobRowIds: [one.rowId, one.rowId, three.rowId],
      }),
    ).toMatchObject({ code: 'collection.invalid' });

    // the Library filtered to a collection, in its order (and with the other filters)
    const inSelects = await call<{ items: JobView[] }>('library.list', { collectionId: selects.id });
    expect(ids(inSelects.items)).toEqual([one.rowId, two.rowId, three.rowId]);
    await call('library.mark', { jobRowId: two.rowId, flag: 'pick', stars: 4 });
    expect(
      ids(
        (await call<{ items: JobView[] }>('library.list', { collectionId: selects.id, flag: 'pick' })).items,
      ),
    ).toEqual([two.rowId]);

    // each take's sidecar lists its collections and its place in each
    expect(sidecarOf(one).collections?.map((c) => [c.name, c.position])).toEqual([
      ['For the client', 0],
      ['Selects for the heron', 0],
    ]);

    const removed = await call<CollectionView>('collections.removeItems', {
      collectionId: client.id,
      jobRowIds: [one.rowId],
    });
    expect(removed.jobRowIds).toEqual([two.rowId]);
    expect(sidecarOf(one).collections?.map((c) => c.name)).toEqual(['Selects for the heron']);

    expect(
      await refusal('collections.addItems', { collectionId: client.id, jobRowIds: [987_654] }),
    ).toMatchObject({
      code: 'job.not_found',
    });
    expect(await refusal('collections.create', { name: 'x'.repeat(121) })).toMatchObject({
      code: 'bridge.invalid_params',
    });
    expect(await refusal('library.list', { collectionId: 'no-such' })).toMatchObject({
      code: 'collection.not_found',
    });
    // sharing needs a team: not here on this machine (one place refuses it)
    expect(await refusal('collections.share', { collectionId: selects.id, projectId: null })).toMatchObject({
      code: 'platform.not_here',
    });

    const listed = await call<{ items: CollectionView[] }>('collections.list');
    expect(listed.items.map((c) => [c.name, c.jobRowIds.length])).toEqual([
      ['For the client', 1],
      ['Selects for the heron', 3],
    ]);
  });

  it('seeds a sequence: each take a shot showing its result, in the collection’s order, nothing generated', async () => {
    const [one, two] = takes as [JobView, JobView];
    const keysBefore = (await studio.serverKeys()).length;
    const collection = await call<CollectionView>('collections.create', {
      name: 'Opening',
      jobRowIds: [two.rowId, one.rowId],
    });
    const made = await call<{ sequenceId: string; shots: number; skipped: number }>(
      'collections.toSequence',
      {
        collectionId: collection.id,
      },
    );
    expect(made).toMatchObject({ shots: 2, skipped: 0 });
    const sequence = await call<SequenceView>('sequences.get', { sequenceId: made.sequenceId });
    expect(sequence.name).toBe('Opening');
    expect(sequence.shots.map((s) => s.jobRowId)).toEqual([two.rowId, one.rowId]);
    expect(sequence.shots.every((s) => s.mediaUrl !== null)).toBe(true);
    // each shot says the seed its take was made with (the timeline shows it on hover)
    expect(sequence.shots.map((s) => s.seed)).toEqual([7, 7]);
    // nothing was sent to the platform: no new idempotency key
    expect((await studio.serverKeys()).length).toBe(keysBefore);
    const empty = await call<CollectionView>('collections.create', { name: 'Empty' });
    expect(await refusal('collections.toSequence', { collectionId: empty.id })).toMatchObject({
      code: 'collection.invalid',
    });
  });

  it('exports a review package beside the library: every take, its notes and marks, openable without Framewright', async () => {
    const [one, two] = takes as [JobView, JobView];
    const collection = await call<CollectionView>('collections.create', {
      name: 'Client review',
      jobRowIds: [two.rowId, one.rowId],
    });
    const written = await call<{
      fileName: string;
      takes: number;
      folder: string | null;
      downloadPath: string | null;
    }>('collections.exportPackage', { collectionId: collection.id });
    expect(written).toMatchObject({ takes: 2, downloadPath: null });
    expect(path.dirname(written.folder!)).toBe(path.join(studio.core.dataDir, 'library', 'review-packages'));
    const page = readFileSync(path.join(written.folder!, 'index.html'), 'utf8');
    // in the collection's order, with the first take's note
    expect(page.indexOf('take two')).toBeGreaterThan(-1);
    expect(page.indexOf('take two')).toBeLessThan(page.indexOf('take one'));
    expect(page).toContain('The hand melts here');
    const copied = readdirSync(path.join(written.folder!, 'takes'));
    expect(copied).toHaveLength(2);
    // shown in the file manager by its name (the browser host cannot open one: it answers the folder)
    expect(await call('collections.revealPackage', { fileName: written.fileName })).toEqual({
      folder: written.folder,
      opened: false,
    });
    for (const fileName of ['../library', 'review-x/../../etc', 'review-gone'])
      expect(await refusal('collections.revealPackage', { fileName })).toMatchObject({
        code: 'library.no_file',
      });
    const empty = await call<CollectionView>('collections.create', { name: 'Nothing yet' });
    expect(await refusal('collections.exportPackage', { collectionId: empty.id })).toMatchObject({
      code: 'collection.invalid',
    });
  });

  it('library reindex after the journal is lost restores notes and collections from the sidecars', async () => {
    const { journal } = studio.core.services;
    const before = journal.collections.list().filter((c) => c.jobRowIds.length > 0);
    const notesBefore = takes.map((t) =>
      journal.notes.forJob(t.rowId).map((n) => [n.atSeconds, n.text, n.rect]),
    );
    // the journal's rows of the review and the jobs go (as after a journal moved aside)
    journal.database.exec('DELETE FROM collections; DELETE FROM job_notes; DELETE FROM jobs;');
    const result = await reindexLibrary(journal, {
      libraryDirs: [path.join(studio.core.dataDir, 'library')],
    });
    expect(result.restored).toBe(3);
    const jobIdOf = new Map(takes.map((t) => [t.rowId, t.jobId]));
    const rowIdNow = (rowId: number) => journal.jobs.getJobByJobId('simulator', jobIdOf.get(rowId)!)!.id;
    const after = journal.collections.list();
    expect(after.map((c) => [c.id, c.name, c.jobRowIds])).toEqual(
      before.map((c) => [c.id, c.name, c.jobRowIds.map(rowIdNow)]),
    );
    expect(
      takes.map((t) => journal.notes.forJob(rowIdNow(t.rowId)).map((n) => [n.atSeconds, n.text, n.rect])),
    ).toEqual(notesBefore);
  });
});
