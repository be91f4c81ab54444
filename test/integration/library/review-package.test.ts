import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/main/core/errors.js';
import { ffprobeJson } from '../../../src/main/core/media-tools/probe-media.js';
import {
  writeReviewPackage,
  zipReviewPackage,
  type ReviewPackageTake,
} from '../../../src/main/core/library/review-package.js';
import { sheetSize } from '../../../src/main/core/library/review-package-sheet.js';
import { writeZip } from '../../../src/main/core/library/review-package-zip.js';
import { locateMediaTools } from '../../../src/shared/node/ffmpeg-locator.js';
import { tempFolder } from '../../support/worlds/temp-folder.js';

/**
 * Issue 41's acceptance: "The exported review package opens in a plain browser: the contact sheet
 * shows every take and the notes." A reviewer with no Framewright relies on: every take's file,
 * byte for byte, in order; the page listing each take with its marks and notes (drawn rectangles
 * on the frame); a PNG of every thumbnail; a CSV and JSON that read back; the library untouched;
 * nothing half-written when the export fails or is stopped.
 */

let media: string;
const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const ffmpeg = (args: string[]) => execFileSync(locateMediaTools().ffmpeg, ['-v', 'error', '-y', ...args]);
const X264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

beforeAll(() => {
  media = tempFolder('fw-review-media-');
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc2=s=320x180:r=24:d=2', ...X264, path.join(media, 'night.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'smptebars=s=256x256:r=24:d=1', ...X264, path.join(media, 'bars.mp4')]);
  ffmpeg(['-f', 'lavfi', '-i', 'mandelbrot=s=640x360', '-frames:v', '1', path.join(media, 'still.png')]);
  ffmpeg([
    '-f',
    'lavfi',
    '-i',
    'rgbtestsrc=s=256x256',
    '-frames:v',
    '1',
    path.join(media, 'bars-poster.png'),
  ]);
  ffmpeg(['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', path.join(media, 'hum.wav')]);
  writeFileSync(path.join(media, 'not-a-video.mp4'), 'just text, not a video\n');
});

const noMarks = { flag: null, stars: 0, label: null } as const;

function takes(): ReviewPackageTake[] {
  const file = (name: string, mimeType: string) => ({
    path: path.join(media, name),
    mimeType,
    sha256: sha(path.join(media, name)),
  });
  return [
    {
      title: 'Night market, take 3',
      prompt: '<script>alert("x")</script> a night market in the rain',
      model: 'veo-like-1',
      seed: 42,
      generationMode: 'text_to_video',
      marks: { flag: 'pick', stars: 4, label: 'red' },
      notes: [
        { atSeconds: 3.2, text: 'the hand melts', rect: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 } },
        { atSeconds: 0.5, text: 'good opening <b>light</b>', rect: null },
      ],
      file: file('night.mp4', 'video/mp4'),
      acceptedAt: Date.UTC(2026, 10, 29, 12, 0, 0),
      jobId: 'job-night',
    },
    {
      title: 'Poster still',
      prompt: '=HYPERLINK("http://evil.example","click me")',
      model: 'image-model',
      seed: -7,
      generationMode: 'text_to_image',
      marks: { flag: 'reject', stars: 1, label: null },
      notes: [
        { atSeconds: 0, text: '+SUM(A1:A9) sky is flat', rect: { x: 0.5, y: 0.5, width: 0.5, height: 0.5 } },
      ],
      file: file('still.png', 'image/png'),
      acceptedAt: Date.UTC(2026, 10, 29, 12, 1, 0),
      jobId: 'job-still',
    },
    {
      title: 'Hum',
      prompt: 'a low hum, "warm", with\na second line',
      model: 'sound-model',
      seed: null,
      generationMode: null,
      marks: { ...noMarks },
      notes: [],
      file: file('hum.wav', 'audio/wav'),
      acceptedAt: Date.UTC(2026, 10, 29, 12, 2, 0),
      jobId: 'job-hum',
    },
    {
      title: 'Bars with a poster',
      prompt: 'colour bars',
      model: 'veo-like-1',
      seed: 7,
      generationMode: 'image_to_video',
      marks: { flag: null, stars: 5, label: 'green' },
      notes: [{ atSeconds: 65.5, text: 'too long', rect: null }],
      file: file('bars.mp4', 'video/mp4'),
      posterPath: path.join(media, 'bars-poster.png'),
      acceptedAt: Date.UTC(2026, 10, 29, 12, 3, 0),
      jobId: 'job-bars',
    },
    {
      title: 'Lost one',
      prompt: 'a take whose file was deleted',
      model: 'veo-like-1',
      seed: 1,
      generationMode: 'text_to_video',
      marks: { ...noMarks },
      notes: [{ atSeconds: 1, text: 'remember this', rect: null }],
      file: null,
      acceptedAt: Date.UTC(2026, 10, 29, 12, 4, 0),
      jobId: 'job-lost',
    },
  ];
}

