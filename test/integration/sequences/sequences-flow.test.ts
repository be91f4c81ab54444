import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyView, SequenceView, ServicesList } from '../../../src/shared/bridge/contract.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';
import { until } from '../../support/until.js';

/**
 * A sequence end to end over a real core and its embedded simulator: shots added, generated,
 * continued from an exact last frame, bridged, reordered, assembled with cross-fades (durations,
 * chapters, sound, sidecar), re-assembled without rendering again, and kept across a restart.
 */

let studio: StudioCore;
let model: string;

const get = (sequenceId: string) => studio.call<SequenceView>('sequences.get', { sequenceId });

/** Waits until every shot of the sequence has its verified result. */
const generated = (sequenceId: string) =>
  until(
    async () => {
      const view = await get(sequenceId);
      if (view.shots.some((s) => s.state === 'failed')) throw new Error('a shot failed');
      return view.shots.every((s) => s.mediaUrl !== null) ? view : undefined;
    },
    { ms: 120_000, what: 'every shot’s result' },
  );

function probe(file: string) {
  const out = execFileSync(locateMediaTools().ffprobe, [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    '-show_chapters',
    file,
  ]);
  return JSON.parse(out.toString()) as {
    format: { duration: string };
    streams: { codec_type: string }[];
    chapters: { start_time: string; end_time: string; tags: { title: string } }[];
  };
}

beforeAll(async () => {
  studio = await openStudioCore('fw-seq-');
  const list = await studio.call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});

afterAll(async () => {
  await studio?.close();
});

