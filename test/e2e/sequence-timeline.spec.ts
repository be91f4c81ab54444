import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, type Page } from '@playwright/test';
import { locateMediaTools } from '../../src/shared/node/ffmpeg-locator';
import { signInContext, startStudioHost } from '../support/studio-host-process';
import { violations } from './accessibility';
import { expect } from './studio-host';
import { MEDIA_WAIT } from './waits';

/**
 * The Sequences timeline (issue 40) in Chromium at 1280×720, as a creator edits a film on it: three
 * generated shots reordered by dragging, one trimmed by its edge and one by I/O at the playhead, a
 * voice line dragged to a new time, its caption shortened by its edge, an edit undone and redone
 * (and the history still there after a reload); the viewer's frame at three times against the assembled film's frame at the same times;
 * J/K/L shuttle (J plays backwards in real time to the start, L twice forwards at 2×, K stops); the tracks' names on screen;
 * a delivery made afterwards lasts what the timeline shows. axe-core clean in both themes.
 */

const FPS = 24;

interface Clip {
  id: string;
  start: number;
  end: number;
}

/** The picture track's clips in order: shot id, start and end (film seconds). */
const pictureClips = (page: Page): Promise<Clip[]> =>
  page.getByTestId('timeline-shot').evaluateAll((els) =>
    els
      .map((el) => ({
        id: el.getAttribute('data-shot-id') ?? '',
        start: Number(el.getAttribute('data-start')),
        end: Number(el.getAttribute('data-end')),
      }))
      .sort((a, b) => a.start - b.start),
  );

async function addShot(page: Page, prompt: string, count: number) {
  await page.getByTestId('sequence-shot-prompt').fill(prompt);
  await page.getByTestId('sequence-shot-seconds').selectOption('5');
  await page.getByTestId('sequence-add-shot').click();
  await expect(page.getByTestId('timeline-shot')).toHaveCount(count);
}

/** Drags from the middle of `from` by `dx` pixels, in steps (the timeline follows the pointer). */
async function dragBy(
  page: Page,
  from: { x: number; y: number; width: number; height: number },
  dx: number,
  atX?: number,
) {
  const x = atX ?? from.x + from.width / 2;
  const y = from.y + from.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y, { steps: 10 });
  await page.mouse.up();
}

const pxPerSecond = async (page: Page) =>
  Number(await page.getByTestId('timeline-lanes').getAttribute('data-px-per-second'));

/** The playhead moved to a film frame from 0 by keyboard (after a click at the ruler's start). */
async function playheadToFrame(page: Page, frame: number) {
  const ruler = (await page.getByTestId('timeline-ruler').boundingBox())!;
  await page.mouse.click(ruler.x + 1, ruler.y + ruler.height / 2);
  await expect(page.getByTestId('timeline-playhead')).toHaveAttribute(
    'data-seconds',
    /^0(\.0+)?$|^0\.0[0-9]/,
  );
  await page.getByTestId('timeline-scroller').focus();
  // the first click may land a fraction of a second in: back to frame 0 by single frames
  const now = Number(await page.getByTestId('timeline-playhead').getAttribute('data-seconds'));
  for (let i = 0; i < Math.round(now * FPS); i += 1) await page.keyboard.press('ArrowLeft');
  for (let i = 0; i < Math.floor(frame / FPS); i += 1) await page.keyboard.press('Shift+ArrowRight');
  for (let i = 0; i < frame % FPS; i += 1) await page.keyboard.press('ArrowRight');
  await expect
    .poll(async () => Number(await page.getByTestId('timeline-playhead').getAttribute('data-seconds')))
    .toBeCloseTo(frame / FPS, 4);
}

/**
 * Page-side: a 64×36 greyscale picture of a video element's current frame (this file is type-checked
 * without the DOM library, so the page's code is a string).
 */
const PIXELS = `(video) => {
  const canvas = document.createElement('canvas');
  canvas.width = 64;
  canvas.height = 36;
  const g = canvas.getContext('2d');
  g.drawImage(video, 0, 0, 64, 36);
  const data = g.getImageData(0, 0, 64, 36).data;
  const out = [];
  for (let i = 0; i < data.length; i += 4) out.push((data[i] + data[i + 1] + data[i + 2]) / 3);
  return out;
}`;

/** What the viewer shows now (the element on screen). */
function viewerPixels(page: Page): Promise<number[]> {
  return page.evaluate(
    `(${PIXELS})(document.querySelector('[data-testid="timeline-video"][data-on-screen="true"]'))`,
  );
}