const NOW = new Date(2026, 10, 29, 15, 23, 41);

/** What a package folder holds: every file, relative and `/`-separated. */
function filesOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(path.join(folder, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

async function expectFailure(promise: Promise<unknown>, message: RegExp): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe('library.package_failed');
  expect((error as AppError).message).toMatch(message);
}

describe('review package (issue 41)', () => {
  it('writes every take, the contact sheet (HTML and PNG), the CSV and the JSON; the library stays untouched', async () => {
    const parent = tempFolder('fw-review-out-');
    const input = takes();
    const before = input.map(
      (t) => t.file && { sha: sha(t.file.path), mtime: statSync(t.file.path).mtimeMs },
    );

    const written = await writeReviewPackage({
      collectionName: 'Night market / dailies',
      takes: input,
      parentDir: parent,
      now: NOW,
    });

    expect(written).toEqual({
      folder: path.join(parent, 'review-night-market-dailies-2026-11-29-1523'),
      fileName: 'review-night-market-dailies-2026-11-29-1523',
      takes: 5,
    });
    // only the package: no partial folder, no tiles left behind
    expect(readdirSync(parent)).toEqual([written.fileName]);
    expect(filesOf(written.folder)).toEqual([
      'README.txt',
      'contact-sheet.png',
      'index.html',
      'posters/01-night-market-take-3.png',
      'posters/04-bars-with-a-poster.png',
      'review.csv',
      'review.json',
      'takes/01-night-market-take-3.mp4',
      'takes/02-poster-still.png',
      'takes/03-hum.wav',
      'takes/04-bars-with-a-poster.mp4',
    ]);

    // each file copied byte for byte; the originals still there, unchanged
    const copies = [
      '01-night-market-take-3.mp4',
      '02-poster-still.png',
      '03-hum.wav',
      '04-bars-with-a-poster.mp4',
    ];
    copies.forEach((name, i) => {
      expect(sha(path.join(written.folder, 'takes', name))).toBe(input[i]!.file!.sha256);
      expect(existsSync(input[i]!.file!.path)).toBe(true);
      expect(sha(input[i]!.file!.path)).toBe(before[i]!.sha);
      expect(statSync(input[i]!.file!.path).mtimeMs).toBe(before[i]!.mtime);
    });
    // the given poster is copied; the other video's still is its first frame, a real PNG
    expect(sha(path.join(written.folder, 'posters/04-bars-with-a-poster.png'))).toBe(
      sha(path.join(media, 'bars-poster.png')),
    );
    const still = await ffprobeJson<{ streams: { codec_name: string; width: number; height: number }[] }>(
      path.join(written.folder, 'posters/01-night-market-take-3.png'),
      { format: false },
    );
    expect(still.streams[0]).toMatchObject({ codec_name: 'png', width: 320, height: 180 });

    // the PNG contact sheet: one grid of five 320x180 tiles (3 columns, 2 rows)
    const sheet = await ffprobeJson<{ streams: { codec_name: string; width: number; height: number }[] }>(
      path.join(written.folder, 'contact-sheet.png'),
      { format: false },
    );
    expect(sheetSize(5)).toMatchObject({ columns: 3, rows: 2, width: 992, height: 384 });
    expect(sheet.streams[0]).toMatchObject({ codec_name: 'png', width: 992, height: 384 });
    // the tiles differ: the first (the night market's frame) is not the fifth (a blank tile)
    const crop = (x: number, y: number) =>
      createHash('sha256')
        .update(
          execFileSync(locateMediaTools().ffmpeg, [
            '-v',
            'error',
            '-i',
            path.join(written.folder, 'contact-sheet.png'),
            '-vf',
            `crop=320:180:${x}:${y}`,
            '-f',
            'rawvideo',
            '-pix_fmt',
            'rgb24',
            '-',
          ]),
        )
        .digest('hex');
    expect(crop(8, 8)).not.toBe(crop(8 + 328, 8 + 188));

    // the page: every take in order with its marks and notes, escaped, nothing fetched, no script
    const html = readFileSync(path.join(written.folder, 'index.html'), 'utf8');
    const at = input.map((t) => html.indexOf(`</span> ${t.title.replace(/,/g, ',')}</h2>`));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; a night market in the rain');
    expect(html).toContain('good opening &lt;b&gt;light&lt;/b&gt;');
    expect(html).toMatch(/<time>0:00\.50<\/time> good opening/);
    expect(html).toMatch(/<time>0:03\.20<\/time> <span class="marker"[^>]*>▭1<\/span> the hand melts/);
    expect(html).toMatch(/<time>1:05\.50<\/time> too long/);
    expect(html).toContain('<time>0:01.00</time> remember this');
    // the drawn rectangles, over their take's frame
    const first = html.slice(html.indexOf('id="take-1"'), html.indexOf('id="take-2"'));
    expect(first).toContain(
      '<span class="box" style="left:10.000%;top:20.000%;width:30.000%;height:40.000%">',
    );
    expect(first).toContain(
      '<video controls preload="metadata" poster="posters/01-night-market-take-3.png" src="takes/01-night-market-take-3.mp4"',
    );
    const second = html.slice(html.indexOf('id="take-2"'), html.indexOf('id="take-3"'));
    expect(second).toContain('<img src="takes/02-poster-still.png"');
    expect(second).toContain('left:50.000%;top:50.000%;width:50.000%;height:50.000%');
    expect(second).toContain('Reject');
    expect(first).toContain('★★★★☆');
    expect(first).toMatch(/Pick/);
    expect(first).toContain('red');
    const lost = html.slice(html.indexOf('id="take-5"'));
    expect(lost).toContain('file not stored');
    expect(html).toContain('prefers-color-scheme:dark');
    // every src and href is a file of the package (relative): nothing from a network, nothing missing
    const refs = [...html.matchAll(/\s(?:src|href|poster)="([^"]*)"/g)].map((m) => decodeURIComponent(m[1]!));
    expect(refs.length).toBeGreaterThan(8);
    for (const ref of refs) {
      expect(ref).not.toMatch(/^[a-z]+:|^\/\//i);
      expect(existsSync(path.join(written.folder, ref)), ref).toBe(true);
    }
    expect(html).not.toMatch(/<link|@import|url\(/i);

    // the CSV reads back to the same prompts, marks and notes; formulas are neutralised
    const rows = parse(readFileSync(path.join(written.folder, 'review.csv')), {
      bom: true,
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((r) => r.position)).toEqual(['1', '2', '3', '4', '5']);
    expect(rows[0]).toMatchObject({
      title: 'Night market, take 3',
      prompt: input[0]!.prompt,
      model: 'veo-like-1',
      seed: '42',
      mode: 'text_to_video',
      flag: 'pick',
      stars: '4',
      label: 'red',
      notes: '0:00.50 good opening <b>light</b> | 0:03.20 the hand melts',
      file: 'takes/01-night-market-take-3.mp4',
    });
    expect(rows[1]).toMatchObject({
      prompt: `'=HYPERLINK("http://evil.example","click me")`,
      seed: '-7',
      flag: 'reject',
      stars: '1',
      label: '',
      notes: '0:00.00 +SUM(A1:A9) sky is flat',
    });
    expect(rows[2]).toMatchObject({
      prompt: 'a low hum, "warm", with\na second line',
      seed: '',
      mode: '',
      flag: '',
    });
    expect(rows[4]).toMatchObject({ file: 'file not stored', notes: '0:01.00 remember this' });
    for (const row of rows)
      for (const [column, cell] of Object.entries(row))
        if (column !== 'seed') expect(cell, `${column}: ${cell}`).not.toMatch(/^[=+\-@]/);

    // the JSON: the header and each take's notes with their rectangles
    const json = JSON.parse(readFileSync(path.join(written.folder, 'review.json'), 'utf8')) as {
      framewright: Record<string, unknown>;
      takes: { position: number; prompt: string; notes: { time: string; rect: unknown }[]; file: unknown }[];
    };
    expect(json.framewright).toEqual({
      format: 'review-package',
      version: 1,
      collection: 'Night market / dailies',
      exportedAt: NOW.toISOString(),
    });
    expect(json.takes.map((t) => t.prompt)).toEqual(input.map((t) => t.prompt));
    expect(json.takes[0]!.notes).toEqual([
      { atSeconds: 0.5, time: '0:00.50', text: 'good opening <b>light</b>', rect: null },
      {
        atSeconds: 3.2,
        time: '0:03.20',
        text: 'the hand melts',
        rect: { x: 0.1, y: 0.2, width: 0.3, height: 0.4 },
      },
    ]);
    expect(json.takes[4]!.file).toBeNull();
    expect(readFileSync(path.join(written.folder, 'README.txt'), 'utf8')).toMatch(/Open index\.html/);

    // the zip (the platform's download) holds every file, byte for byte, under the package's name
    const zipPath = path.join(parent, `${written.fileName}.zip`);
    const zipped = await zipReviewPackage(written.folder, zipPath);
    expect(zipped).toMatchObject({ zipPath, entries: 11 });
    expect(statSync(zipPath).size).toBe(zipped.bytes);
    const listed = readZip(zipPath);
    expect(listed.bad).toBeNull();
    expect(Object.keys(listed.files).sort()).toEqual(
      filesOf(written.folder).map((f) => `${written.fileName}/${f}`),
    );
    for (const f of filesOf(written.folder))
      expect(listed.files[`${written.fileName}/${f}`], f).toBe(sha(path.join(written.folder, f)));
    expect(readdirSync(parent).sort()).toEqual([written.fileName, `${written.fileName}.zip`]);
    // an existing zip is never replaced
    await expectFailure(zipReviewPackage(written.folder, zipPath), /already exists/);
  });

  it('gives a second export in the same minute its own folder', async () => {
    const parent = tempFolder('fw-review-twice-');
    const one = [takes()[1]!];
    const first = await writeReviewPackage({
      collectionName: 'Stills',
      takes: one,
      parentDir: parent,
      now: NOW,
    });
    const second = await writeReviewPackage({
      collectionName: 'Stills',
      takes: one,
      parentDir: parent,
      now: NOW,
    });
    expect(first.fileName).toBe('review-stills-2026-11-29-1523');
    expect(second.fileName).toBe('review-stills-2026-11-29-1523-2');
    expect(readdirSync(parent).sort()).toEqual([first.fileName, second.fileName]);
    expect(filesOf(first.folder)).toEqual(filesOf(second.folder));
    // one take: a one-tile sheet
    const sheet = await ffprobeJson<{ streams: { width: number; height: number }[] }>(
      path.join(second.folder, 'contact-sheet.png'),
      { format: false },
    );
    expect(sheet.streams[0]).toMatchObject({ width: 336, height: 196 });
  });

  it('keeps a name that tries to leave the folder inside it, and names any script', async () => {
    const parent = tempFolder('fw-review-names-');
    const one = [{ ...takes()[1]!, title: '../../etc/passwd' }];
    const evil = await writeReviewPackage({
      collectionName: '../../../tmp/x',
      takes: one,
      parentDir: parent,
      now: NOW,
    });
    expect(path.dirname(evil.folder)).toBe(parent);
    expect(evil.fileName).toBe('review-tmp-x-2026-11-29-1523');
    expect(filesOf(evil.folder)).toContain('takes/01-etc-passwd.png');
    const chinese = await writeReviewPackage({
      collectionName: '夜市 样片',
      takes: one,
      parentDir: parent,
      now: NOW,
    });
    expect(chinese.fileName).toBe('review-夜市-样片-2026-11-29-1523');
    const dots = await writeReviewPackage({ collectionName: '...', takes: one, parentDir: parent, now: NOW });
    expect(dots.fileName).toBe('review-collection-2026-11-29-1523');
  });

  it('leaves nothing when a take’s file has vanished, is not what was verified, or is not media', async () => {
    const parent = tempFolder('fw-review-fail-');
    const gone = takes();
    gone[3] = { ...gone[3]!, file: { ...gone[3]!.file!, path: path.join(media, 'deleted.mp4') } };
    await expectFailure(
      writeReviewPackage({ collectionName: 'Broken', takes: gone, parentDir: parent, now: NOW }),
      /take 4 \("Bars with a poster"\) is gone/,
    );
    expect(readdirSync(parent)).toEqual([]);

    const changed = takes();
    changed[1] = { ...changed[1]!, file: { ...changed[1]!.file!, sha256: 'a'.repeat(64) } };
    await expectFailure(
      writeReviewPackage({ collectionName: 'Broken', takes: changed, parentDir: parent, now: NOW }),
      /take 2 \("Poster still"\) is not the verified result/,
    );
    expect(readdirSync(parent)).toEqual([]);

    // ffmpeg cannot take a still of it: the contact sheet cannot be made, so no package
    const notVideo = [
      {
        ...takes()[0]!,
        file: { path: path.join(media, 'not-a-video.mp4'), mimeType: 'video/mp4', sha256: null },
      },
    ];
    await expectFailure(
      writeReviewPackage({ collectionName: 'Broken', takes: notVideo, parentDir: parent, now: NOW }),
      /take 1 .*not a recognised image, video or audio file/,
    );
    expect(readdirSync(parent)).toEqual([]);
    expect(existsSync(path.join(media, 'night.mp4'))).toBe(true);
  });

  it('leaves nothing when it is stopped part-way', async () => {
    const parent = tempFolder('fw-review-stop-');
    const stop = new AbortController();
    const running = writeReviewPackage({
      collectionName: 'Stopped',
      takes: takes(),
      parentDir: parent,
      now: NOW,
      signal: stop.signal,
    });
    // stop it once its hidden folder has the first take's copy (it is then making stills and tiles)
    const started = Date.now();
    while (
      !readdirSync(parent).some(
        (n) =>
          n.includes('.partial-') && existsSync(path.join(parent, n, 'takes', '01-night-market-take-3.mp4')),
      )
    ) {
      if (Date.now() - started > 30_000) throw new Error('the export never started');
      await new Promise((r) => setTimeout(r, 2));
    }
    stop.abort();
    await expectFailure(running, /stopped; nothing was written/);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('refuses what cannot be a package, with a reason', async () => {
    const parent = tempFolder('fw-review-refuse-');
    await expectFailure(
      writeReviewPackage({ collectionName: 'Empty', takes: [], parentDir: parent }),
      /no takes/,
    );
    await expectFailure(
      writeReviewPackage({
        collectionName: 'Nowhere',
        takes: takes(),
        parentDir: path.join(parent, 'missing'),
      }),
      /does not exist/,
    );
    const badRect = [
      {
        ...takes()[1]!,
        notes: [{ atSeconds: 0, text: 'x', rect: { x: 0.8, y: 0, width: 0.5, height: 0.5 } }],
      },
    ];
    await expectFailure(
      writeReviewPackage({ collectionName: 'Rect', takes: badRect, parentDir: parent }),
      /outside the frame/,
    );
    expect(readdirSync(parent)).toEqual([]);
  });

  it('writes ZIP64 records a standard reader accepts (for packages past 4 GiB)', async () => {
    const dir = tempFolder('fw-review-zip64-');
    const zipPath = path.join(dir, 'big.zip');
    await writeZip(
      [
        { name: 'p/takes/01-night.mp4', file: path.join(media, 'night.mp4') },
        { name: 'p/index.html', file: path.join(media, 'not-a-video.mp4') },
      ],
      zipPath,
      { zip64: 'always' },
    );
    const listed = readZip(zipPath);
    expect(listed.bad).toBeNull();
    expect(listed.files).toEqual({
      'p/takes/01-night.mp4': sha(path.join(media, 'night.mp4')),
      'p/index.html': sha(path.join(media, 'not-a-video.mp4')),
    });
  });
});

/**
 * A zip read back by another implementation (Python's zipfile, on every machine the project runs
 * on): the first bad entry by CRC (or null), and each entry's sha256.
 */
function readZip(zipPath: string): { bad: string | null; files: Record<string, string> } {
  const script = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    files = {i.filename: hashlib.sha256(z.read(i)).hexdigest() for i in z.infolist()}
print(json.dumps({"bad": bad, "files": files}))
`;
  return JSON.parse(execFileSync('python3', ['-c', script, zipPath], { encoding: 'utf8' })) as {
    bad: string | null;
    files: Record<string, string>;
  };
}
