import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyView, SequenceView, ServicesList } from '../../../src/shared/bridge/contract.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { openStudioCore, t2vForm, type StudioCore } from '../../support/studio-core.js';

/**
 * Trim (issue 31) over a real core, its simulator, ffmpeg and ffprobe: in/out points snapped to
 * the result's frames and refused when they cannot be kept; the assembly lasts the trimmed lengths
 * (within one frame), is re-rendered after a re-trim and reused when nothing changed; continue
 * after a trim starts from the out-point frame, bridge ends on the next shot's in-point frame
 * (same pixels as the decoded frame); the results' files are never changed.
 */

let studio: StudioCore;
let model: string;

const FPS = 24;

async function until<T>(read: () => Promise<T | undefined>, ms = 120_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

const get = (sequenceId: string) => studio.call<SequenceView>('sequences.get', { sequenceId });

/** The video stream's measured duration and frame count of a file. */
function videoFacts(file: string): { seconds: number; frames: number } {
  const out = execFileSync(locateMediaTools().ffprobe, [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames,duration',
    '-of',
    'json',
    file,
  ]);
  const stream = (JSON.parse(out.toString()) as { streams: { nb_read_frames: string; duration: string }[] })
    .streams[0]!;
  return { seconds: Number(stream.duration), frames: Number(stream.nb_read_frames) };
}

/** One decoded frame (index `n`) of a video, or the single frame of a PNG, as rgb24 bytes. */
function frameBytes(file: string, n = 0): Buffer {
  return execFileSync(
    locateMediaTools().ffmpeg,
    [
      '-v',
      'error',
      '-i',
      file,
      '-vf',
      `select=eq(n\\,${n})`,
      '-frames:v',
      '1',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'rgb24',
      '-',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
}

/** Mean absolute difference of two rgb24 frames (the assembly is re-encoded: never exactly equal). */
function difference(x: Buffer, y: Buffer): number {
  let sum = 0;
  for (let i = 0; i < x.length; i += 1) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

/** Which of the source's frames `candidates` the assembled frame is closest to. */
function closest(assembledFrame: Buffer, source: string, candidates: number[]): number {
  const scores = candidates.map((n) => difference(assembledFrame, frameBytes(source, n)));
  return candidates[scores.indexOf(Math.min(...scores))]!;
}

/** The library file of a shot's verified result. */
function resultPath(view: SequenceView, index: number): string {
  const job = studio.core.services.journal.jobs.getJob(view.shots[index]!.jobRowId!)!;
  return job.outputs.find((o) => o.downloadState === 'verified')!.localPath!;
}

/** The staged PNG a continued or bridged shot starts (or ends) with. */
async function frameOfDraft(draftId: string, which: 'firstFrame' | 'lastFrame'): Promise<string> {
  const draft = await studio.call<{ form: Record<string, { id: string } | undefined> }>('drafts.get', {
    draftId,
  });
  return studio.core.studio.staged.pathOf(draft.form[which]!.id);
}

async function assembled(sequenceId: string): Promise<AssemblyView> {
  const started = await studio.call<AssemblyView>('sequences.assemble', { sequenceId });
  const ready = await studio.core.studio.assembler.finished(started.assemblyId);
  expect(ready.state, ready.errorMessage ?? '').toBe('ready');
  return { ...ready, reused: started.reused };
}

beforeAll(async () => {
  studio = await openStudioCore('fw-trim-');
  const list = await studio.call<ServicesList>('services.list', { serviceKind: 'video_generation' });
  model = list.services.find((s) => s.available)!.modelAlias;
});

afterAll(async () => {
  await studio?.close();
});

describe('shot trims', () => {
  it('trims shots frame-accurately for the assembly, continue and bridge; files stay unchanged', async () => {
    let view = await studio.call<SequenceView>('sequences.create', { name: 'Trimmed harbour' });
    const id = view.sequenceId;
    await studio.call('sequences.addShot', {
      sequenceId: id,
      form: t2vForm(model, 'Gulls over the quay', 21),
    });
    view = await studio.call('sequences.addShot', {
      sequenceId: id,
      form: t2vForm(model, 'A ferry docks', 22),
    });
    // a shot with no result yet cannot be trimmed
    await expect(
      studio.call('sequences.trimShot', {
        sequenceId: id,
        shotId: view.shots[0]!.shotId,
        range: { inSeconds: 1, outSeconds: 2 },
      }),
    ).rejects.toMatchObject({ code: 'sequence.no_result' });
    await studio.call('sequences.generate', { sequenceId: id });
    view = await until(async () => {
      const v = await get(id);
      return v.shots.every((s) => s.mediaUrl !== null) ? v : undefined;
    });
    const [a, b] = view.shots;
    expect(a).toMatchObject({ frameRate: FPS, frameCount: 120, trim: null });
    expect(a!.frameUrls.length).toBeGreaterThan(0);
    const pathA = resultPath(view, 0);
    const pathB = resultPath(view, 1);
    const bytesA = readFileSync(pathA);

    // bad ranges are refused with a clear reason, and change nothing
    const trim = (shotId: string, range: { inSeconds: number; outSeconds: number } | null) =>
      studio.call<SequenceView>('sequences.trimShot', { sequenceId: id, shotId, range });
    await expect(trim(a!.shotId, { inSeconds: 3, outSeconds: 2 })).rejects.toMatchObject({
      code: 'sequence.invalid_trim',
      message: expect.stringMatching(/must come before the out point/),
    });
    await expect(trim(a!.shotId, { inSeconds: 1, outSeconds: 6 })).rejects.toMatchObject({
      code: 'sequence.invalid_trim',
      message: expect.stringMatching(/past the end of Shot 1/),
    });
    await expect(trim(a!.shotId, { inSeconds: 1, outSeconds: 1.01 })).rejects.toMatchObject({
      code: 'sequence.invalid_trim',
      message: expect.stringMatching(/shorter than one frame/),
    });
    expect((await get(id)).shots[0]!.trim).toBeNull();

    // Shot 1 keeps [0.5, 3) s: frames 12..71; Shot 2 keeps [1, 4.5) s: frames 24..107
    await trim(a!.shotId, { inSeconds: 0.5, outSeconds: 3 });
    view = await trim(b!.shotId, { inSeconds: 1.01, outSeconds: 4.5 });
    expect(view.shots[0]!.trim).toEqual({
      inSeconds: 0.5,
      outSeconds: 3,
      inFrame: 12,
      outFrame: 72,
      seconds: 2.5,
    });
    expect(view.shots[1]!.trim).toMatchObject({ inSeconds: 1, inFrame: 24, outFrame: 108, seconds: 3.5 });
    expect(view.totalSeconds).toBe(6);

    // the assembly lasts the trimmed lengths, within one frame
    const first = await assembled(id);
    expect(first.durationSeconds).toBe(6);
    expect(first.chapters.map((c) => [c.startSeconds, c.endSeconds])).toEqual([
      [0, 2.5],
      [2.5, 6],
    ]);
    const firstFile = studio.core.services.journal.sequences.assembly(first.assemblyId)!.localPath!;
    const measured = videoFacts(firstFile);
    expect(Math.abs(measured.seconds - 6)).toBeLessThanOrEqual(1 / FPS);
    expect(Math.abs(measured.frames - 6 * FPS)).toBeLessThanOrEqual(1);
    // and shows the kept frames: Shot 1 from its frame 12 to 71, then Shot 2 from its frame 24
    expect(closest(frameBytes(firstFile, 0), pathA, [0, 11, 12, 13])).toBe(12);
    expect(closest(frameBytes(firstFile, 59), pathA, [70, 71, 72, 119])).toBe(71);
    expect(closest(frameBytes(firstFile, 60), pathB, [0, 23, 24, 25])).toBe(24);
    const sidecar = JSON.parse(
      readFileSync(studio.core.services.journal.sequences.assembly(first.assemblyId)!.sidecarPath!, 'utf8'),
    ) as { shots: { trim: { inFrame: number; outFrame: number } | null }[] };
    expect(sidecar.shots.map((s) => s.trim && [s.trim.inFrame, s.trim.outFrame])).toEqual([
      [12, 72],
      [24, 108],
    ]);

    // unchanged: reused; a re-trim makes it out of date and renders anew
    expect(await assembled(id)).toMatchObject({ assemblyId: first.assemblyId, reused: true });
    expect((await get(id)).assemblyCurrent).toBe(true);
    await trim(b!.shotId, { inSeconds: 1, outSeconds: 3 });
    expect((await get(id)).assemblyCurrent).toBe(false);
    const second = await assembled(id);
    expect(second.assemblyId).not.toBe(first.assemblyId);
    expect(second.reused).toBe(false);
    const secondFile = studio.core.services.journal.sequences.assembly(second.assemblyId)!.localPath!;
    expect(Math.abs(videoFacts(secondFile).seconds - 4.5)).toBeLessThanOrEqual(1 / FPS);

    // continue after a trim starts from the out-point frame (frame 71), not the file's last frame
    view = await studio.call('sequences.continueShot', {
      sequenceId: id,
      fromShotId: a!.shotId,
      generationMode: 'i2v',
    });
    const continued = frameBytes(await frameOfDraft(view.shots[1]!.draftId, 'firstFrame'));
    expect(continued.equals(frameBytes(pathA, 71))).toBe(true);
    expect(continued.equals(frameBytes(pathA, 72))).toBe(false);
    expect(continued.equals(frameBytes(pathA, 119))).toBe(false);

    // bridge: from Shot 1's out-point frame to the next shot's in-point frame (frame 24 of its result)
    view = await studio.call('sequences.bridgeShots', {
      sequenceId: id,
      fromShotId: a!.shotId,
      toShotId: b!.shotId,
    });
    const bridge = view.shots[1]!;
    expect(bridge.origin).toBe('bridge');
    expect(frameBytes(await frameOfDraft(bridge.draftId, 'firstFrame')).equals(frameBytes(pathA, 71))).toBe(
      true,
    );
    const inFrame = frameBytes(await frameOfDraft(bridge.draftId, 'lastFrame'));
    expect(inFrame.equals(frameBytes(pathB, 24))).toBe(true);
    expect(inFrame.equals(frameBytes(pathB, 0))).toBe(false);

    // clearing the trim (or trimming to the whole result) uses the whole result again; the
    // result's file never changed
    view = await trim(a!.shotId, null);
    expect(view.shots[0]!.trim).toBeNull();
    await trim(b!.shotId, { inSeconds: 0, outSeconds: 5 });
    expect(studio.core.services.journal.sequences.trimsOf(id).size).toBe(0);
    expect(readFileSync(pathA).equals(bytesA)).toBe(true);
  });
});