describe('sequences', () => {
  it('builds, generates, continues, bridges and assembles a sequence; nothing is created twice', async () => {
    let view = await studio.call<SequenceView>('sequences.create', { name: '  Harbour at dusk ' });
    expect(view.name).toBe('Harbour at dusk');
    const id = view.sequenceId;
    await studio.call('sequences.addShot', { sequenceId: id, form: t2vForm(model, 'A harbour at dusk', 11) });
    view = await studio.call('sequences.addShot', {
      sequenceId: id,
      form: { ...t2vForm(model, 'Boats leave the harbour', 12), seconds: 6 },
    });
    expect(view.shots.map((s) => [s.label, s.state, s.seconds])).toEqual([
      ['Shot 1', 'draft', 5],
      ['Shot 2', 'draft', 6],
    ]);
    expect(view.totalSeconds).toBe(11);
    // the shots' drafts are the Sequences screen's: Create does not reopen one after a reload
    const createDrafts = await studio.call<{ id: string }[]>('drafts.list', {});
    expect(createDrafts.map((d) => d.id)).not.toContain(view.shots[0]!.draftId);
    expect(view.assemblable).toBe(false);

    // continue and bridge need results
    await expect(
      studio.call('sequences.continueShot', {
        sequenceId: id,
        fromShotId: view.shots[0]!.shotId,
        generationMode: 'i2v',
      }),
    ).rejects.toMatchObject({ code: 'sequence.no_result' });

    const first = await studio.call<{ submitted: { state: string }[] }>('sequences.generate', {
      sequenceId: id,
    });
    expect(first.submitted.map((s) => s.state)).toEqual(['accepted', 'accepted']);
    view = await generated(id);
    // generating again creates nothing new: every shot is already submitted
    const again = await studio.call<{ submitted: unknown[] }>('sequences.generate', { sequenceId: id });
    expect(again.submitted).toEqual([]);

    // bridge shot 1 -> shot 2: a first/last-frame shot placed between them
    const [a, b] = view.shots;
    view = await studio.call('sequences.bridgeShots', {
      sequenceId: id,
      fromShotId: a!.shotId,
      toShotId: b!.shotId,
      prompt: 'The camera glides from the quay to the open water',
    });
    expect(view.shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new']);
    const bridge = view.shots[1]!;
    expect(bridge.generationMode).toBe('first_last_frame_video');
    expect(bridge.sourceShotIds).toEqual([a!.shotId, b!.shotId]);
    expect(bridge.firstFramePosterUrl).toMatch(/^\/media\/staged\//);

    // continue from the last shot: image-to-video from its exact last frame
    view = await studio.call('sequences.continueShot', {
      sequenceId: id,
      fromShotId: view.shots[2]!.shotId,
      generationMode: 'i2v',
    });
    expect(view.shots.map((s) => s.origin)).toEqual(['new', 'bridge', 'new', 'continue']);
    const draft = await studio.call<{
      form: { firstFrame?: { mimeType: string; width?: number; height?: number } };
    }>('drafts.get', { draftId: view.shots[3]!.draftId });
    expect(draft.form.firstFrame).toMatchObject({ mimeType: 'image/png', width: 1376, height: 768 });

    await studio.call('sequences.generate', { sequenceId: id });
    view = await generated(id);
    expect(view.assemblable).toBe(true);
    const durations = view.shots.map((s) => s.durationSeconds!);
    expect(durations.every((d) => d > 4)).toBe(true);
    expect(view.totalSeconds).toBeCloseTo(
      durations.reduce((x, y) => x + y, 0),
      2,
    );

    // reorder by moving the last shot to the front, and back
    const moved = await studio.call<SequenceView>('sequences.moveShot', {
      sequenceId: id,
      shotId: view.shots[3]!.shotId,
      toPosition: 0,
    });
    expect(moved.shots.map((s) => s.shotId)).toEqual([3, 0, 1, 2].map((i) => view.shots[i]!.shotId));
    expect(moved.shots.map((s) => s.label)).toEqual(['Shot 1', 'Shot 2', 'Shot 3', 'Shot 4']);
    view = await studio.call('sequences.moveShot', {
      sequenceId: id,
      shotId: view.shots[3]!.shotId,
      toPosition: 3,
    });

    // assemble with half-second cross-fades
    const started = await studio.call<AssemblyView>('sequences.assemble', {
      sequenceId: id,
      crossfadeSeconds: 0.5,
    });
    expect(started.state).toBe('assembling');
    const ready = await studio.core.studio.assembler.finished(started.assemblyId);
    expect(ready.state, ready.errorMessage ?? '').toBe('ready');
    const expected = durations.reduce((x, y) => x + y, 0) - 0.5 * (durations.length - 1);
    expect(ready.durationSeconds!).toBeCloseTo(expected, 1);
    expect(ready.chapters.map((c) => c.title)).toEqual(['Shot 1', 'Shot 2', 'Shot 3', 'Shot 4']);

    const record = studio.core.services.journal.sequences.assembly(ready.assemblyId)!;
    const facts = probe(record.localPath!);
    expect(Math.abs(Number(facts.format.duration) - expected)).toBeLessThan(0.15);
    expect(facts.streams.map((s) => s.codec_type)).toEqual(expect.arrayContaining(['video', 'audio']));
    expect(facts.chapters.map((c) => c.tags.title)).toEqual(['Shot 1', 'Shot 2', 'Shot 3', 'Shot 4']);
    expect(Number(facts.chapters[1]!.start_time)).toBeCloseTo(durations[0]! - 0.5, 1);

    // the sidecar lists every source shot by job id and sha256
    const sidecar = JSON.parse(readFileSync(record.sidecarPath!, 'utf8')) as {
      sha256: string;
      shots: { jobId: string; sha256: string; label: string }[];
    };
    expect(sidecar.sha256).toBe(ready.sha256);
    expect(sidecar.shots.map((s) => s.jobId)).toEqual(view.shots.map((s) => s.jobId));
    expect(sidecar.shots.map((s) => s.sha256)).toEqual(view.shots.map((s) => s.sha256));

    // the assembled file is served only through its signed media route
    const resolved = await studio.core.studio.media.resolve(
      ready.mediaUrl!.replace(/^\/media\//, '').replace(/\?.*$/, ''),
      new URL(ready.mediaUrl!, 'http://x').searchParams.get('s'),
    );
    expect(resolved?.mimeType).toBe('video/mp4');
    expect(
      await studio.core.studio.media.resolve(
        `assembly/${ready.assemblyId}`,
        'forged-signature-forged-signat',
      ),
    ).toBeUndefined();

    // re-assembling the unchanged sequence reuses the file
    const reused = await studio.call<AssemblyView>('sequences.assemble', {
      sequenceId: id,
      crossfadeSeconds: 0.5,
    });
    expect(reused).toMatchObject({ assemblyId: ready.assemblyId, state: 'ready', reused: true });
    expect((await get(id)).assemblyCurrent).toBe(true);
    // a change of order makes it out of date
    await studio.call('sequences.moveShot', { sequenceId: id, shotId: view.shots[0]!.shotId, toPosition: 1 });
    expect((await get(id)).assemblyCurrent).toBe(false);

    // removing a shot keeps its draft and job
    const removed = await studio.call<SequenceView>('sequences.removeShot', {
      sequenceId: id,
      shotId: view.shots[3]!.shotId,
    });
    expect(removed.shots).toHaveLength(3);
    expect(await studio.call('drafts.get', { draftId: view.shots[3]!.draftId })).toBeTruthy();

    // the simulator created exactly one job per shot
    const keys = await studio.serverKeys();
    const creations = keys.filter((k) => k.operation === 'media.generation');
    expect(creations).toHaveLength(4);
    expect(creations.every((k) => k.created === 1)).toBe(true);
    expect(existsSync(record.localPath!)).toBe(true);

    // deleting the sequence removes its assembled files, not its shots' drafts, jobs or results
    expect(await studio.call('sequences.delete', { sequenceId: id })).toEqual({ deleted: true });
    expect(existsSync(record.localPath!)).toBe(false);
    expect(existsSync(record.sidecarPath!)).toBe(false);
    expect(await studio.call('drafts.get', { draftId: view.shots[0]!.draftId })).toBeTruthy();
    const jobs = await studio.call<{ items: { rowId: number }[] }>('jobs.list', {});
    expect(jobs.items).toHaveLength(4);
    expect(await studio.call('sequences.list', {})).not.toContainEqual(
      expect.objectContaining({ sequenceId: id }),
    );
  });

  it('refuses bad input with a clear error and changes nothing', async () => {
    const view = await studio.call<SequenceView>('sequences.create', { name: 'Empty' });
    await expect(studio.call('sequences.create', { name: '   ' })).rejects.toMatchObject({
      code: expect.stringMatching(/invalid|usage/),
    });
    await expect(studio.call('sequences.assemble', { sequenceId: view.sequenceId })).rejects.toMatchObject({
      code: 'sequence.not_assemblable',
    });
    await expect(
      studio.call('sequences.moveShot', { sequenceId: view.sequenceId, shotId: 'nope', toPosition: 0 }),
    ).rejects.toMatchObject({ code: 'sequence.shot_not_found' });
    await expect(studio.call('sequences.get', { sequenceId: 'missing' })).rejects.toMatchObject({
      code: 'sequence.not_found',
    });
    await expect(
      studio.call('sequences.assemble', { sequenceId: view.sequenceId, crossfadeSeconds: 5 }),
    ).rejects.toBeTruthy();
    expect((await get(view.sequenceId)).shots).toEqual([]);
  });
});
