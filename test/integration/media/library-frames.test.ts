import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Journal } from '../../../src/main/core/journal/open-journal.js';
import { JobViews, type JobViewsJournal } from '../../../src/main/core/library/job-views.js';
import {
  FRAME_COUNT,
  MediaResolver,
  mediaSignatureOf,
  mediaUrl,
} from '../../../src/main/core/library/media-resolver.js';
import { StagedFiles } from '../../../src/main/core/storage/staged-files.js';
import { BROWSER_HOST } from '../../../src/main/core/library/studio-host.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';
import { acceptedJobRow, journalWithProfile } from '../../support/journal-rows.js';
import { mediaFixtures } from '../../support/media-fixtures.js';

/**
 * The Library card's scrub preview: a verified video's output view lists a few frame URLs, and the
 * core makes those frames once (evenly spaced, cached beside the poster) when one is first asked
 * for. Anything but a video has none; a video whose frames cannot be made is previewed by its
 * single poster, never an error.
 */

let libraryDir: string;
let journal: Journal;
let resolver: MediaResolver;
let views: JobViews;
let jobRowId: number;
const ids: Record<'video' | 'image' | 'broken', number> = { video: 0, image: 0, broken: 0 };

/** Resolves a route as the page asks for it: through the signed URL the core hands out. */
const resolveUrl = (url: string) => {
  const parsed = new URL(url, 'http://127.0.0.1');
  return resolver.resolve(parsed.pathname.slice('/media/'.length), mediaSignatureOf(parsed));
};
const outputView = (name: keyof typeof ids) => views.outputView(jobRowId, journal.outputs.get(ids[name])!);

beforeAll(() => {
  const dataDir = tempFolder('fw-frames-data-');
  libraryDir = path.join(dataDir, 'library');
  mkdirSync(libraryDir, { recursive: true });
  journal = journalWithProfile('http://127.0.0.1:1/v1');
  const job = acceptedJobRow(journal, {
    outputs: [{ assetId: 'video' }, { assetId: 'image' }, { assetId: 'broken' }],
  });
  jobRowId = job.id;
  const fixtures = mediaFixtures();
  // an MP4 cut before its index: it sniffs as a video, but nothing can seek or decode it
  const broken = path.join(libraryDir, 'broken.mp4');
  writeFileSync(broken, readFileSync(fixtures.refMp4).subarray(0, 2048));
  const files = {
    video: [fixtures.refMp4, 'video/mp4'],
    image: [fixtures.firstPng, 'image/png'],
    broken: [broken, 'video/mp4'],
  } as const;
  job.outputs.forEach((output, i) => {
    const name = (['video', 'image', 'broken'] as const)[i]!;
    const [source, mimeType] = files[name];
    const localPath = path.join(libraryDir, `${name}${path.extname(source)}`);
    if (source !== localPath) copyFileSync(source, localPath);
    journal.outputs.markDownloading(output.id, name);
    journal.outputs.markVerified(output.id, { localPath, sha256: 'a'.repeat(64), byteSize: 1, mimeType });
    ids[name] = output.id;
  });
  resolver = new MediaResolver({
    journal,
    libraryDirs: () => [libraryDir],
    staged: new StagedFiles(dataDir, journal),
  });
  // the output view reads no table: the route and the host's media base make its URLs
  views = new JobViews({} as JobViewsJournal, {
    drafts: { find: () => undefined },
    staged: { get: () => ({}) as never },
    host: BROWSER_HOST,
  });
});

describe('scrub frames of library results', () => {
  it(`a verified video lists ${FRAME_COUNT} signed frame URLs; the first request makes them all once, beside the poster, and later requests reuse them`, async () => {
    const { frameUrls } = outputView('video');
    expect(frameUrls).toHaveLength(FRAME_COUNT);
    // nothing is made before a frame is asked for
    expect(existsSync(path.join(libraryDir, '.posters'))).toBe(false);

    const first = await Promise.all(frameUrls.map(resolveUrl));
    const files = first.map((m) => m?.path);
    for (const media of first) expect(media).toMatchObject({ mimeType: 'image/png', disposition: 'inline' });
    expect(new Set(files).size).toBe(FRAME_COUNT);
    for (const [n, file] of files.entries())
      expect(file).toBe(path.join(libraryDir, '.posters', `output-${ids.video}.frame-${n}.png`));
    // evenly spaced through a moving test pattern: every frame shows something else
    expect(new Set(files.map((f) => readFileSync(f!).toString('base64'))).size).toBe(FRAME_COUNT);
    // no temporary file is left behind
    expect(readdirSync(path.join(libraryDir, '.posters')).filter((f) => f.includes('.tmp'))).toEqual([]);

    const madeAt = files.map((f) => statSync(f!).mtimeMs);
    const again = await Promise.all(frameUrls.map(resolveUrl));
    expect(again.map((m) => m?.path)).toEqual(files);
    expect(files.map((f) => statSync(f!).mtimeMs)).toEqual(madeAt);
  });

  it('frame routes are capabilities like every library route: unsigned or out of range, nothing', async () => {
    const route = `library/${jobRowId}/${ids.video}/frame/0`;
    expect(await resolver.resolve(route, null)).toBeUndefined();
    const beyond = `library/${jobRowId}/${ids.video}/frame/${FRAME_COUNT}`;
    expect(await resolveUrl(mediaUrl(BROWSER_HOST, beyond))).toBeUndefined();
  });

  it('an image result has no frames: none listed, and a frame route of it resolves to nothing', async () => {
    const view = outputView('image');
    expect(view.posterUrl).not.toBeNull();
    expect(view.frameUrls).toEqual([]);
    const route = `library/${jobRowId}/${ids.image}/frame/0`;
    expect(await resolveUrl(mediaUrl(BROWSER_HOST, route))).toBeUndefined();
    expect(existsSync(path.join(libraryDir, '.posters', `output-${ids.image}.frame-0.png`))).toBe(false);
  });

  it('a video whose frames cannot be made is previewed by its poster on every frame route', async () => {
    const posters = path.join(libraryDir, '.posters');
    mkdirSync(posters, { recursive: true });
    const poster = path.join(posters, `output-${ids.broken}.png`);
    copyFileSync(mediaFixtures().lastPng, poster);
    const { frameUrls } = outputView('broken');
    expect(frameUrls).toHaveLength(FRAME_COUNT);
    for (const url of frameUrls)
      expect(await resolveUrl(url)).toEqual({ path: poster, mimeType: 'image/png', disposition: 'inline' });
    expect(readdirSync(posters).filter((f) => f.startsWith(`output-${ids.broken}.`))).toEqual([
      `output-${ids.broken}.png`,
    ]);
  });
});
