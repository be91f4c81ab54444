import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { mediaFixtures } from '../../support/media-fixtures.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { startStudioRig, type StudioRig } from './rig.js';

// On the platform, a reference trimmed in Create is stored for its readUrl as the kept range only
// (the same cut as the public interface's upload: StagedFiles.resolve), and a resubmit reads no new object.

let rig: StudioRig;
let longWav: string;

beforeAll(async () => {
  rig = await startStudioRig();
  longWav = path.join(tempFolder('fw-platform-trim-'), 'long-voice.wav');
  const { ffmpeg } = locateMediaTools();
  execFileSync(ffmpeg, ['-v', 'error', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=20', longWav]);
});
afterAll(async () => {
  await rig?.close();
});

/** Every object the platform read through a readUrl (`GET /objects/<subject>/<sha256> 200`). */
const objectsRead = () =>
  rig.logLines
    .map((l) => /^GET \/objects\/[0-9a-f]+\/([0-9a-f]{64}) 200$/.exec(l)?.[1])
    .filter((sha): sha is string => sha !== undefined);

function storedObject(sha256: string): string {
  const find = (dir: string): string | undefined => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        const hit = find(full);
        if (hit) return hit;
      } else if (entry.name === sha256) return full;
    }
    return undefined;
  };
  const file = find(rig.dataDir);
  if (!file) throw new Error(`object ${sha256} is not stored`);
  return file;
}

describe('a trimmed reference on the platform', () => {
  it('is stored and read as the kept range only; a resubmit reads nothing new', async () => {
    const member = await rig.open('member');
    const stage = async (file: string) =>
      ((await member.stage(file)) as { result: Record<string, unknown> & { id: string } }).result;
    const image = await stage(mediaFixtures().firstPng);
    const audio = await stage(longWav);
    const draft = await member.call<{ id: string }>('drafts.create', {
      form: {
        profileId: 'ignored-by-the-platform',
        model: 'h3-video',
        generationMode: 'universal_reference_video',
        prompt: 'Image 1 sways to Audio 1',
        orientation: 'landscape',
        seconds: 5,
        resolutionTier: '768p',
        seed: null,
        references: [image, { ...audio, trim: { startSeconds: 4, endSeconds: 12.5 } }],
      },
    });
    const first = await member.call<{ jobRowId: number }>('video.submit', { draftId: draft.id });
    expect(first.jobRowId).toBeGreaterThan(0);
    const end = Date.now() + 30_000;
    while (objectsRead().length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    const read = new Set(objectsRead());
    const audios = [...read].map(storedObject).filter((file) => !isImage(file));
    expect(audios).toHaveLength(1);
    const { ffprobe } = locateMediaTools();
    const seconds = Number(
      execFileSync(ffprobe, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', audios[0]!])
        .toString()
        .trim(),
    );
    expect(seconds).toBeCloseTo(8.5, 3);
    expect(statSync(audios[0]!).size).toBeLessThan(statSync(longWav).size);

    const again = await member.call<{ jobRowId: number }>('video.submit', { draftId: draft.id });
    expect(again.jobRowId).toBe(first.jobRowId);
    await new Promise((r) => setTimeout(r, 300));
    expect(new Set(objectsRead())).toEqual(read);
  });
});

function isImage(file: string): boolean {
  const { ffprobe } = locateMediaTools();
  return execFileSync(ffprobe, ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', file])
    .toString()
    .includes('video');
}
