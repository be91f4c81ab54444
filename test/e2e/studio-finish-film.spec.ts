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
 * Finish a film (issue 31) in Chromium, as a creator does it: two generated shots trimmed on their
 * strips — one with the handles (dragged), one by keyboard (playhead ←/→, I, O) — assembled to the
 * kept lengths; a music bed generated and one voice line spoken, with its caption; the film
 * delivered 16:9 (padded) and 9:16 (cropped) for the web, and both played in the library. Every
 * step's screen passes axe-core.
 */

const FPS = 24;

/** The part of a video element the test reads (this file is type-checked without the DOM library). */
interface VideoElement {
  readyState: number;
  videoWidth: number;
  videoHeight: number;
}

async function addShot(page: Page, prompt: string, count: number) {
  await page.getByTestId('sequence-shot-prompt').fill(prompt);
  await page.getByTestId('sequence-shot-seconds').selectOption('5');
  await page.getByTestId('sequence-add-shot').click();
  await expect(page.getByTestId('sequence-strip').locator(':scope > li')).toHaveCount(count);
}

/** The kept range the open strip shows: its frames. */
async function kept(page: Page, index: number): Promise<[number, number]> {
  const line = page.getByTestId(`sequence-trim-kept-${index}`);
  return [
    Number(await line.getAttribute('data-in-frame')),
    Number(await line.getAttribute('data-out-frame')),
  ];
}

/** The seconds of a video the page can fetch, as ffprobe measures them. */
async function probedSeconds(page: Page, src: string): Promise<number> {
  const base64 = await page.evaluate(async (url: string) => {
    const res = await fetch(url);
    const bytes = new Uint8Array(await res.arrayBuffer());
    let text = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return btoa(text);
  }, src);
  const file = path.join(os.tmpdir(), `fw-e2e-film-${process.pid}.mp4`);
  writeFileSync(file, Buffer.from(base64, 'base64'));
  return Number(
    execFileSync(
      locateMediaTools().ffprobe,
      ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=duration', '-of', 'csv=p=0', file],
      { encoding: 'utf8' },
    ).trim(),
  );
}

const playerSize = (page: Page) =>
  page
    .getByTestId('library-film-player')
    .evaluate((v: VideoElement) => (v.readyState >= 1 ? `${v.videoWidth}x${v.videoHeight}` : ''));