/** The assembled film's frame (seeked to the frame's middle, in an element of its own). */
function filmPixels(page: Page, src: string, frame: number): Promise<number[]> {
  return page.evaluate(`(async () => {
    const video = document.createElement('video');
    video.muted = true;
    video.src = ${JSON.stringify(src)};
    await new Promise((resolve, reject) => { video.onloadeddata = resolve; video.onerror = reject; });
    video.currentTime = ${(frame + 0.5) / FPS};
    await new Promise((resolve) => (video.onseeked = resolve));
    return (${PIXELS})(video);
  })()`);
}

/** A file the page can fetch, written to a temporary file. */
async function download(page: Page, src: string): Promise<string> {
  const base64 = await page.evaluate(async (url: string) => {
    const res = await fetch(url);
    const bytes = new Uint8Array(await res.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, src);
  const file = path.join(os.tmpdir(), `fw-e2e-timeline-${process.pid}-${Date.now()}.mp4`);
  writeFileSync(file, Buffer.from(base64, 'base64'));
  return file;
}

const probe = (file: string, args: string[]): unknown =>
  JSON.parse(
    execFileSync(locateMediaTools().ffprobe, ['-v', 'error', ...args, '-of', 'json', file], {
      encoding: 'utf8',
    }),
  );

const difference = (a: number[], b: number[]) =>
  a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;

test('a three-shot film edited on the timeline: reordered, trimmed by edge and by I/O, a voice moved, undone and redone, previewed as assembled and delivered', async ({
  page,
}) => {
  test.setTimeout(600_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  const started = await startStudioHost();
  try {
    await signInContext(page.context(), started.host);
    await page.goto(started.host.origin + '/');
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-sequences').click();
    await page.getByTestId('sequence-new-name').fill('Timeline harbour');
    await page.getByTestId('sequence-create').click();
    await addShot(page, 'Gulls circle above the quay', 1);
    await addShot(page, 'A ferry docks in the rain', 2);
    await addShot(page, 'A lighthouse blinks through the fog', 3);
    // not generated yet: empty slots, each with Generate in place
    await expect(page.getByTestId('timeline-generate')).toHaveCount(3);
    await page.getByTestId('sequence-crossfade').selectOption('0');
    await page.getByTestId('sequence-generate-all').click();
    await expect(page.getByTestId('timeline-edge-out')).toHaveCount(3, { timeout: 180_000 });
    const original = await pictureClips(page);
    expect(original.map((c) => [c.start, c.end])).toEqual([
      [0, 5],
      [5, 10],
      [10, 15],
    ]);

    // a voice line at 1 s (the sound track's form)
    const sound = page.getByTestId('soundtrack-panel');
    await sound.getByLabel('Words to speak').fill('The boats come home before the fog.');
    await sound.getByLabel('Starts at (s)').fill('1');
    await page.getByTestId('soundtrack-line-speak').click();
    await expect(page.getByTestId('soundtrack-voice-0')).toHaveAttribute('data-state', 'ready', {
      timeout: 60_000,
    });
    const voice = page.getByTestId('timeline-voice');
    await expect(voice).toHaveAttribute('data-start', '1');
    await expect(page.getByTestId('timeline-caption')).not.toHaveCount(0);

    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    const pps = await pxPerSecond(page);
    expect(pps).toBeGreaterThan(20);

    // each track's name is on screen at its left, beside (not over) the scrolling tracks
    const names = page.getByTestId('timeline-track-names');
    for (const name of ['Picture', 'Music', 'Voice', 'Captions'])
      await expect(names.getByText(name, { exact: true })).toBeVisible();
    const namesBox = (await names.boundingBox())!;
    const scrollerBox = (await page.getByTestId('timeline-scroller').boundingBox())!;
    expect(namesBox.x + namesBox.width).toBeLessThanOrEqual(scrollerBox.x + 1);
    // each name level with its track
    for (const [name, track] of [
      ['Picture', 'timeline-shot'],
      ['Voice', 'timeline-voice'],
      ['Captions', 'timeline-caption'],
    ] as const) {
      const label = (await names.getByText(name, { exact: true }).boundingBox())!;
      const clip = (await page.getByTestId(track).first().boundingBox())!;
      expect(Math.abs(label.y + label.height / 2 - (clip.y + clip.height / 2)), name).toBeLessThan(3);
    }
    // the fit fills the scrolling area beside the names: the film's end within it
    const lanes = (await page.getByTestId('timeline-lanes').boundingBox())!;
    expect(lanes.x + lanes.width).toBeLessThanOrEqual(scrollerBox.x + scrollerBox.width);
    expect(lanes.width).toBeGreaterThan(scrollerBox.width - 40);
    expect(
      await page.getByTestId('timeline-scroller').evaluate((el) => el.scrollWidth - el.clientWidth),
    ).toBeLessThanOrEqual(0);

    // 1. reorder: the first shot dragged to between the second and the third
    const first = page.locator(
      `[data-testid="timeline-shot"][data-shot-id="${original[0]!.id}"] [data-testid="timeline-shot-body"]`,
    );
    await dragBy(page, (await first.boundingBox())!, 7 * pps);
    await expect
      .poll(async () => (await pictureClips(page)).map((c) => c.id))
      .toEqual([original[1]!.id, original[0]!.id, original[2]!.id]);
    // the strip below (the same sequence) follows
    await expect(page.getByTestId('sequence-strip').locator(':scope > li').first()).toHaveAttribute(
      'data-shot-id',
      original[1]!.id,
    );

    // 2. trim by edge: the (now first) shot's end dragged 1 s earlier; the later shots move up (ripple)
    const firstNow = page.locator(`[data-testid="timeline-shot"][data-shot-id="${original[1]!.id}"]`);
    const edge = (await firstNow.getByTestId('timeline-edge-out').boundingBox())!;
    await dragBy(page, edge, -1 * pps);
    await expect.poll(async () => (await pictureClips(page))[0]!.end).toBeCloseTo(4, 1);
    const afterEdge = await pictureClips(page);
    expect(afterEdge[1]!.start).toBe(afterEdge[0]!.end);
    expect(afterEdge[2]!.end - afterEdge[2]!.start).toBe(5);

    // 3. trim by I/O: the playhead half a second into the last shot, I
    const lastStart = afterEdge[2]!.start;
    await playheadToFrame(page, Math.round((lastStart + 0.5) * FPS));
    await page.keyboard.press('i');
    await expect
      .poll(async () => (await pictureClips(page))[2]!.end - (await pictureClips(page))[2]!.start)
      .toBeCloseTo(4.5, 2);

    // 4. the voice line dragged one second later
    // (the film is shorter now: the fit zoom changed with it)
    await dragBy(page, (await voice.boundingBox())!, await pxPerSecond(page));
    await expect.poll(async () => Number(await voice.getAttribute('data-start'))).toBeCloseTo(2, 1);
    const movedTo = Number(await voice.getAttribute('data-start'));
    await expect(page.getByTestId('soundtrack-voice-0')).toHaveAttribute('data-at', String(movedTo));

    // a shot removed with Delete comes back with Ctrl+Z, trimmed as it was
    const beforeRemoval = await pictureClips(page);
    await page
      .locator(
        `[data-testid="timeline-shot"][data-shot-id="${beforeRemoval[1]!.id}"] [data-testid="timeline-shot-body"]`,
      )
      .click();
    await page.keyboard.press('Delete');
    await expect(page.getByTestId('timeline-shot')).toHaveCount(2);
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('timeline-shot')).toHaveCount(3);
    await expect.poll(() => pictureClips(page)).toEqual(beforeRemoval);

    // 5. the caption shortened: its end dragged half a second earlier (it moved with its line)
    const caption = page.getByTestId('timeline-caption').first();
    await expect(caption).toHaveAttribute('data-start', String(movedTo));
    const captionEnd = Number(await caption.getAttribute('data-end'));
    const captionEdge = (await caption.getByTestId('timeline-caption-end').boundingBox())!;
    await dragBy(page, captionEdge, -0.5 * (await pxPerSecond(page)));
    await expect
      .poll(async () => Number(await caption.getAttribute('data-end')))
      .toBeCloseTo(captionEnd - 0.5, 1);
    const shortEnd = Number(await caption.getAttribute('data-end'));
    expect(shortEnd).toBeLessThan(captionEnd - 0.3);
    // the sound track's caption list (the same journal) says the same
    await expect(page.getByTestId('soundtrack-cues').locator('li').first()).toHaveAttribute(
      'data-end',
      String(shortEnd),
    );

    // 6. undo (the caption's end goes back), redo (shortened again)
    await page.getByTestId('timeline-scroller').focus();
    await page.keyboard.press('Control+z');
    await expect(caption).toHaveAttribute('data-end', String(captionEnd));
    await page.keyboard.press('Control+Shift+z');
    await expect(caption).toHaveAttribute('data-end', String(shortEnd));

    // the history survives a reload: the caption's edit, then the voice's move, undone and redone
    await page.reload();
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-sequences').click();
    await page
      .getByRole('button', { name: /Timeline harbour/ })
      .first()
      .click();
    await expect(page.getByTestId('timeline-shot')).toHaveCount(3);
    // the next assembly's cross-fade (0.5 s after a reload): the shots overlap by it on the timeline
    await page.getByTestId('sequence-crossfade').selectOption('0.5');
    await expect
      .poll(async () => (await pictureClips(page)).map((c) => [c.start, c.end]))
      .toEqual([
        [0, 4],
        [3.5, 8.5],
        [8, 12.5],
      ]);
    await expect(page.getByTestId('timeline-undo')).toBeEnabled();
    await page.getByTestId('timeline-undo').click(); // the caption
    await expect(page.getByTestId('timeline-caption').first()).toHaveAttribute(
      'data-end',
      String(captionEnd),
    );
    await page.getByTestId('timeline-undo').click(); // the voice's move
    await expect(page.getByTestId('timeline-voice')).toHaveAttribute('data-start', '1');
    await page.getByTestId('timeline-redo').click();
    await expect(page.getByTestId('timeline-voice')).toHaveAttribute('data-start', String(movedTo));
    await page.getByTestId('timeline-redo').click();
    await expect(page.getByTestId('timeline-caption').first()).toHaveAttribute('data-end', String(shortEnd));

    // an edit made in the forms under the timeline is undone the same way
    const atField = page.getByTestId('soundtrack-voice-at-0');
    await atField.fill('3');
    await atField.press('Tab');
    await expect(page.getByTestId('timeline-voice')).toHaveAttribute('data-start', '3');
    await page.getByTestId('timeline-scroller').focus();
    await page.keyboard.press('Control+z');
    await expect(page.getByTestId('timeline-voice')).toHaveAttribute('data-start', String(movedTo));

    // both themes: no accessibility violation; screenshots
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/sequence-timeline-light.png' });
    await page.getByTestId('nav-settings').click();
    await page.getByTestId('theme-dark').click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.getByTestId('nav-sequences').click();
    await expect(page.getByTestId('timeline-shot')).toHaveCount(3);
    await page.getByTestId('timeline').scrollIntoViewIfNeeded();
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/sequence-timeline-dark.png' });

    // the viewer's frame at three times against the assembled film's frame at the same times
    const clips = await pictureClips(page);
    const total = clips[2]!.end;
    await page.getByTestId('sequence-assemble').click();
    const player = page.getByTestId('sequence-assembly-player');
    await expect(player).toBeVisible({ timeout: 180_000 });
    const src = (await player.getAttribute('src'))!;
    const frames = [
      Math.round(0.5 * FPS),
      Math.round((clips[1]!.start + 1) * FPS),
      Math.round(total * FPS) - 3,
    ];
    for (const frame of frames) {
      await page.getByTestId('timeline').scrollIntoViewIfNeeded();
      await playheadToFrame(page, frame);
      await expect(page.getByTestId('timeline-viewer')).toHaveAttribute('data-shown', /\d/);
      await expect(page.locator('[data-testid="timeline-video"][data-on-screen="true"]')).toHaveCount(1);
      const shown = await viewerPixels(page);
      const near = await Promise.all([frame - 1, frame, frame + 1].map((f) => filmPixels(page, src, f)));
      const best = Math.min(...near.map((n) => difference(shown, n)));
      expect(best, `frame ${frame}`).toBeLessThan(6);
    }
    // and a frame of another shot is told apart (the comparison can fail)
    await playheadToFrame(page, frames[0]!);
    await expect(page.getByTestId('timeline-viewer')).toHaveAttribute('data-shown', /\d/);
    expect(difference(await viewerPixels(page), await filmPixels(page, src, frames[2]!))).toBeGreaterThan(6);

    // Space plays the cut from the playhead in real time across the cut into the next shot; Space pauses
    const playhead = async () =>
      Number(await page.getByTestId('timeline-playhead').getAttribute('data-seconds'));
    const from = await playhead();
    const playStarted = Date.now();
    await page.keyboard.press('Space');
    await expect.poll(playhead, { timeout: 15_000 }).toBeGreaterThan(clips[1]!.start + 1);
    const played = (await playhead()) - from;
    const wall = (Date.now() - playStarted) / 1000;
    expect(Math.abs(played - wall)).toBeLessThan(0.75);
    await expect(page.locator('[data-testid="timeline-video"][data-on-screen="true"]')).toHaveAttribute(
      'data-shot-id',
      clips[1]!.id,
    );
    await page.keyboard.press('Space');
    const stoppedAt = await playhead();
    await page.waitForTimeout(300);
    expect(await playhead()).toBe(stoppedAt);
    expect(stoppedAt).toBeGreaterThan(2);

    // J plays backwards in real time (not a jump, not a frame): the time shown goes down at every look
    const shownTime = async () => {
      const [m, s, f] = (await page.getByTestId('timeline-time').innerText())
        .split(' / ')[0]!
        .split(/[:.]/)
        .map(Number);
      return m! * 60 + s! + f! / FPS;
    };
    expect(await shownTime()).toBeCloseTo(stoppedAt, 1);
    await page.keyboard.press('j');
    const looks: { at: number; time: number }[] = [];
    for (let i = 0; i < 5; i += 1) {
      await page.waitForTimeout(200);
      looks.push({ at: Date.now(), time: await shownTime() });
    }
    for (let i = 1; i < looks.length; i += 1)
      expect(looks[i]!.time, `look ${i}`).toBeLessThan(looks[i - 1]!.time);
    const back = looks[0]!.time - looks[looks.length - 1]!.time;
    const backWall = (looks[looks.length - 1]!.at - looks[0]!.at) / 1000;
    expect(back).toBeGreaterThan(3 / FPS);
    expect(Math.abs(back - backWall)).toBeLessThan(0.3);
    // K stops it where it is
    await page.keyboard.press('k');
    const reversedTo = await playhead();
    expect(reversedTo).toBeLessThan(stoppedAt - 0.4);
    await page.waitForTimeout(300);
    expect(await playhead()).toBe(reversedTo);
    await expect(page.getByTestId('timeline-play')).toHaveText('Play');
    // J twice: backwards at 2×, said in the toolbar, until the film's start, where it stops
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await expect(page.getByTestId('timeline-rate')).toHaveText('Backwards 2×');
    await expect.poll(playhead, { timeout: 10_000 }).toBe(0);
    await expect(page.getByTestId('timeline-rate')).toHaveText('');
    await expect(page.getByTestId('timeline-play')).toHaveText('Play');
    await expect(page.getByTestId('timeline-viewer')).toHaveAttribute('data-shown', '0');
    // L twice: forwards at 2× (silent), K stops
    await page.keyboard.press('l');
    await page.keyboard.press('l');
    await expect(page.getByTestId('timeline-rate')).toHaveText('Forwards 2×');
    const fastFrom = { at: Date.now(), time: await playhead() };
    await page.waitForTimeout(600);
    const fastTo = { at: Date.now(), time: await playhead() };
    await page.keyboard.press('k');
    const speed = (fastTo.time - fastFrom.time) / ((fastTo.at - fastFrom.at) / 1000);
    expect(speed).toBeGreaterThan(1.4);
    expect(speed).toBeLessThan(2.6);
    await expect(page.getByTestId('timeline-play')).toHaveText('Play');

    // zoom: in by steps down to single frames (24 px each), the playhead kept on screen, and back to the fit
    const fit = await pxPerSecond(page);
    await page.getByTestId('timeline-scroller').focus();
    await page.keyboard.press('+');
    await expect.poll(() => pxPerSecond(page)).toBeCloseTo(fit * 1.5, 3);
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('+');
    await expect.poll(() => pxPerSecond(page)).toBe(24 * FPS);
    const box = (await page.getByTestId('timeline-scroller').boundingBox())!;
    const head = (await page.getByTestId('timeline-playhead').boundingBox())!;
    expect(head.x).toBeGreaterThanOrEqual(box.x);
    expect(head.x).toBeLessThanOrEqual(box.x + box.width);
    await page.keyboard.press('0');
    await expect.poll(() => pxPerSecond(page)).toBeCloseTo(fit, 3);

    // the assembled film's chapters start where the timeline's clips start
    const chapters = probe(await download(page, src), ['-show_chapters']) as {
      chapters: { start_time: string }[];
    };
    expect(chapters.chapters.map((c) => Number(Number(c.start_time).toFixed(2)))).toEqual(
      clips.map((c) => Number(c.start.toFixed(2))),
    );

    // a delivery made now lasts what the timeline shows (within a frame)
    await page.getByTestId('delivery-start').click();
    const ready = page.locator('[data-testid="delivery"][data-state="ready"]');
    await expect(ready).toHaveCount(1, { timeout: MEDIA_WAIT * 2 });
    await expect(page.getByTestId('delivery-error')).toHaveCount(0);
    await ready.getByTestId('delivery-play').click();
    const film = page.getByTestId('library-film-player');
    await expect(film).toBeVisible();
    const delivered = probe(await download(page, (await film.getAttribute('src'))!), [
      '-select_streams',
      'v:0',
      '-show_entries',
      'stream=duration',
    ]) as { streams: { duration: string }[] };
    expect(Math.abs(Number(delivered.streams[0]!.duration) - total)).toBeLessThanOrEqual(1 / FPS);
  } finally {
    await started.stop();
  }
});