test('two shots trimmed, a music bed and a voice line added, the film delivered 16:9 and 9:16 and played in the library', async ({
  page,
}) => {
  test.setTimeout(420_000);
  mkdirSync('test-results/screenshots', { recursive: true });
  const started = await startStudioHost();
  try {
    await signInContext(page.context(), started.host);
    await page.goto(started.host.origin + '/');
    await expect(page.getByTestId('status-connection')).toHaveAttribute('data-state', 'connected');
    await page.getByTestId('nav-sequences').click();
    await page.getByTestId('sequence-new-name').fill('Trimmed harbour');
    await page.getByTestId('sequence-create').click();
    await addShot(page, 'Gulls circle above the quay', 1);
    await addShot(page, 'A ferry docks in the rain', 2);
    await expect(page.getByTestId('sequence-shot-trim-0')).toBeDisabled();
    await page.getByTestId('sequence-generate-all').click();
    await expect(page.getByTestId('sequence-shot-trim-0')).toBeEnabled({ timeout: 120_000 });
    await expect(page.getByTestId('sequence-shot-trim-1')).toBeEnabled({ timeout: 120_000 });

    // shot 1: the in handle dragged to a fifth of the strip, the out handle to three fifths
    await page.getByTestId('sequence-shot-trim-0').click();
    const strip0 = page.getByTestId('sequence-trim-strip-0');
    await strip0.scrollIntoViewIfNeeded();
    await expect(strip0.locator('img').first()).toBeVisible();
    const box = (await strip0.boundingBox())!;
    const drag = async (handle: string, fraction: number) => {
      const h = (await page.getByTestId(handle).boundingBox())!;
      await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
    };
    await drag('sequence-trim-in-0', 0.2);
    await drag('sequence-trim-out-0', 0.6);
    const [in0, out0] = await kept(page, 0);
    expect(Math.abs(in0 - 24)).toBeLessThanOrEqual(2);
    expect(Math.abs(out0 - 72)).toBeLessThanOrEqual(2);
    // a handle moves by one frame with the arrow keys
    await page.getByTestId('sequence-trim-in-0').press('ArrowRight');
    expect(await kept(page, 0)).toEqual([in0 + 1, out0]);
    expect(await violations(page)).toEqual([]);
    await page.screenshot({ path: 'test-results/screenshots/sequence-trim.png', fullPage: true });
    await page.getByTestId('sequence-trim-save-0').click();
    await expect(page.getByTestId('sequence-trim-panel-0')).toHaveCount(0);
    await expect(page.getByTestId('sequence-shot-trim-badge-0')).toBeVisible();
    const seconds0 = (out0 - in0 - 1) / FPS;
    await expect(page.getByTestId('sequence-shot-duration-0')).toHaveAttribute(
      'data-seconds',
      String(Number(seconds0.toFixed(3))),
    );

    // shot 2 by keyboard: the playhead to frame 12, I; to frame 59, O (frames 12..59 kept: 2 s)
    await page.getByTestId('sequence-shot-trim-1').click();
    await page.getByTestId('sequence-trim-playhead-1').focus();
    for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('i');
    for (let i = 0; i < 47; i += 1) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('o');
    expect(await kept(page, 1)).toEqual([12, 60]);
    await expect(page.getByTestId('sequence-trim-kept-1')).toContainText('Kept 2 s of 5 s (48 frames)');
    await page.getByTestId('sequence-trim-save-1').click();
    await expect(page.getByTestId('sequence-shot-duration-1')).toHaveAttribute('data-seconds', '2');

    // the assembly (straight cuts) lasts the kept lengths, within one frame
    const total = seconds0 + 2;
    await page.getByTestId('sequence-crossfade').selectOption('0');
    await expect
      .poll(async () => Number(await page.getByTestId('sequence-total').getAttribute('data-seconds')))
      .toBeCloseTo(total, 2);
    await page.getByTestId('sequence-assemble').click();
    const player = page.getByTestId('sequence-assembly-player');
    await expect(player).toBeVisible({ timeout: 180_000 });
    expect(
      Math.abs((await probedSeconds(page, (await player.getAttribute('src'))!)) - total),
    ).toBeLessThanOrEqual(1 / FPS);

    // a music bed generated from a prompt, and one voice line spoken at 1 s, 3 dB down
    const sound = page.getByTestId('soundtrack-panel');
    await expect(sound.getByRole('heading', { name: 'Sound track' })).toBeVisible();
    await sound.getByLabel('Describe the music to generate').fill('Slow harbour strings');
    await page.getByTestId('soundtrack-music-generate').click();
    await expect(page.getByTestId('soundtrack-music-current')).toHaveAttribute('data-state', 'ready', {
      timeout: 60_000,
    });
    await sound.getByLabel('Words to speak').fill('The boats come home before the fog.');
    await sound.getByLabel('Starts at (s)').fill('1');
    await sound.getByLabel('Gain (dB)', { exact: true }).fill('-3');
    await page.getByTestId('soundtrack-line-speak').click();
    const line = page.getByTestId('soundtrack-voice-0');
    await expect(line).toHaveAttribute('data-state', 'ready', { timeout: 60_000 });
    await expect(line).toHaveAttribute('data-at', '1');
    await expect(page.getByTestId('soundtrack-cue-count')).toHaveAttribute('data-count', '1');
    await expect(page.getByTestId('soundtrack-cues').locator('li').first()).toHaveAttribute(
      'data-start',
      '1',
    );
    // the music ducks 18 dB under the voice
    await sound.getByLabel('Music ducks under a voice by (dB)').fill('18');
    await page.getByTestId('soundtrack-levels-save').click();
    await expect(page.getByTestId('soundtrack-levels-save')).toBeDisabled();
    // the captions export as SRT and WebVTT sidecars beside the assembled film
    await page.getByTestId('soundtrack-captions-export').click();
    await expect(page.getByTestId('soundtrack-captions-exported')).toContainText('.srt');
    await expect(page.getByTestId('soundtrack-captions-exported')).toContainText('.vtt');
    await sound.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/sequence-soundtrack.png', fullPage: true });
    expect(await violations(page)).toEqual([]);

    // 16:9 (ticked by default, padded) and 9:16 cropped, for the web
    const panel = page.getByTestId('deliveries-panel');
    await expect(panel.getByRole('checkbox', { name: 'Deliver 16:9 (1920×1080)' })).toBeChecked();
    await panel.getByRole('checkbox', { name: 'Deliver 9:16 (1080×1920)' }).check();
    await panel.getByRole('combobox', { name: 'Fit of 9:16' }).selectOption('crop');
    await expect(page.getByTestId('delivery-preview')).toHaveAttribute('data-preset', '9x16');
    await expect(page.getByTestId('delivery-preview')).toHaveAttribute('data-fit', 'crop');
    await page.getByTestId('delivery-start').click();
    const ready = page.locator('[data-testid="delivery"][data-state="ready"]');
    await expect(ready).toHaveCount(2, { timeout: 180_000 });
    await expect(page.getByTestId('delivery-error')).toHaveCount(0);
    await expect(page.getByTestId('delivery-facts').first()).toContainText('LUFS measured (target -14)');
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/sequence-deliveries.png', fullPage: true });
    expect(await violations(page)).toEqual([]);

    // both play in the library: the 9:16 one, then the 16:9 one
    await page.getByRole('button', { name: 'Play the 9:16 delivery in the library' }).click();
    await expect(page.getByTestId('library-film-player')).toHaveAttribute('data-preset', '9x16');
    await expect.poll(() => playerSize(page), { timeout: MEDIA_WAIT }).toBe('1080x1920');
    await page.getByRole('button', { name: 'Play Trimmed harbour, 16:9' }).click();
    await expect(page.getByTestId('library-film-player')).toHaveAttribute('data-preset', '16x9');
    await expect.poll(() => playerSize(page), { timeout: MEDIA_WAIT }).toBe('1920x1080');
    // a delivery lasts the trimmed film
    const film = (await page.getByTestId('library-film-player').getAttribute('src'))!;
    expect(Math.abs((await probedSeconds(page, film)) - total)).toBeLessThanOrEqual(1 / FPS);
    await page.getByTestId('library-films').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/screenshots/library-films.png', fullPage: true });
    expect(await violations(page)).toEqual([]);
  } finally {
    await started.stop();
  }
});
